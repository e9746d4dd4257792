import { beforeAll, describe, expect, it } from 'vitest';
import { daemonConfig, testApp } from './helpers/apps.js';
import { backend } from './helpers/clients.js';
import { startDaemon, type RunningDaemon } from './helpers/daemon.js';
import { connectRaw, openRaw, type RawSocket } from './helpers/raw-socket.js';
import { signedFetch } from './helpers/signed-request.js';

const app = testApp('limits', { max_presence_members: 3 });
const small = testApp('small', { max_message_size: 500 });
const capped = testApp('capped', { max_connections: 3 });
let daemon: RunningDaemon;

beforeAll(async () => {
  // A large request size, so the 413s below come from max_message_size, not the body limit.
  daemon = await startDaemon(daemonConfig([app, small, capped], { servers: { main: { max_request_size: 100_000 } } }));
});

async function subscribeRaw(channel: string, member?: { user_id: string; user_info?: unknown }): Promise<{ socket: RawSocket; event: string; data: unknown }> {
  const { socket, socketId } = await connectRaw(daemon, app.key);
  const sdk = backend(daemon, app);
  if (channel.startsWith('presence-')) socket.subscribe(channel, sdk.authorizeChannel(socketId, channel, member as { user_id: string }));
  else if (channel.startsWith('private-')) socket.subscribe(channel, sdk.authorizeChannel(socketId, channel));
  else socket.subscribe(channel);
  const answer = await socket.next((frame) => frame.event === 'pusher_internal:subscription_succeeded' || frame.event === 'pusher:subscription_error' || frame.event === 'pusher:error');
  return { socket, event: answer.event, data: answer.data };
}

/** POST /events signed by hand, for inputs the SDK refuses to send. */
function triggerRaw(body: object): Promise<Response> {
  return signedFetch(daemon.httpUrl, app, { method: 'POST', path: `/apps/${app.id}/events`, body: JSON.stringify(body) });
}

/** The status and JSON body of an HTTP API call made with the SDK (which rejects non-2xx). */
async function sdkStatus(call: Promise<{ status: number }>): Promise<number> {
  try {
    return (await call).status;
  } catch (error) {
    return (error as { status?: number }).status ?? -1;
  }
}

describe('channel names', () => {
  it('accepts a 164-character channel name of every allowed character', async () => {
    const name = 'Az09_-=@,.;'.repeat(15).slice(0, 164);
    expect(name).toHaveLength(164);
    expect((await subscribeRaw(name)).event).toBe('pusher_internal:subscription_succeeded');
  });

  it('refuses a 165-character channel name with pusher:subscription_error InvalidChannel', async () => {
    const name = 'c'.repeat(165);
    const { event, data } = await subscribeRaw(name);
    expect(event).toBe('pusher:subscription_error');
    expect(data).toEqual({ type: 'InvalidChannel', error: expect.stringContaining('164'), status: 4009 });
  });

  it.each(['with space', 'emoji-😀', 'slash/name', 'star*'])('refuses the channel name %j', async (name) => {
    const { event, data } = await subscribeRaw(name);
    expect(event).toBe('pusher:subscription_error');
    expect(data).toMatchObject({ type: 'InvalidChannel', status: 4009 });
  });

  it('refuses a 165-character channel over HTTP with 400 and accepts 164', async () => {
    const sdk = backend(daemon, app);
    expect(await sdkStatus(sdk.trigger('d'.repeat(164), 'e', {}))).toBe(200);
    expect(await sdkStatus(sdk.trigger('d'.repeat(165), 'e', {}))).toBe(400);
  });
});

describe('event names and data size', () => {
  it('accepts a 200-character event name over HTTP and refuses 201 with 400', async () => {
    const sdk = backend(daemon, app);
    expect(await sdkStatus(sdk.trigger('news', 'e'.repeat(200), {}))).toBe(200);
    // The SDK refuses 201 itself, so the daemon is asked directly.
    const response = await triggerRaw({ name: 'e'.repeat(201), data: '{}', channel: 'news' });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: expect.stringContaining('200'), code: 400 });
  });

  it('relays a 200-character client event name and refuses 201 with 4301', async () => {
    const sender = await subscribeRaw('private-names');
    const receiver = await subscribeRaw('private-names');
    const okName = `client-${'n'.repeat(193)}`;
    sender.socket.send({ event: okName, channel: 'private-names', data: {} });
    expect((await receiver.socket.next(okName)).event).toHaveLength(200);
    sender.socket.send({ event: `${okName}x`, channel: 'private-names', data: {} });
    expect((await sender.socket.next('pusher:error')).data).toMatchObject({ code: 4301 });
  });

  it('refuses HTTP event data over max_message_size (default 10,000 bytes) with 413 and accepts exactly 10,000', async () => {
    const sdk = backend(daemon, app);
    expect(await sdkStatus(sdk.trigger('news', 'big', 'x'.repeat(10_000)))).toBe(200);
    expect(await sdkStatus(sdk.trigger('news', 'big', 'x'.repeat(10_001)))).toBe(413);
  });

  it('measures HTTP event data in UTF-8 bytes, not characters', async () => {
    const sdk = backend(daemon, app);
    expect(await sdkStatus(sdk.trigger('news', 'euro', '€'.repeat(3_333)))).toBe(200);
    expect(await sdkStatus(sdk.trigger('news', 'euro', '€'.repeat(3_334)))).toBe(413);
  });

  it('applies a per-app max_message_size to HTTP events', async () => {
    const sdk = backend(daemon, small);
    expect(await sdkStatus(sdk.trigger('news', 'e', 'y'.repeat(500)))).toBe(200);
    expect(await sdkStatus(sdk.trigger('news', 'e', 'y'.repeat(501)))).toBe(413);
  });

  it('refuses client event data over max_message_size with 4301', async () => {
    const sender = await subscribeRaw('private-big');
    const receiver = await subscribeRaw('private-big');
    sender.socket.send({ event: 'client-big', channel: 'private-big', data: 'z'.repeat(10_001) });
    expect((await sender.socket.next('pusher:error')).data).toMatchObject({ code: 4301 });
    sender.socket.send({ event: 'client-fits', channel: 'private-big', data: 'z'.repeat(9_000) });
    expect((await receiver.socket.next('client-fits')).data).toHaveLength(9_000);
    expect(receiver.socket.received.some((frame) => frame.event === 'client-big')).toBe(false);
  });
});

