import type { App } from '@org/protocol';
import { authenticate } from './authenticate.js';
import type { ApiRoute, PreparedCall } from './endpoint.js';
import { PusherApiError } from './errors.js';
import type { ResolvedOptions } from './options.js';
import { bodyText } from './read-body.js';

/** An `/apps/:appId/...` request whose app is found and whose body is buffered. */
export interface EndpointCall {
  app: App;
  method: string;
  /** The path as sent (or as a URL parser rewrote it), without the deployment prefix: what the SDKs sign. */
  path: string;
  /** Percent-decoded path parameters. */
  params: Readonly<Record<string, string>>;
  query: ReadonlyMap<string, string>;
  authorization: string | null;
  body: Uint8Array;
}

/**
 * What every `/apps/:appId/...` request goes through once its app is found, before anything
 * happens: signature (401), then parse (400s). Throws `PusherApiError` (or the engine's errors).
 */
export function prepareEndpoint(config: ResolvedOptions, endpoint: ApiRoute, call: EndpointCall): PreparedCall {
  const { app } = call;
  authenticate(app, call);
  return endpoint.prepare(config.server, {
    app,
    params: call.params,
    query: call.query,
    body: bodyText(call.body),
    maxJsonDepth: config.maxJsonDepth,
  });
}

/**
 * Then the rate limit (429) and the run. Resolves to the JSON body of the 200; rejects with
 * `PusherApiError` (or the engine's errors) otherwise. Not async itself: without a rate limiter the
 * operation's promise is handed back as it is.
 */
export function runPrepared(config: ResolvedOptions, app: App, prepared: PreparedCall): Promise<object> {
  const { rateLimit } = config;
  if (!prepared.cost || !rateLimit) return prepared.run();
  const { kind, points } = prepared.cost;
  return rateLimit(app, kind, points).then((decision) => {
    if (!decision.allowed && 'limit' in decision) {
      throw new PusherApiError('RATE_LIMITED', `this request costs ${points} points, more than the ${decision.limit} a second the limit allows; split it`);
    }
    if (!decision.allowed) {
      // Whole seconds, at least 1: Retry-After has no fractions and 0 invites a retry storm.
      const retryAfterSeconds = Number.isFinite(decision.retryAfterSeconds) ? Math.max(1, Math.ceil(decision.retryAfterSeconds)) : 1;
      throw new PusherApiError('RATE_LIMITED', `too many requests; retry in ${retryAfterSeconds} s`, { retryAfterSeconds });
    }
    return prepared.run();
  });
}

/**
 * The app of an `/apps/:appId/...` request, by its id (the path's `appId`); an
 * unknown one is a 404 even without credentials. Synchronous when the app
 * provider is.
 */
export function requireAppById(config: ResolvedOptions, appId: string): App | Promise<App> {
  const found = config.server.apps.findById(appId);
  if (isThenable(found)) return Promise.resolve(found).then((app) => existing(app, appId));
  return existing(found, appId);
}

function isThenable<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | undefined)?.then === 'function';
}

function existing(app: App | undefined, appId: string): App {
  if (!app) throw new PusherApiError('APP_NOT_FOUND', `app ${JSON.stringify(appId)} does not exist`);
  return app;
}
