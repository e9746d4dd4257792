import type Pusher from 'pusher-js';
import { beforeAll, describe, expect, it } from 'vitest';
import { daemonConfig, testApp } from './helpers/apps.js';
import { connected, pusherClient, subscribed } from './helpers/clients.js';
import { startDaemon, type RunningDaemon } from './helpers/daemon.js';
import { sleep, waitFor } from './helpers/wait.js';

// Pusher's "Authorized connections", through pusher-js: with enable_user_authentication, a client that neither
// signs in nor subscribes to a private or presence channel within user_authentication_timeout is closed with 4009.
const guarded = testApp('authorized-connections', { enable_user_authentication: true, user_authentication_timeout: 1 });
const open = testApp('anonymous-connections');
const reason = 'Connection not authorized within 1 second: sign in (pusher.signin()) or subscribe to a private or presence channel.';
let daemon: RunningDaemon;

beforeAll(async () => {
  daemon = await startDaemon(daemonConfig([guarded, open]));
});

/** pusher-js's connection errors and states, from the moment the client is made. */
function watched(client: Pusher): { errors: unknown[]; states: string[] } {
  const errors: unknown[] = [];
  const states: string[] = [];
  client.connection.bind('error', (error: unknown) => errors.push(error));
  client.connection.bind('state_change', ({ current }: { current: string }) => states.push(current));
  return { errors, states };
}

async function unauthorizedClosed(appId: string): Promise<number> {
  const text = await (await fetch(`${daemon.httpUrl}/metrics`)).text();
  const line = text.split('\n').find((row) => row.startsWith(`realtime_connections_unauthorized_closed_total{app_id="${appId}"}`));
  return line === undefined ? 0 : Number(line.split(' ').at(-1));
}

describe('authorized connections (enable_user_authentication)', () => {
  it('disconnects an anonymous pusher-js client at the timeout with 4009, which pusher-js does not retry, and counts it', async () => {
    const before = await unauthorizedClosed(guarded.id);
    const client = pusherClient(daemon, guarded);
    const seen = watched(client);
    await connected(client);
    const connectedAt = Date.now();
    await subscribed(client, 'public-news'); // a public channel does not authorize
    await waitFor(() => (client.connection.state === 'disconnected' ? true : undefined), 'the 4009 close', 5_000);
    // The sweep runs every second: closed between the timeout and a second after it.
    expect(Date.now() - connectedAt).toBeGreaterThanOrEqual(900);
    expect(seen.errors).toContainEqual({ type: 'PusherError', data: { code: 4009, message: reason } });
    expect(seen.errors).toContainEqual({ type: 'WebSocketError', error: { type: 'PusherError', data: { code: 4009, message: reason } } });
    // 4000-4099: pusher-js stays disconnected instead of reconnecting.
    await sleep(1_500);
    expect(client.connection.state).toBe('disconnected');
    expect(seen.states.slice(seen.states.indexOf('disconnected'))).toEqual(['disconnected']);
    await expect.poll(() => unauthorizedClosed(guarded.id), { timeout: 2_000 }).toBe(before + 1);
  });

  it('keeps a pusher-js client that signed in (pusher.signin()) past the timeout', async () => {
    const client = pusherClient(daemon, guarded, { user: { id: 'ada' } });
    const seen = watched(client);
    const socketId = await connected(client);
    client.signin();
    await waitFor(() => (client.user.serverToUserChannel?.subscribed ? true : undefined), 'the sign-in');
    await sleep(2_500);
    expect(seen.errors).toEqual([]);
    expect(client.connection.state).toBe('connected');
    expect(client.connection.socket_id).toBe(socketId);
  });

  it.each(['private-orders', 'presence-room'])('keeps a pusher-js client subscribed to %s past the timeout', async (channel) => {
    const client = pusherClient(daemon, guarded);
    const seen = watched(client);
    const socketId = await connected(client);
    await subscribed(client, channel);
    await sleep(2_500);
    expect(seen.errors).toEqual([]);
    expect(client.connection.state).toBe('connected');
    expect(client.connection.socket_id).toBe(socketId);
  });

  it('keeps anonymous clients of an app without the option', async () => {
    const before = await unauthorizedClosed(open.id);
    const client = pusherClient(daemon, open);
    const seen = watched(client);
    const socketId = await connected(client);
    await sleep(2_500);
    expect(seen.errors).toEqual([]);
    expect(client.connection.state).toBe('connected');
    expect(client.connection.socket_id).toBe(socketId);
    expect(await unauthorizedClosed(open.id)).toBe(before);
  });
});
