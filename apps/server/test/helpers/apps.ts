import { randomBytes } from 'node:crypto';

/** One application of the daemon's config, in its snake_case keys. */
export interface TestApp {
  id: string;
  key: string;
  secret: string;
  [option: string]: unknown;
}

/** An app with fresh credentials; `options` are config keys such as `max_connections`. */
export function testApp(name: string, options: Record<string, unknown> = {}): TestApp {
  return {
    id: `${name}-id`,
    key: `${name}-key`,
    secret: randomBytes(16).toString('hex'),
    ...options,
  };
}

/** A daemon config with these apps; logging stays at info so the "listening" line is there. */
export function daemonConfig(apps: TestApp[], extra: Record<string, unknown> = {}): object {
  return { applications: apps, ...extra };
}
