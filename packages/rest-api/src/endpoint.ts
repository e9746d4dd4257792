import type { App, RealtimeServer } from '@org/protocol';
import type { RateLimitKind } from './options.js';

/** What an endpoint sees of an authenticated request. */
interface EndpointRequest {
  app: App;
  /** Path parameters, percent-decoded. */
  params: Readonly<Record<string, string>>;
  /** Query parameters, percent-decoded. */
  query: ReadonlyMap<string, string>;
  /** The body as UTF-8 text (`''` for GET). */
  body: string;
  /** The `maxJsonDepth` option: deepest JSON nesting a body may have. */
  maxJsonDepth: number;
}

/**
 * One route of the Pusher HTTP API under `/apps/:appId`. The pipeline
 * size-checks the body, resolves the app and authenticates; the
 * endpoint parses (400s), prices the request for the rate limiter and runs it.
 */
export interface Endpoint<Input> {
  method: 'GET' | 'POST';
  /** Relative to `/apps/:appId`, in hono syntax, e.g. `/channels/:channelName`. */
  path: string;
  /** Answers `X-Idempotency-Key` (a retry with a key is run once): for the endpoints that publish. */
  idempotent?: boolean;
  /** Validates the whole request before anything happens; throws for bad input. */
  parse(request: EndpointRequest): Input;
  /** Rate-limit price, or undefined for endpoints that are not limited. */
  cost(input: Input): { kind: RateLimitKind; points: number } | undefined;
  /** Runs the operation and returns the JSON body of the 200. */
  run(server: RealtimeServer, app: App, input: Input): Promise<object>;
}

/** A parsed request, priced and ready to run. */
export interface PreparedCall {
  cost: { kind: RateLimitKind; points: number } | undefined;
  run(): Promise<object>;
}

/** An endpoint with its input type erased, so different endpoints fit in one list. */
export interface ApiRoute {
  method: 'GET' | 'POST';
  path: string;
  idempotent: boolean;
  prepare(server: RealtimeServer, request: EndpointRequest): PreparedCall;
}

/** Types `Input` from `parse` and erases it behind `prepare`. */
export function defineEndpoint<Input>(endpoint: Endpoint<Input>): ApiRoute {
  return {
    method: endpoint.method,
    path: endpoint.path,
    idempotent: endpoint.idempotent ?? false,
    prepare(server, request) {
      const input = endpoint.parse(request);
      return { cost: endpoint.cost(input), run: () => endpoint.run(server, request.app, input) };
    },
  };
}
