import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Pusher from 'pusher-js';
import { afterAll } from 'vitest';
import { phpJsonEncode, type PhpPusher } from './php-pusher.js';

/**
 * A stand-in for the PHP host app's auth routes (`/broadcasting/auth`,
 * `/broadcasting/user-auth`), answering what Laravel's `pusher` broadcaster
 * and the CakePHP plugin answer: pusher-php-server's auth string, decoded
 * and sent again as a JSON response (PHP's `json_encode`). Who the user is
 * comes from the `X-Test-User` header the test's Echo sends; a real app
 * uses its session.
 */
export interface HostAppUser {
  id: string;
  info: Record<string, unknown>;
}

const servers = new Set<Server>();
afterAll(async () => {
  await Promise.all([...servers].map((server) => new Promise((resolve) => server.close(resolve))));
});

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  let body = '';
  for await (const chunk of req) body += String(chunk);
  return new URLSearchParams(body);
}

export interface HostApp {
  /** `http://127.0.0.1:{port}`: the page's origin, against which Echo's relative endpoints resolve. */
  readonly origin: string;
  /** Every auth request's path and form, in order. */
  readonly requests: { path: string; form: Record<string, string> }[];
}

export async function startHostApp(php: PhpPusher, users: Record<string, HostAppUser>, refuse: (channel: string) => boolean = () => false): Promise<HostApp> {
  const requests: HostApp['requests'] = [];
  const server = createServer((req, res) => {
    void readForm(req).then((form) => {
      requests.push({ path: req.url ?? '', form: Object.fromEntries(form) });
      const user = users[String(req.headers['x-test-user'] ?? '')];
      const socketId = form.get('socket_id') ?? '';
      const channel = form.get('channel_name') ?? '';
      const reply = (status: number, json: string) => res.writeHead(status, { 'Content-Type': 'application/json' }).end(json);
      // PHP decodes the SDK's string and encodes the array again for the response.
      const relay = (phpString: string) => reply(200, phpJsonEncode(JSON.parse(phpString)));
      if (req.method !== 'POST' || !user) return reply(403, '{"message":"Unauthenticated."}');
      if (req.url === '/broadcasting/user-auth') return relay(php.authenticateUser(socketId, { id: user.id, ...user.info }));
      if (req.url !== '/broadcasting/auth' || refuse(channel)) return reply(403, '{"message":"This action is unauthorized."}');
      if (channel.startsWith('presence-')) return relay(php.authorizePresenceChannel(channel, socketId, user.id, user.info));
      return relay(php.authorizeChannel(channel, socketId));
    });
  });
  servers.add(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests };
}

type PusherOptions = ConstructorParameters<typeof Pusher>[1] & {
  authEndpoint?: string;
  auth?: { headers?: Record<string, string> };
  userAuthentication?: { endpoint?: string; headers?: Record<string, string> };
};

const created = new Set<Pusher>();
afterAll(() => {
  for (const client of created) client.disconnect();
});

/**
 * pusher-js as the page's `window.Pusher`, with the one thing a browser does
 * that Node does not: Echo's relative auth endpoints resolve against the
 * page's origin. Everything else (Echo's options, the form POST) is as given.
 */
export function pageOriginPusher(origin: string, userId: string): typeof Pusher {
  return class extends Pusher {
    constructor(key: string, options: PusherOptions) {
      const headers = { 'X-Test-User': userId };
      super(key, {
        ...options,
        disableStats: true,
        authEndpoint: new URL(options.authEndpoint ?? '/pusher/auth', origin).href,
        auth: { ...options.auth, headers: { ...options.auth?.headers, ...headers } },
        userAuthentication: {
          ...options.userAuthentication,
          endpoint: new URL(options.userAuthentication?.endpoint ?? '/pusher/user-auth', origin).href,
          transport: 'ajax',
          headers: { ...options.userAuthentication?.headers, ...headers },
        },
      } as PusherOptions);
      created.add(this);
    }
  } as typeof Pusher;
}
