// Shared by the tests: a real HTTP server over the API, a real engine and subscribed in-memory sockets.
import { createHash, createHmac } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { createApp, createStaticAppProvider, RealtimeServer, signChannel, type App, type AppOptions } from '@org/protocol';
import { MemoryTransport, settle, type MemorySocket } from '@org/protocol/testing';
import Pusher from 'pusher';
import { createPusherApi } from '../../src/create-pusher-api.js';
import { createPusherApiHandler, type PusherApiHandler } from '../../src/create-pusher-api-handler.js';
import type { PusherApiOptions } from '../../src/options.js';

export const mainApp = createApp({ id: 'app-1', key: 'key-1', secret: 'secret-1' });
export const otherApp = createApp({ id: 'app-2', key: 'key-2', secret: 'secret-2', allowedOrigins: ['https://allowed.example'], maxMessageSize: 100 });

export interface ApiFixture {
  server: RealtimeServer;
  transport: MemoryTransport;
  baseUrl: string;
  port: number;
  /** The official SDK, pointed at the test server for `app`. */
  pusher(app?: App): Pusher;
  /** A socket of `app` subscribed to `channel` (signed for private/presence). */
  subscriber(channel: string, options?: { app?: App; presence?: { user_id: string; user_info?: object } }): Promise<MemorySocket>;
  close(): Promise<void>;
}

export async function startApi(
  options: Omit<PusherApiOptions, 'server'> = {},
  apps: readonly (App | AppOptions)[] = [mainApp, otherApp],
): Promise<ApiFixture> {
  const server = new RealtimeServer({ apps: createStaticAppProvider(apps) });
  const transport = new MemoryTransport(server);
  await server.start();
  // The vitest project `plain` serves every test through createPusherApiHandler on node:http instead of the hono app.
  const http: ServerType | Server =
    process.env['REST_API_VIA'] === 'plain'
      ? servePlain(createPusherApiHandler({ server, ...options }))
      : serve({ fetch: createPusherApi({ server, ...options }).fetch, hostname: '127.0.0.1', port: 0 });
  if (!http.listening) await once(http, 'listening');
  const { port } = http.address() as AddressInfo;
  return {
    server,
    transport,
    port,
    baseUrl: `http://127.0.0.1:${port}`,
    pusher: (app = mainApp) => new Pusher({ appId: app.id, key: app.key, secret: app.secret, host: '127.0.0.1', port: String(port), useTLS: false }),
    async subscriber(channel, { app = mainApp, presence } = {}) {
      const origin = app.allowedOrigins[0] ?? '*';
      const socket = await transport.connect(origin === '*' ? { appKey: app.key } : { appKey: app.key, origin });
      const channelData = presence ? JSON.stringify(presence) : undefined;
      const needsAuth = channel.startsWith('private-') || channel.startsWith('presence-');
      const auth = needsAuth ? signChannel(app, socket.socketId, channel, channelData) : undefined;
      socket.receive({ event: 'pusher:subscribe', data: { channel, ...(auth ? { auth } : {}), ...(channelData ? { channel_data: channelData } : {}) } });
      await settle();
      return socket;
    },
    async close() {
      await new Promise<void>((resolve) => http.close(() => resolve()));
      await server.stop();
    },
  };
}

/** A node:http server that reads each request (up to the handler's `maxRequestSize`) into plain values for the handler. */
function servePlain(handler: PusherApiHandler): Server {
  const http = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    let received = 0;
    req.on('data', (chunk: Buffer) => {
      received += chunk.byteLength;
      // Past the limit the bytes are counted, not kept: the handler answers 413 from the length alone.
      if (received <= handler.maxRequestSize) chunks.push(chunk);
    });
    req.on('end', () => {
      void (async () => {
        const url = req.url ?? '/';
        const queryStart = url.indexOf('?');
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(req.headers)) {
          if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
        }
        const body = received > handler.maxRequestSize ? new Uint8Array(received) : new Uint8Array(Buffer.concat(chunks));
        const answer = await handler.handle({
          method: req.method ?? 'GET',
          path: queryStart === -1 ? url : url.slice(0, queryStart),
          query: queryStart === -1 ? '' : url.slice(queryStart + 1),
          headers,
          body,
        });
        res.writeHead(answer.status, answer.headers).end(answer.body);
      })();
    });
  });
  http.listen(0, '127.0.0.1');
  return http;
}

export interface SignOptions {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** The path that is signed, `/apps/{id}/...`. */
  path: string;
  params?: Record<string, string>;
  body?: string | Uint8Array;
  app?: App;
  /** Unix seconds; defaults to now. */
  timestamp?: number;
  /** Percent-encode query values in the URL, as pusher-http-php (Guzzle) does. */
  encode?: boolean;
  /** Send `body_md5` even for an empty body, as pusher-http-php does on every POST. */
  alwaysBodyMd5?: boolean;
}

/**
 * Builds a signed query string independently of the code under test, from the
 * published algorithm: sort `k=v` of the decoded params, sign `METHOD\nPATH\nQUERY`.
 */
export function signedQuery(options: SignOptions): string {
  const app = options.app ?? mainApp;
  const params: Record<string, string> = {
    auth_key: app.key,
    auth_timestamp: String(options.timestamp ?? Math.floor(Date.now() / 1000)),
    auth_version: '1.0',
    ...options.params,
  };
  const body = options.body ?? '';
  if (body.length > 0 || options.alwaysBodyMd5) params.body_md5 = createHash('md5').update(body).digest('hex');
  const toSign = Object.keys(params)
    .sort()
    .map((key) => `${key}=${params[key] ?? ''}`)
    .join('&');
  const signature = createHmac('sha256', app.secret).update(`${options.method}\n${options.path}\n${toSign}`).digest('hex');
  const encodeValue = options.encode ? encodeURIComponent : (value: string) => value;
  return Object.entries({ ...params, auth_signature: signature })
    .map(([key, value]) => `${key}=${encodeValue(value)}`)
    .join('&');
}

/** A raw signed request with fetch, for checking error statuses. */
export function signedFetch(baseUrl: string, options: SignOptions & { urlPrefix?: string; headers?: Record<string, string> }): Promise<Response> {
  const url = `${baseUrl}${options.urlPrefix ?? ''}${options.path}?${signedQuery(options)}`;
  return fetch(url, {
    method: options.method,
    headers: { 'content-type': 'application/json', ...options.headers },
    ...(options.body !== undefined ? { body: options.body } : {}),
  });
}

/** The events a socket received on a channel, with data as sent. */
export function received(socket: MemorySocket, event: string): { channel?: string; data?: unknown }[] {
  return socket.events(event);
}

export { settle };
