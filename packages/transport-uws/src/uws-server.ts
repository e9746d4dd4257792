import { createServer } from 'node:net';
import type { RealtimeServer } from '@org/protocol';
import type { TemplatedApp, us_listen_socket } from 'uWebSockets.js';
import { createHttpBridge, type FetchHandler, type PlainHttpHandler } from './http-bridge.js';
import { InFlightRequests } from './in-flight-requests.js';
import type { TransportRefusalHandler } from './limits.js';
import { loadUws, type UwsModule } from './load-uws.js';
import { checkOptions, DEFAULT_MAX_BACKPRESSURE, DEFAULT_MAX_REQUEST_HEAD_SIZE, DEFAULT_MAX_REQUEST_SIZE, UwsOptionError } from './options.js';
import { firstThen, plainFromFetch } from './routed-request.js';
import { createRateLimitedReporter, type TransportErrorHandler } from './transport-errors.js';
import { createUwsTransport } from './uws-socket.js';
import { createWebSocketBehavior } from './websocket-behavior.js';

export interface TlsOptions {
  certFile: string;
  keyFile: string;
  passphrase?: string | undefined;
  caFile?: string | undefined;
}

export interface UwsServerOptions {
  server: RealtimeServer;
  /**
   * Serves every non-WebSocket request from plain values (method, path, query, headers, body
   * bytes in; status, headers, body out), without the Fetch API's cost: e.g. `createPusherApiHandler`
   * from `@org/rest-api`, which answers every route itself. Resolving to undefined passes the
   * request to `fetch`, or gets a 404 without one.
   */
  plain?: PlainHttpHandler;
  /** Serves non-WebSocket requests with the Fetch API (e.g. a hono app's `fetch`): every request, or those `plain` passes on. */
  fetch?: FetchHandler;
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /** Prefix before `/app/{key}`, e.g. `/realtime`. */
  path?: string;
  tls?: TlsOptions | undefined;
  /**
   * Largest WebSocket frame. A bigger one closes the connection with 1009
   * (Message Too Big); past twice this uWS drops the TCP connection (1006).
   * Default: 2 x the largest app max_message_size + 4 KiB of envelope.
   */
  maxPayloadLength?: number;
  /** Bytes buffered per slow client before it is closed. Default 1 MiB. */
  maxBackpressure?: number;
  /** Largest HTTP body: 413 and the connection closed, without reading more. Default 10,000 (the original server's max_request_size). */
  maxRequestSize?: number;
  /** Largest HTTP request head (request line and headers, WebSocket upgrades included): 431. Default 16 KiB. */
  maxRequestHeadSize?: number;
  /** Called once per refusal at a size limit, by reason: for metrics. */
  onRefused?: TransportRefusalHandler;
  /**
   * Called with every exception the transport caught in a uWS callback (which
   * would otherwise end the process), and where. Default: console.error, the
   * first of each kind at once, then at most one per kind a minute.
   */
  onError?: TransportErrorHandler;
  /**
   * Let other sockets listen on the same port too (SO_REUSEPORT): the kernel then spreads new
   * connections over them, e.g. over worker threads of one server. Default false: a second server
   * started on a port in use fails to listen, instead of silently taking a share of its clients.
   */
  reusePort?: boolean;
  /** Accept uWebSockets.js's slow JavaScript emulation. Default false. */
  allowFallback?: boolean;
  /** Use this uWS module instead of loading `uWebSockets.js`. */
  uws?: UwsModule;
}

export interface UwsServer {
  readonly app: TemplatedApp;
  /** The port listened on, after `listen`. */
  readonly port: number;
  /** Starts accepting on `port` (default: the configured one, or the last one listened on); resolves to the port. */
  listen(port?: number): Promise<number>;
  /**
   * Stops accepting new connections; open sockets stay until the engine closes them, and an idle
   * keep-alive HTTP connection may still send requests until `close()`.
   */
  stopListening(): void;
  /** HTTP requests being answered right now. */
  readonly inFlightRequests: number;
  /**
   * Waits for the HTTP requests in flight to be answered: resolves true as soon as none is left
   * (the loop turn after the last answer was handed to uWS, so an answer written inside a uWS
   * callback has left its cork buffer), or false at `deadline` (ms since the epoch, as `Date.now()`)
   * with some still unanswered. No polling. Call it after `stopListening()`; it closes nothing itself.
   * An answer larger than the socket takes at once waits in uWS's send buffer for a slow reader; a
   * `close()` then cuts it short, as the daemon's stop did before there was a drain.
   */
  drain(deadline: number): Promise<boolean>;
  /**
   * Stops listening and closes every connection still open: idle keep-alive HTTP connections
   * (which would otherwise go on being served by a stopped server, and keep a worker thread's
   * event loop alive), requests still unanswered past a drain (aborted), and WebSockets (1006; stop
   * the engine first to close them with a code). The server cannot listen again. Calling it again
   * does nothing.
   */
  close(): void;
}

/**
 * The native addon's app has `close()` (every socket of the app, listen sockets included), which
 * uWS 20.30's type declarations leave out; its JavaScript emulation has none.
 */
type ClosableApp = TemplatedApp & { close?: () => void };

