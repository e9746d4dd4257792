// Shared by the property tests: the API in-process through both entry points, over a real engine
// with subscribed in-memory sockets, and what a request is allowed to change in it.
import { createApp, createStaticAppProvider, RealtimeServer, signChannel, type App } from '@org/protocol';
import { MemoryTransport, settle, type MemorySocket } from '@org/protocol/testing';
import { createPusherApi } from '../../src/create-pusher-api.js';
import { createPusherApiHandler } from '../../src/create-pusher-api-handler.js';
import type { PusherApiOptions, RateLimitKind } from '../../src/options.js';
import { mainApp, otherApp } from './test-fixture.js';

/** A request as a client sends it: the raw target (path and query) and the exact body bytes. */
export interface HostileRequest {
  method: string;
  /** Raw path, starting with `/`, without `?` or `#`. */
  path: string;
  /** Raw query without `?`, possibly empty. */
  query: string;
  /** Lower-case names; values a `Headers` object accepts unchanged. */
  headers: Record<string, string>;
  body: Uint8Array;
}

export interface Answer {
  status: number;
  /** Lower-case names. */
  headers: Record<string, string>;
  body: string;
}

/** Which entry point answered: the hono app's `fetch`, or the plain handler (as the uWS transport calls it). */
export type EntryPoint = 'fetch' | 'plain';

// The fixture's apps, except that the engine never pings the in-memory sockets (which never
// answer): a ping or a pong-timeout close during a long run would look like a request's doing.
const quiet = (app: App) => createApp({ ...app, activityTimeout: 86_400, pingInterval: 86_400 });
const first = quiet(mainApp);
const second = quiet(otherApp);

/** The subscribed sockets whose frames show whether a request published anything. */
const subscriptions: readonly { app: App; channel: string; userId?: string }[] = [
  { app: first, channel: 'a' },
  { app: first, channel: 'private-a' },
  { app: first, channel: 'presence-a', userId: 'member-1' },
  { app: first, channel: 'cache-a' },
  { app: second, channel: 'a' },
];

/** What a refused request must leave as it was. */
interface EngineState {
  /** Per subscribed socket: frames received and whether it is still open. */
  sockets: { frames: number; open: boolean }[];
  /** Subscription counts per app and channel, as the scaler holds them. */
  channels: Record<string, number>;
}

export interface Harness {
  readonly server: RealtimeServer;
  send(via: EntryPoint, request: HostileRequest): Promise<Answer>;
  /** Re-subscribes sockets a previous request legitimately closed (terminate_connections). */
  ensureSubscribers(): Promise<void>;
  state(): Promise<EngineState>;
  /** Errors given to `onError` (each one became a 500). */
  readonly unexpectedErrors: unknown[];
  /** Every `rateLimit` call, i.e. every request charged as valid. */
  readonly rateLimitCalls: { kind: RateLimitKind; points: number }[];
  /** The status `onResponse` saw for the last request. */
  readonly lastReported: { status: number | undefined };
  close(): Promise<void>;
}

