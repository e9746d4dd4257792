import type { App } from '@org/protocol';

/** One answer of the HTTP API: `onResponse`'s argument and the `http.api.response` event's payload. */
export interface ResponseInfo {
  /** The app of the request, once resolved from the path. */
  app: App | undefined;
  method: string;
  /** The route pattern (e.g. `/apps/:appId/events`), or `unmatched`; low cardinality for metrics. */
  route: string;
  status: number;
}

// The engine serves no HTTP, so its own event map does not know this event: the package that
// answers HTTP declares it, and every program importing this package sees it on `server.events`.
declare module '@org/protocol' {
  interface ServerEventMap {
    /**
     * An HTTP API answer, emitted on the API's `server.events` after each one (after `onResponse`).
     * A host answering routes in front of the API (health, metrics) emits it for those too.
     * `hostEvents(server)` reports it as `Realtime.WebSocket.HttpApiEvent`.
     */
    'http.api.response': ResponseInfo;
  }
}