/** uSockets' listen options: its default sets SO_REUSEPORT; "exclusive" does not. */
const LISTEN_DEFAULT = 0;
const LISTEN_EXCLUSIVE_PORT = 1;

/**
 * `app.listen(host, port, options, cb)`: the native addon takes listen options after the host and
 * port, though uWS's type declarations only declare them without a host.
 */
function listenWithOptions(app: TemplatedApp, host: string, port: number, listenOptions: number, cb: (socket: us_listen_socket | false) => void): void {
  (app.listen as unknown as (host: string, port: number, options: number, cb: (socket: us_listen_socket | false) => void) => void)(host, port, listenOptions, cb);
}

/** A port that is free on `host` right now, picked by the OS. */
function pickFreePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, host, () => {
      const address = probe.address();
      probe.close(() => (address && typeof address === 'object' ? resolve(address.port) : reject(new Error(`no free port on ${host}`))));
    });
  });
}

/**
 * Runs the engine on uWebSockets.js: WebSockets on `{path}/app/:key`, every
 * other request through the HTTP handler (`plain`, then `fetch`), fan-out on
 * uWS's native topics.
 */
export async function createUwsServer(options: UwsServerOptions): Promise<UwsServer> {
  checkOptions(options);
  const uws = options.uws ?? loadUws({ allowFallback: options.allowFallback ?? false });
  const { server } = options;
  const tls = options.tls;
  const app = tls
    ? uws.SSLApp({
        cert_file_name: tls.certFile,
        key_file_name: tls.keyFile,
        ...(tls.passphrase ? { passphrase: tls.passphrase } : {}),
        ...(tls.caFile ? { ca_file_name: tls.caFile } : {}),
      })
    : uws.App();

  const apps = await server.apps.all();
  const largestMessage = Math.max(10_000, ...apps.map((a) => a.maxMessageSize));
  const path = (options.path ?? '').replace(/\/+$/, '');

  const onError = options.onError ?? createRateLimitedReporter();
  const maxHeadBytes = options.maxRequestHeadSize ?? DEFAULT_MAX_REQUEST_HEAD_SIZE;

  app.ws(`${path}/app/:key`, createWebSocketBehavior(server, {
    maxPayloadLength: options.maxPayloadLength ?? largestMessage * 2 + 4096,
    maxBackpressure: options.maxBackpressure ?? DEFAULT_MAX_BACKPRESSURE,
    maxHeadBytes,
    onRefused: options.onRefused,
    onError,
  }));

  const inFlight = new InFlightRequests();
  const viaFetch = options.fetch && plainFromFetch(options.fetch, tls ? 'https' : 'http');
  const http = options.plain && viaFetch ? firstThen(options.plain, viaFetch) : (options.plain ?? viaFetch);
  if (http) {
    app.any('/*', createHttpBridge(http, {
      maxBodyBytes: options.maxRequestSize ?? DEFAULT_MAX_REQUEST_SIZE,
      maxHeadBytes,
      onRefused: options.onRefused,
      onError,
      onStart: () => inFlight.started(),
      onSettled: () => inFlight.settled(),
    }));
  }
  server.attach(createUwsTransport(app));

  let listenSocket: us_listen_socket | undefined;
  let port = options.port ?? 8080;
  let closed = false;
  const stopListening = () => {
    if (listenSocket) uws.us_listen_socket_close(listenSocket);
    listenSocket = undefined;
  };
  return {
    app,
    get port() {
      return port;
    },
    get inFlightRequests() {
      return inFlight.count;
    },
    listen: async (requested = port) => {
      const host = options.host ?? '0.0.0.0';
      const listenOn = (chosen: number) =>
        new Promise<number | undefined>((resolve, reject) => {
          // Also checked between the tries of a free port: a close() meanwhile must not be undone.
          if (closed) return reject(new Error('@org/transport-uws: the server is closed and cannot listen again'));
          listenWithOptions(app, host, chosen, options.reusePort ? LISTEN_DEFAULT : LISTEN_EXCLUSIVE_PORT, (socket) => {
            if (!socket) return resolve(undefined);
            listenSocket = socket;
            port = uws.us_socket_local_port(socket);
            resolve(port);
          });
        });
      if (requested !== 0) {
        const listening = await listenOn(requested);
        if (listening === undefined) throw new Error(`could not listen on ${host}:${requested}`);
        return listening;
      }
      // Linux refuses to re-bind a port the kernel picked (port 0) while connections accepted on it
      // are still open, which a graceful restart needs; a port chosen up front re-binds fine. Another
      // process may take it between the probe and the listen, hence a few tries.
      for (let attempt = 1; ; attempt++) {
        const chosen = await pickFreePort(host);
        const listening = await listenOn(chosen);
        if (listening !== undefined) return listening;
        if (attempt === 5) throw new Error(`could not listen on ${host} on a free port (last tried ${chosen})`);
      }
    },
    stopListening,
    drain(deadline) {
      if (typeof deadline !== 'number' || Number.isNaN(deadline)) {
        return Promise.reject(new UwsOptionError('@org/transport-uws: drain(deadline): deadline must be a time in ms since the epoch (Date.now())'));
      }
      return inFlight.drained(deadline);
    },
    close() {
      if (closed) return;
      closed = true;
      stopListening();
      (app as ClosableApp).close?.();
    },
  };
}