export async function startHarness(options: Omit<PusherApiOptions, 'server' | 'onError' | 'rateLimit' | 'onResponse'> = {}): Promise<Harness> {
  const server = new RealtimeServer({ apps: createStaticAppProvider([first, second]) });
  const transport = new MemoryTransport(server);
  await server.start();
  const unexpectedErrors: unknown[] = [];
  const rateLimitCalls: { kind: RateLimitKind; points: number }[] = [];
  const lastReported: { status: number | undefined } = { status: undefined };
  const apiOptions: PusherApiOptions = {
    server,
    ...options,
    onError: (error) => unexpectedErrors.push(error),
    rateLimit: (_app, kind, points) => {
      rateLimitCalls.push({ kind, points });
      return Promise.resolve({ allowed: true });
    },
    onResponse: ({ status }) => (lastReported.status = status),
  };
  const api = createPusherApi(apiOptions);
  const handler = createPusherApiHandler(apiOptions);
  const sockets: MemorySocket[] = [];

  const subscribe = async (index: number) => {
    const { app, channel, userId } = subscriptions[index]!;
    const origin = app.allowedOrigins[0] ?? '*';
    const socket = await transport.connect(origin === '*' ? { appKey: app.key } : { appKey: app.key, origin });
    const channelData = userId === undefined ? undefined : JSON.stringify({ user_id: userId });
    const needsAuth = channel.startsWith('private-') || channel.startsWith('presence-');
    const auth = needsAuth ? signChannel(app, socket.socketId, channel, channelData) : undefined;
    socket.receive({ event: 'pusher:subscribe', data: { channel, ...(auth ? { auth } : {}), ...(channelData ? { channel_data: channelData } : {}) } });
    sockets[index] = socket;
  };

  const viaFetch = async (request: HostileRequest): Promise<Answer> => {
    const url = `http://127.0.0.1${request.path}${request.query === '' ? '' : `?${request.query}`}`;
    const hasBody = request.method !== 'GET' && request.method !== 'HEAD' && request.body.byteLength > 0;
    const response = await api.fetch(new Request(url, { method: request.method, headers: request.headers, ...(hasBody ? { body: request.body } : {}) }));
    return { status: response.status, headers: Object.fromEntries(response.headers), body: await response.text() };
  };

  const harness: Harness = {
    server,
    unexpectedErrors,
    rateLimitCalls,
    lastReported,
    async send(via, request) {
      lastReported.status = undefined;
      if (via === 'plain') {
        const plain = await handler.handle(request);
        return { status: plain.status, headers: { ...plain.headers }, body: plain.body };
      }
      return viaFetch(request);
    },
    async ensureSubscribers() {
      let changed = false;
      for (let index = 0; index < subscriptions.length; index++) {
        const socket = sockets[index];
        if (socket && !socket.closed) continue;
        await subscribe(index);
        changed = true;
      }
      if (changed) await settle();
    },
    async state() {
      await settle();
      const channels: Record<string, number> = {};
      for (const app of [first, second]) {
        for (const [channel, count] of await server.scaler.channels(app.id)) channels[`${app.id}/${channel}`] = count;
      }
      return { sockets: sockets.map((socket) => ({ frames: socket.frames.length, open: !socket.closed })), channels };
    },
    async close() {
      await server.stop();
    },
  };
  await harness.ensureSubscribers();
  return harness;
}

/** Whether a URL parser leaves the raw target as sent, so both entry points see the same request. */
export function survivesUrlParsing(request: HostileRequest): boolean {
  try {
    const url = new URL(`http://127.0.0.1${request.path}${request.query === '' ? '' : `?${request.query}`}`);
    return url.pathname === request.path && url.search === (request.query === '' ? '' : `?${request.query}`);
  } catch {
    return false;
  }
}

/**
 * What is wrong with an answer, or undefined when it is well formed: a 2xx or
 * 4xx status (a 5xx is a bug), a JSON body `{"error": string, "code": status}`
 * with the JSON content type for errors, a JSON object for a 200, nothing for a 204.
 */
export function answerProblem(request: HostileRequest, answer: Answer): string | undefined {
  const { status, headers, body } = answer;
  if (!Number.isInteger(status) || status < 200 || status > 499 || (status > 204 && status < 400)) return `status ${status}`;
  if (status === 204) return body === '' ? undefined : `a 204 with a body: ${body.slice(0, 200)}`;
  // A HEAD answer carries the GET answer's status and headers without its body.
  if (request.method === 'HEAD') return body === '' ? undefined : 'a HEAD answer with a body';
  const contentType = headers['content-type'] ?? '';
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return `status ${status} with a body that is not JSON: ${body.slice(0, 200)}`;
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return `status ${status} with a JSON body that is not an object`;
  if (status === 200) return contentType.startsWith('application/json') ? undefined : `a 200 with content-type ${contentType}`;
  if (contentType !== 'application/json; charset=UTF-8') return `status ${status} with content-type ${contentType}`;
  const { error, code, ...rest } = json as Record<string, unknown>;
  if (typeof error !== 'string' || error === '') return `status ${status} without an error message: ${body.slice(0, 200)}`;
  if (code !== status) return `status ${status} with code ${String(code)}`;
  if (Object.keys(rest).length > 0) return `status ${status} with extra fields ${Object.keys(rest).join(', ')}`;
  if (status === 405 && !headers['allow']) return 'a 405 without Allow';
  return undefined;
}
