import { beforeAll, describe, expect, it } from 'vitest';
import { daemonConfig, testApp } from './helpers/apps.js';
import { backend } from './helpers/clients.js';
import { startDaemon, type RunningDaemon } from './helpers/daemon.js';
import { connectRaw } from './helpers/raw-socket.js';
import { waitFor } from './helpers/wait.js';

const app = testApp('slow');
let daemon: RunningDaemon;

beforeAll(async () => {
  // Big batches keep the number of HTTP calls needed to fill the buffers small.
  daemon = await startDaemon(daemonConfig([app], { servers: { main: { max_request_size: 200_000 } } }));
});

async function subscriptionCount(channel: string): Promise<number> {
  const response = await backend(daemon, app).get({ path: `/channels/${channel}`, params: { info: 'subscription_count' } });
  return ((await response.json()) as { subscription_count: number }).subscription_count;
}

describe('slow consumers', () => {
  it('closes a client that stops reading instead of buffering without bound, and keeps serving the others', async () => {
    const slow = await connectRaw(daemon, app.key);
    const fast = await connectRaw(daemon, app.key);
    for (const { socket } of [slow, fast]) {
      socket.subscribe('firehose');
      await socket.next('pusher_internal:subscription_succeeded');
    }
    // Stop reading from the TCP socket: first the kernel buffers fill, then the daemon's.
    (slow.socket.ws as unknown as { _socket: { pause(): void; resume(): void } })._socket.pause();

    const sdk = backend(daemon, app);
    const data = 'x'.repeat(9_000);
    const batch = Array.from({ length: 10 }, () => ({ channel: 'firehose', name: 'chunk', data }));
    let sent = 0;
    // Up to ~45 MB: far more than loopback buffers plus the transport's 1 MiB backpressure limit.
    for (let round = 0; round < 500 && (await subscriptionCount('firehose')) === 2; round++) {
      for (let i = 0; i < 10; i++) {
        await sdk.triggerBatch(batch);
        sent += batch.length;
      }
    }
    expect(await subscriptionCount('firehose')).toBe(1);

    await waitFor(() => (fast.socket.received.filter((frame) => frame.event === 'chunk').length === sent ? true : undefined), 'the fast client to get every event', 15_000);
    (slow.socket.ws as unknown as { _socket: { resume(): void } })._socket.resume();
    const close = await slow.socket.closedWithin(10_000);
    expect(close.code).not.toBe(1000);
    expect(slow.socket.received.filter((frame) => frame.event === 'chunk').length).toBeLessThan(sent);

    expect(daemon.process.exitCode).toBeNull();
    const { socketId } = await connectRaw(daemon, app.key);
    expect(socketId).toMatch(/^\d+\.\d+$/);
  }, 60_000);
});
