import type Pusher from 'pusher-js';
import { beforeAll, describe, expect, it } from 'vitest';
import { startDaemon, type RunningDaemon } from './helpers/daemon.js';
import { pageOriginPusher, startHostApp, type HostApp } from './helpers/guides/host-app.js';
import { PhpPusher, sendPhpRequest, type PhpPusherOptions } from './helpers/guides/php-pusher.js';
import { readmeBlock, substituteExactlyOnce } from './helpers/guides/readme-blocks.js';
import { testRedisUrl, uniqueChannel } from './helpers/redis.js';
import { sleep, waitFor } from './helpers/wait.js';

/**
 * The README's CakePHP guide: the daemon started from the BlazeCast config
 * translated in the README, and the Crustum/Broadcasting plugin's `pusher`
 * connection (pusher-php-server, reproduced by php-pusher.ts since PHP does
 * not run here) pointed at it. BlazeCast has scaling on, so this needs Redis.
 */
const redisUrl = await testRedisUrl();

/** The credentials of the README's config block (BlazeCast's defaults). */
const app = { id: 'app-id', key: 'app-key', secret: 'app-secret' };
let daemon: RunningDaemon;
let php: PhpPusher;
let hostApp: HostApp;

const users = {
  '7': { id: '7', info: { name: 'Søren', profile: 'https://app.example.com/users/7' } },
  '8': { id: '8', info: { name: 'Ana' } },
};

/** The plugin's config/broadcasting.php `connections.pusher.options`, with the `.env` values of the README's table. */
function pluginOptions(vars: Record<string, string | undefined>): PhpPusherOptions {
  return {
    cluster: vars['PUSHER_APP_CLUSTER'] ?? null,
    useTLS: vars['PUSHER_APP_USE_TLS'] ?? true,
    host: vars['PUSHER_HOST'] ?? null,
    port: vars['PUSHER_PORT'] ?? 443,
    scheme: vars['PUSHER_SCHEME'] ?? 'https',
  };
}

beforeAll(async () => {
  if (!redisUrl) return;
  const config = JSON.parse(
    substituteExactlyOnce(readmeBlock('blazecast-config'), [
      ['"url": "redis://127.0.0.1:6379/0"', `"url": "${redisUrl}"`],
      ['"channel": "blazecast:broadcast"', `"channel": "${uniqueChannel('blazecast')}"`],
    ]),
  ) as object;
  daemon = await startDaemon(config);
  php = new PhpPusher(app.key, app.secret, app.id, pluginOptions({ PUSHER_HOST: '127.0.0.1', PUSHER_PORT: String(daemon.port), PUSHER_SCHEME: 'http' }));
  hostApp = await startHostApp(php, users);
});

function page(userId: string): Pusher {
  const PagePusher = pageOriginPusher(hostApp.origin, userId);
  return new PagePusher(app.key, {
    cluster: 'mt1', wsHost: '127.0.0.1', wsPort: daemon.port, forceTLS: false, enabledTransports: ['ws', 'wss'],
    // Echo's defaults; the plugin routes both.
    authEndpoint: '/broadcasting/auth', userAuthentication: { endpoint: '/broadcasting/user-auth' },
  } as ConstructorParameters<typeof Pusher>[1]);
}

function subscribed(client: Pusher, name: string) {
  const channel = client.subscribe(name);
  return waitFor(() => (channel.subscribed ? channel : undefined), `${name} to subscribe`);
}

describe.skipIf(!redisUrl)('guide: CakePHP Broadcasting plugin, moving off BlazeCast', () => {
  it("sends the plugin's pusher-php-server requests where the README's settings say", () => {
    expect(php.baseUrl).toBe(`http://127.0.0.1:${daemon.port}`);
    // useTLS (the plugin's default true) does not override an explicit scheme and port.
    expect(new PhpPusher('k', 's', 'i', pluginOptions({ PUSHER_HOST: 'realtime.example.com', PUSHER_PORT: '443', PUSHER_SCHEME: 'https' })).baseUrl).toBe('https://realtime.example.com:443');
    // PUSHER_HOST left unset: the plugin passes host => null and pusher-php-server keeps it.
    expect(new PhpPusher('k', 's', 'i', pluginOptions({})).baseUrl).toBe('https://:443');
  });

  it('delivers broadcast() and toOthers(), answers presence and user auth, and reports channel info, as the plugin sends them', async () => {
    const soren = page('7');
    const ana = page('8');
    const received: { who: string; channel: string; data: unknown }[] = [];
    for (const [who, client] of [['soren', soren], ['ana', ana]] as const) {
      for (const name of ['private-orders.7', 'orders', 'presence-shop']) {
        (await subscribed(client, name)).bind('order.shipped', (data: unknown) => received.push({ who, channel: name, data }));
      }
    }
    const members = soren.channel('presence-shop') as unknown as { members: { count: number; get(id: string): { info: unknown } | null } };
    await waitFor(() => (members.members.count === 2 ? true : undefined), 'both presence members');
    expect(members.members.get('7')?.info).toEqual(users['7'].info);

    // `$broadcaster->broadcast(['private-orders.7', 'orders'], 'order.shipped', [..., 'socket' => $sorensSocket])`
    const request = php.triggerRequest(['private-orders.7', 'orders'], 'order.shipped', { order: { id: 7, total: '12.50 €' } }, { socket_id: soren.connection.socket_id });
    expect(request.body).toContain('\\u20ac');
    expect(await sendPhpRequest(request)).toEqual({ status: 200, body: '{}' });
    await waitFor(() => (received.length === 2 ? true : undefined), 'both channels for Ana');
    await sleep(150);
    expect(received).toEqual(
      expect.arrayContaining([
        { who: 'ana', channel: 'private-orders.7', data: { order: { id: 7, total: '12.50 €' } } },
        { who: 'ana', channel: 'orders', data: { order: { id: 7, total: '12.50 €' } } },
      ]),
    );
    expect(received).toHaveLength(2);

    // `$pusher->getChannelInfo('presence-shop', ['info' => 'subscription_count,user_count'])`: the comma goes percent-encoded.
    const info = php.channelInfoRequest('presence-shop', { info: 'subscription_count,user_count' });
    expect(info.url).toContain('info=subscription_count%2Cuser_count');
    const answer = await sendPhpRequest(info);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ occupied: true, subscription_count: 2, user_count: 2 });

    // `resolveAuthenticatedUser()` → `$pusher->authenticateUser()` for `pusher.signin()`.
    const signedIn: unknown[] = [];
    ana.bind('pusher:signin_success', (data: unknown) => signedIn.push(data));
    ana.signin();
    await waitFor(() => signedIn[0], 'pusher:signin_success');
  });
});
