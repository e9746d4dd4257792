import type { FeatureName } from './groups.js';

/** One app's credentials. */
export interface AppCredentials {
  readonly id: string;
  readonly key: string;
  readonly secret: string;
}

/** Where one node of the server answers. */
export interface Endpoint {
  readonly host: string;
  readonly port: number;
  readonly tls: boolean;
}

/** What the cases run against, resolved from the options: the only thing a case reads of them. */
export interface Target {
  readonly node: Endpoint;
  /** The second node, when given. */
  readonly node2: Endpoint | undefined;
  readonly app: AppCredentials;
  readonly featureApp: AppCredentials | undefined;
  readonly features: ReadonlySet<FeatureName>;
  /** Seconds. */
  readonly userAuthenticationTimeout: number;
  readonly clientEventsOffApp: AppCredentials | undefined;
  readonly maxEventDataBytes: number;
}
