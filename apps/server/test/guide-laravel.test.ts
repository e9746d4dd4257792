import Echo from 'laravel-echo';
import PusherServer from 'pusher';
import { beforeAll, describe, expect, it } from 'vitest';
import { daemonConfig, testApp } from './helpers/apps.js';
import { startDaemon, type RunningDaemon } from './helpers/daemon.js';
import { pageOriginPusher, startHostApp, type HostApp } from './helpers/guides/host-app.js';
import { PhpPusher, sendPhpRequest, type PhpPusherOptions } from './helpers/guides/php-pusher.js';
import { parseDotEnv, readmeBlock, substituteExactlyOnce } from './helpers/guides/readme-blocks.js';
import { evaluateSnippet } from './helpers/guides/snippet-files.js';
import { sleep, waitFor } from './helpers/wait.js';

/**
 * The README's Laravel guide: its `.env` block through Laravel's
 * config/broadcasting.php and pusher-php-server, its Echo block run with
 * pusher-js, against a real daemon. PHP does not run here: what
 * `broadcast()` and `/broadcasting/auth` send is reproduced by php-pusher.ts.
 */
const app = testApp('guide-laravel');
let daemon: RunningDaemon;
let env: Record<string, string>;
let php: PhpPusher;
let connection: ReturnType<typeof laravelPusherConnection>;
let hostApp: HostApp;

const users = {
  '1': { id: '1', info: { name: 'Zoë', avatar: 'https://cdn.example.com/u/1.png' } },
  '2': { id: '2', info: { name: 'Abigail' } },
};

/** Laravel's config/broadcasting.php, `connections.pusher`, evaluated over `env`. */
function laravelPusherConnection(vars: Record<string, string>) {
  const scheme = vars['PUSHER_SCHEME'] ?? 'https';
  const options: PhpPusherOptions = {
    cluster: vars['PUSHER_APP_CLUSTER'],
    host: vars['PUSHER_HOST'] || `api-${vars['PUSHER_APP_CLUSTER'] ?? 'mt1'}.pusher.com`,
    port: vars['PUSHER_PORT'] ?? 443,
    scheme,
    encrypted: true,
    useTLS: scheme === 'https',
  };
  return { key: vars['PUSHER_APP_KEY'] ?? '', secret: vars['PUSHER_APP_SECRET'] ?? '', appId: vars['PUSHER_APP_ID'] ?? '', options };
}

function readmeEnv(): string {
  return readmeBlock('laravel-env');
}

beforeAll(async () => {
  daemon = await startDaemon(daemonConfig([app]));
  env = parseDotEnv(
    substituteExactlyOnce(readmeEnv(), [
      ['PUSHER_APP_ID=my-app-id', `PUSHER_APP_ID=${app.id}`],
      ['PUSHER_APP_KEY=my-app-key', `PUSHER_APP_KEY=${app.key}`],
      ['PUSHER_APP_SECRET=my-app-secret', `PUSHER_APP_SECRET=${app.secret}`],
      ['PUSHER_HOST=realtime.example.com', 'PUSHER_HOST=127.0.0.1'],
      ['PUSHER_PORT=443', `PUSHER_PORT=${daemon.port}`],
      ['PUSHER_SCHEME=https', 'PUSHER_SCHEME=http'],
    ]),
  );
  connection = laravelPusherConnection(env);
  php = new PhpPusher(connection.key, connection.secret, connection.appId, connection.options);
  hostApp = await startHostApp(php, users);
});

/** The README's Echo block as Vite builds it (`import.meta.env.X` → the VITE_ variables), on a page of the host app. */
function echoOnPage(userId: string): Echo<'pusher'> {
  const code = readmeBlock('laravel-echo').replaceAll('import.meta.env.', 'env.');
  const viteEnv = Object.fromEntries(Object.entries(env).filter(([name]) => name.startsWith('VITE_')));
  const window: Record<string, unknown> = {};
  const global = globalThis as { window?: unknown };
  global.window = window;
  try {
    return evaluateSnippet(code, { Echo, Pusher: pageOriginPusher(hostApp.origin, userId), window, env: viteEnv }, 'window.Echo') as Echo<'pusher'>;
  } finally {
    delete global.window;
  }
}

const pusherOf = (echo: Echo<'pusher'>) => echo.connector.pusher;

