import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Pusher from 'pusher-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { daemonConfig, testApp } from './helpers/apps.js';
import { startDaemon, type RunningDaemon } from './helpers/daemon.js';
import { readmeBlock, substituteExactlyOnce } from './helpers/guides/readme-blocks.js';
import { evaluateSnippet, runNode, writeSnippetFiles } from './helpers/guides/snippet-files.js';
import { sleep, waitFor } from './helpers/wait.js';

/** The README's "A Node app with the `pusher` SDK" guide, run as written against a real daemon. */
const app = testApp('guide-node');
let daemon: RunningDaemon;
let authBase: string;
let realtime: {
  orderShipped(order: { id: number }, socketId?: string): Promise<Record<string, { subscription_count?: number }>>;
  notifyUsers(notes: { userId: string; text: string }[]): Promise<void>;
  whoIsHere(channel: string): Promise<{ userCount: number; connections: number; userIds: string[] }>;
};

const clients: Pusher[] = [];
afterAll(() => {
  for (const client of clients) client.disconnect();
});

beforeAll(async () => {
  daemon = await startDaemon(daemonConfig([app]));
  const env = { PUSHER_APP_ID: app.id, PUSHER_APP_KEY: app.key, PUSHER_APP_SECRET: app.secret, PUSHER_HOST: '127.0.0.1', PUSHER_PORT: String(daemon.port), PUSHER_SCHEME: 'http' };
  const dir = writeSnippetFiles({ 'realtime.mjs': readmeBlock('node-realtime'), 'server.mjs': readmeBlock('node-auth-server') });

  // server.mjs as its own process, as a reader runs it.
  const server = runNode(join(dir, 'server.mjs'), { ...env, PORT: '0' });
  const [, url] = await server.waitForLine(/auth endpoints on (http:\/\/\S+)/);
  authBase = url ?? '';

  // realtime.mjs reads process.env when it is imported: set only for the import.
  const saved = Object.fromEntries(Object.keys(env).map((name) => [name, process.env[name]]));
  Object.assign(process.env, env);
  try {
    realtime = (await import(pathToFileURL(join(dir, 'realtime.mjs')).href)) as typeof realtime;
  } finally {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
});

/** The README's pusher-js block; only the port and the endpoints' origin differ (a page would resolve them against its own). */
function browserClient(userId: string): Pusher {
  const code = substituteExactlyOnce(readmeBlock('node-pusher-js'), [
    ['wsPort: 6001', `wsPort: ${daemon.port}`],
    ["endpoint: '/pusher/auth'", `endpoint: '${authBase}/pusher/auth'`],
    ["endpoint: '/pusher/user-auth'", `endpoint: '${authBase}/pusher/user-auth'`],
  ]);
  const client = evaluateSnippet(code, { Pusher, APP_KEY: app.key, USER_ID: userId }, 'pusher') as Pusher;
  clients.push(client);
  return client;
}

function subscribed(client: Pusher, channelName: string) {
  const channel = client.subscribe(channelName);
  return waitFor(() => (channel.subscribed ? channel : undefined), `${channelName} to subscribe`);
}

describe('guide: a Node app with the pusher SDK', () => {
  it('authorizes, triggers with socket exclusion, batches, and lists presence through the README code', async () => {
    const alice = browserClient('1');
    const bob = browserClient('2');

    const signedIn: string[] = [];
    alice.bind('pusher:signin_success', () => signedIn.push('alice'));
    alice.signin();
    await waitFor(() => signedIn[0], 'alice to sign in through /pusher/user-auth');

    const received: { who: string; event: string; data: unknown }[] = [];
    for (const [who, client, channels] of [
      ['alice', alice, ['orders', 'private-orders.1', 'private-user.1', 'presence-lobby']],
      ['bob', bob, ['orders', 'presence-lobby']],
    ] as const) {
      for (const name of channels) {
        const channel = await subscribed(client, name);
        channel.bind_global((event: string, data: unknown) => {
          if (!event.startsWith('pusher')) received.push({ who, event, data });
        });
      }
    }

    // server.mjs refuses another user's channel: pusher-js reports the 403.
    const refused: unknown[] = [];
    bob.subscribe('private-user.1').bind('pusher:subscription_error', (error: unknown) => refused.push(error));
    await waitFor(() => refused[0], 'the refusal of private-user.1 for bob');
    expect(refused[0]).toMatchObject({ status: 403 });

    const counts = await realtime.orderShipped({ id: 1 }, bob.connection.socket_id);
    expect(counts).toEqual({ orders: { subscription_count: 2 }, 'private-orders.1': { subscription_count: 1 } });

    await realtime.notifyUsers([{ userId: '1', text: 'hello' }]);

    const presence = await realtime.whoIsHere('presence-lobby');
    expect(presence).toEqual({ userCount: 2, connections: 2, userIds: expect.arrayContaining(['1', '2']) as unknown as string[] });

    await waitFor(() => (received.length >= 3 ? true : undefined), 'alice to receive three events');
    await sleep(200); // bob was excluded: nothing more arrives for him
    expect(received).toEqual(
      expect.arrayContaining([
        { who: 'alice', event: 'order.shipped', data: { id: 1 } },
        { who: 'alice', event: 'order.shipped', data: { id: 1 } },
        { who: 'alice', event: 'notification', data: { userId: '1', text: 'hello' } },
      ]),
    );
    expect(received.filter((entry) => entry.who === 'bob')).toEqual([]);
    expect(received).toHaveLength(3);
  });
});
