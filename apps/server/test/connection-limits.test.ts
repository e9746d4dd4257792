import { beforeAll, describe, expect, it } from 'vitest';
import { daemonConfig, testApp } from './helpers/apps.js';
import { backend } from './helpers/clients.js';
import { startDaemon, type RunningDaemon } from './helpers/daemon.js';
import { connectRaw } from './helpers/raw-socket.js';

/**
 * One connection must not be able to take a node down or starve the others:
 * the per-connection limits of the real daemon, seen from raw sockets, and
 * their counters in /metrics.
 */
const app = testApp('bounded', { max_channels_per_connection: 5, max_frames_per_second: 50, max_json_depth: 32 });
let daemon: RunningDaemon;

beforeAll(async () => {
  daemon = await startDaemon(daemonConfig([app]));
});

async function metric(name: string): Promise<string[]> {
  const text = await (await fetch(`${daemon.httpUrl}/metrics`)).text();
  return text.split('\n').filter((line) => line.startsWith(name));
}

describe('channels per connection', () => {
  it('refuses the sixth channel with subscription_error LimitReached 4100 and counts it', async () => {
    const { socket } = await connectRaw(daemon, app.key);
    for (let i = 0; i < 6; i++) socket.subscribe(`room-${i}`);
    for (let i = 0; i < 5; i++) await socket.next((frame) => frame.event === 'pusher_internal:subscription_succeeded' && frame.channel === `room-${i}`);
    const refused = await socket.next('pusher:subscription_error');
    expect(refused).toMatchObject({ channel: 'room-5', data: { type: 'LimitReached', status: 4100 } });
    expect(socket.isOpen).toBe(true);
    const { channels } = (await (await backend(daemon, app).get({ path: '/channels' })).json()) as { channels: Record<string, unknown> };
    expect(Object.keys(channels).filter((name) => name.startsWith('room-')).sort()).toEqual(['room-0', 'room-1', 'room-2', 'room-3', 'room-4']);
    expect(await metric('realtime_subscriptions_refused_total')).toContainEqual(`realtime_subscriptions_refused_total{app_id="${app.id}",reason="channel_limit"} 1`);
    socket.close();
  });
});

describe('frames nested too deeply', () => {
  it('answers a client event nested 5,000 levels with 4200 and keeps the node and the connection up', async () => {
    const { socket, socketId } = await connectRaw(daemon, app.key);
    const channel = 'private-deep';
    socket.subscribe(channel, backend(daemon, app).authorizeChannel(socketId, channel));
    await socket.next('pusher_internal:subscription_succeeded');
    const depth = 5_000;
    socket.send(`{"event":"client-x","channel":"${channel}","data":${'['.repeat(depth)}${']'.repeat(depth)}}`);
    const error = await socket.next('pusher:error');
    expect(error.data).toEqual({ code: 4200, message: 'Invalid message format: JSON nests deeper than 32 levels.' });
    socket.send({ event: 'pusher:ping', data: {} });
    await socket.next('pusher:pong');
    expect(await metric('realtime_frames_refused_total')).toContainEqual(`realtime_frames_refused_total{app_id="${app.id}",reason="too_deep"} 1`);
    expect((await fetch(`${daemon.httpUrl}/up`)).status).toBe(200);
    socket.close();
  });
});

describe('frames per second', () => {
  it('closes a flooding connection with 4100 while a bystander keeps getting pongs', async () => {
    const [{ socket: flooder }, { socket: bystander }] = await Promise.all([connectRaw(daemon, app.key), connectRaw(daemon, app.key)]);
    for (let i = 0; i < 5_000 && flooder.isOpen; i++) flooder.send({ event: 'pusher:ping', data: {} });
    const closed = await flooder.closedWithin(5_000);
    expect(closed).toEqual({ code: 4100, reason: 'Too many frames: at most 50 per second.' });
    expect(flooder.received.filter((frame) => frame.event === 'pusher:error')[0]?.data).toEqual({
      code: 4301,
      message: 'Rate limit exceeded: at most 50 frames per second; frames dropped.',
    });
    bystander.send({ event: 'pusher:ping', data: {} });
    await bystander.next('pusher:pong');
    expect(await metric('realtime_connections_flood_closed_total')).toContainEqual(`realtime_connections_flood_closed_total{app_id="${app.id}"} 1`);
    expect((await metric('realtime_frames_refused_total')).some((line) => line.includes('reason="rate_limited"'))).toBe(true);
    bystander.close();
  });
});
