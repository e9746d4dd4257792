import { MessageChannel, Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import type { NodeLoss } from '@org/protocol';
import { createScalerHub, type ScalerHub } from './scaler-hub.js';

/**
 * A worker thread that speaks the hub's wire format by hand (start, a connection, a subscription,
 * a presence join), waits for the answers and ends: its port closes with it, as when a real
 * worker's thread dies.
 */
const workerSource = `
const { workerData } = require('node:worker_threads');
const port = workerData.port;
const requests = [
  { k: 'start', id: 0, routing: 'subscribed' },
  { k: 'call', id: 1, m: 'addConnection', a: ['app', '9.1'] },
  { k: 'call', id: 2, m: 'addSubscription', a: ['app', 'room', '9.1'] },
  { k: 'call', id: 3, m: 'addSubscription', a: ['app', 'presence-x', '9.1'] },
  { k: 'call', id: 4, m: 'joinPresence', a: ['app', 'presence-x', '9.1', { userId: 'ghost', userInfo: '{}' }, 100] },
  { k: 'call', id: 5, m: 'signIn', a: ['app', 'ghost', '9.1'] },
  { k: 'call', id: 6, m: 'signIn', a: ['app', 'kept', '9.1'] },
];
let answered = 0;
port.on('message', () => {
  if (++answered === requests.length) process.exit(workerData.code);
});
for (const request of requests) port.postMessage(request);
`;

let hub: ScalerHub | undefined;
afterEach(() => hub?.close());

async function lostWorker(code: number): Promise<{ loss: NodeLoss; hub: ScalerHub }> {
  hub = createScalerHub();
  const survivor = hub.node('survivor');
  const losses: NodeLoss[] = [];
  await survivor.start(() => {}, (loss) => losses.push(loss), { routing: 'subscribed' });
  await survivor.addConnection('app', '1.1');
  await survivor.addSubscription('app', 'room', '1.1');
  await survivor.signIn('app', 'kept', '1.1');

  const { port1, port2 } = new MessageChannel();
  hub.attach(port1, 'dying');
  const worker = new Worker(workerSource, { eval: true, workerData: { port: port2, code }, transferList: [port2] });
  const exitCode = await new Promise<number>((resolve) => worker.once('exit', resolve));
  expect(exitCode).toBe(code);
  await expect.poll(() => losses.length, { timeout: 5_000 }).toBe(1);
  return { loss: losses[0]!, hub };
}

describe('a worker thread that ends without close()', () => {
  it('is removed by the hub: its sockets undone and the loss reported once to a surviving node', async () => {
    const { loss, hub } = await lostWorker(1);
    // 'room' keeps the survivor's subscriber: its count dropped, so it is reported for the subscription counts.
    expect(loss).toEqual({
      members: [{ appId: 'app', channel: 'presence-x', userId: 'ghost' }],
      vacatedChannels: [{ appId: 'app', channel: 'presence-x' }],
      reducedChannels: [{ appId: 'app', channel: 'room' }],
      // Watchlist events: only the user it left with no signed-in socket anywhere.
      usersOffline: [{ appId: 'app', userId: 'ghost' }],
    });
    expect(hub.state.onlineUsers('app', ['ghost', 'kept'])).toEqual(['kept']);
    expect(hub.state.connectionCount('app')).toBe(1);
    expect(hub.state.subscriptionCount('app', 'room')).toBe(1);
    expect(hub.state.userCount('app', 'presence-x')).toBe(0);
    expect(hub.stats).toMatchObject({ nodes: 1, lost: 1 });
  });

  it('is removed the same way when it exits cleanly (code 0) without closing its scaler', async () => {
    const { loss } = await lostWorker(0);
    expect(loss.members).toEqual([{ appId: 'app', channel: 'presence-x', userId: 'ghost' }]);
  });
});