describe('guide: Laravel broadcasting', () => {
  it('maps the README .env to the daemon through config/broadcasting.php and pusher-php-server', () => {
    expect(env['BROADCAST_CONNECTION']).toBe('pusher');
    expect(php.baseUrl).toBe(`http://127.0.0.1:${daemon.port}`);
    // The values as written (behind the TLS proxy): https on 443 to the proxy's host.
    const asWritten = laravelPusherConnection(parseDotEnv(readmeEnv()));
    expect(new PhpPusher('k', 's', 'i', asWritten.options).baseUrl).toBe('https://realtime.example.com:443');
    // Echo's options from the same variables.
    const echo = echoOnPage('1');
    expect(pusherOf(echo).config).toMatchObject({ wsHost: '127.0.0.1', wsPort: String(daemon.port), useTLS: false }) // Vite's env values are strings;
    echo.disconnect();
  });

  it('receives broadcast() through Echo on private and presence channels, with toOthers() excluding the sender', async () => {
    const zoe = echoOnPage('1');
    const abigail = echoOnPage('2');
    const received: { who: string; data: unknown }[] = [];
    zoe.private('orders.1').listen('OrderShipped', (data: unknown) => received.push({ who: 'zoe', data }));
    abigail.private('orders.1').listen('OrderShipped', (data: unknown) => received.push({ who: 'abigail', data }));

    const here: unknown[] = [];
    zoe.join('chat.1').here((members: unknown[]) => here.push(members));
    await waitFor(() => here[0], 'the presence here() callback');
    // channel_data as PHP encodes it (escaped "/" and "ë"), checked by the daemon against PHP's signature.
    expect(here[0]).toEqual([users['1'].info]);
    const presenceAuth = hostApp.requests.find((request) => request.form['channel_name'] === 'presence-chat.1');
    expect(presenceAuth?.path).toBe('/broadcasting/auth');

    await waitFor(() => (pusherOf(zoe).channel('private-orders.1')?.subscribed && pusherOf(abigail).channel('private-orders.1')?.subscribed ? true : undefined), 'both to subscribe');

    // `broadcast(new OrderShipped($order))->toOthers()` from Zoë's request (X-Socket-ID: her socket).
    const toOthers = php.triggerRequest(['private-orders.1'], 'App\\Events\\OrderShipped', { order: { id: 1, url: 'https://shop.example.com/o/1' } }, { socket_id: zoe.socketId() ?? '' });
    expect(toOthers.body).toContain('"channel":"private-orders.1"');
    expect(await sendPhpRequest(toOthers)).toEqual({ status: 200, body: '{}' });
    await waitFor(() => received[0], 'the event for Abigail');
    await sleep(150);
    expect(received).toEqual([{ who: 'abigail', data: { order: { id: 1, url: 'https://shop.example.com/o/1' } } }]);

    // The Node SDK with the same host, port and scheme: the same signed endpoint.
    const sdk = new PusherServer({ appId: app.id, key: app.key, secret: app.secret, host: String(connection.options.host), port: String(connection.options.port), useTLS: connection.options.useTLS === true });
    expect((await sdk.trigger('private-orders.1', 'App\\Events\\OrderShipped', { order: { id: 2 } })).status).toBe(200);
    await waitFor(() => (received.length === 3 ? true : undefined), 'the SDK event for both');
    expect(received.slice(1)).toEqual(expect.arrayContaining([{ who: 'zoe', data: { order: { id: 2 } } }, { who: 'abigail', data: { order: { id: 2 } } }]));
    zoe.disconnect();
    abigail.disconnect();
  });

  it('signs in through /broadcasting/user-auth and refuses a signature made with another secret', async () => {
    const zoe = echoOnPage('1');
    const signedIn: unknown[] = [];
    pusherOf(zoe).bind('pusher:signin_success', (data: unknown) => signedIn.push(data));
    zoe.connector.signin();
    await waitFor(() => signedIn[0], 'pusher:signin_success');
    expect(hostApp.requests.some((request) => request.path === '/broadcasting/user-auth')).toBe(true);

    const forged = new PhpPusher(app.key, 'not-the-secret', app.id, { host: '127.0.0.1', port: daemon.port, scheme: 'http' });
    const refused = await sendPhpRequest(forged.triggerRequest('private-orders.1', 'App\\Events\\OrderShipped', {}));
    expect(refused.status).toBe(401);
    zoe.disconnect();
  });
});