describe('channels per event and batch size', () => {
  it('accepts an event to 100 channels and refuses 101 with 400', async () => {
    const sdk = backend(daemon, app);
    const channels = (count: number) => Array.from({ length: count }, (_, i) => `fan-${i}`);
    expect(await sdkStatus(sdk.trigger(channels(100), 'e', {}))).toBe(200);
    // The SDK refuses 101 itself, so the daemon is asked directly.
    const response = await triggerRaw({ name: 'e', data: '{}', channels: channels(101) });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: expect.stringContaining('100'), code: 400 });
  });

  it('accepts a batch of 10 events and refuses 11 with 400', async () => {
    const sdk = backend(daemon, app);
    const batch = (count: number) => Array.from({ length: count }, (_, i) => ({ channel: `batch-${i}`, name: 'e', data: '{}' }));
    expect(await sdkStatus(sdk.triggerBatch(batch(10)))).toBe(200);
    expect(await sdkStatus(sdk.triggerBatch(batch(11)))).toBe(400);
  });
});

describe('presence limits', () => {
  it('refuses a member beyond max_presence_members with subscription_error LimitReached', async () => {
    for (const id of ['m1', 'm2', 'm3']) expect((await subscribeRaw('presence-full', { user_id: id })).event).toBe('pusher_internal:subscription_succeeded');
    const fourth = await subscribeRaw('presence-full', { user_id: 'm4' });
    expect(fourth.event).toBe('pusher:subscription_error');
    expect(fourth.data).toEqual({ type: 'LimitReached', error: expect.any(String), status: 4100 });
  });

  it('still lets an existing member of a full presence channel join from another socket', async () => {
    for (const id of ['k1', 'k2', 'k3']) await subscribeRaw('presence-full-again', { user_id: id });
    const secondTab = await subscribeRaw('presence-full-again', { user_id: 'k2' });
    expect(secondTab.event).toBe('pusher_internal:subscription_succeeded');
  });

  it('accepts a 128-character user id and refuses 129 on a presence channel', async () => {
    expect((await subscribeRaw('presence-ids', { user_id: 'i'.repeat(128) })).event).toBe('pusher_internal:subscription_succeeded');
    const tooLong = await subscribeRaw('presence-ids', { user_id: 'i'.repeat(129) });
    expect(tooLong.event).toBe('pusher:subscription_error');
    expect(tooLong.data).toMatchObject({ type: 'LimitReached', status: 4301 });
  });

  it('refuses a presence user_info over 1 KB', async () => {
    const fits = await subscribeRaw('presence-info', { user_id: 'small', user_info: { bio: 'b'.repeat(900) } });
    expect(fits.event).toBe('pusher_internal:subscription_succeeded');
    const big = await subscribeRaw('presence-info', { user_id: 'big', user_info: { bio: 'b'.repeat(1_001) } });
    expect(big.event).toBe('pusher:subscription_error');
    expect(big.data).toMatchObject({ type: 'LimitReached', status: 4301 });
  });

  it('refuses a sign-in with a 129-character user id with 4009', async () => {
    const { socket, socketId } = await connectRaw(daemon, app.key);
    socket.send({ event: 'pusher:signin', data: backend(daemon, app).authenticateUser(socketId, { id: 'u'.repeat(129) }) });
    expect((await socket.next('pusher:error')).data).toMatchObject({ code: 4009 });
    expect((await socket.closedWithin()).code).toBe(4009);
  });

  it('refuses terminate_connections for a 129-character user id with 400', async () => {
    expect(await sdkStatus(backend(daemon, app).terminateUserConnections('u'.repeat(129)))).toBe(400);
  });
});

describe('max_connections', () => {
  it('refuses the connection over max_connections with pusher:error 4004 and close, then accepts again after one leaves', async () => {
    const admitted = await Promise.all([1, 2, 3].map(() => connectRaw(daemon, capped.key)));
    const over = await openRaw(daemon, capped.key);
    expect(await over.next('pusher:error')).toEqual({ event: 'pusher:error', data: { code: 4004, message: expect.any(String) } });
    expect((await over.closedWithin()).code).toBe(4004);
    expect(over.received.some((frame) => frame.event === 'pusher:connection_established')).toBe(false);
    const metrics = await (await fetch(`${daemon.httpUrl}/metrics`)).text();
    expect(metrics).toContain(`realtime_connections_refused_total{app_id="${capped.id}",code="4004"} 1`);

    admitted[0]!.socket.close();
    await admitted[0]!.socket.closed;
    await expect.poll(async () => {
      const attempt = await openRaw(daemon, capped.key);
      const first = await attempt.next(() => true);
      attempt.close();
      return first.event;
    }).toBe('pusher:connection_established');
  });
});
