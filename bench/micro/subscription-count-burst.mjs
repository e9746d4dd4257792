#!/usr/bin/env node
// Frames per join of pusher_internal:subscription_count: 10,000 sockets join one channel of one engine (in-memory
// transport and scaler), flat out or at a steady rate; every count frame delivered is counted and divided by the joins.
// Without coalescing every join would send the count to every subscriber: N(N+1)/2 frames, 5,000 per join at 10,000.
// Run after building @org/protocol: node bench/micro/subscription-count-burst.mjs   (about 30 s)
import { createApp, createStaticAppProvider, RealtimeServer } from '../../packages/protocol/dist/index.js';
import { MemoryTransport, settle } from '../../packages/protocol/dist/testing.js';

const subscribers = Number(process.env.SUBSCRIBERS ?? 10_000);
const countPrefix = '{"event":"pusher_internal:subscription_count"';
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** One run: `rate` joins per second (0: as fast as the engine takes them), counts coalesced over `intervalMs`. */
async function run({ intervalMs, rate }) {
  const app = createApp({ id: 'bench', key: 'bench-key', secret: 'secret', maxConnections: subscribers * 2, enableSubscriptionCount: true, subscriptionCountIntervalMs: intervalMs });
  const server = new RealtimeServer({ apps: createStaticAppProvider([app]) });
  await server.start();
  const transport = new MemoryTransport(server);
  const sockets = await Promise.all(Array.from({ length: subscribers }, () => transport.connect({ appKey: app.key })));
  await settle(20);
  const subscribe = (socket) => socket.receive('{"event":"pusher:subscribe","data":{"channel":"crowd"}}');

  const started = performance.now();
  if (rate === 0) {
    for (const socket of sockets) subscribe(socket);
  } else {
    const perTick = Math.max(1, Math.round(rate / 100)); // a batch every 10 ms
    for (let next = 0; next < sockets.length; next += perTick) {
      for (const socket of sockets.slice(next, next + perTick)) subscribe(socket);
      await sleep(10);
    }
  }
  // Every join confirmed and its count read: then two intervals for the trailing update and the quiet end.
  while (sockets.some((socket) => !socket.frames.some((frame) => frame.startsWith(countPrefix)))) await sleep(5);
  const joinMs = performance.now() - started;
  await sleep(intervalMs * 2 + 50);

  let frames = 0;
  let last = true;
  for (const socket of sockets) {
    let mine = 0;
    let lastCount;
    for (const frame of socket.frames) {
      if (!frame.startsWith(countPrefix)) continue;
      mine++;
      lastCount = frame;
    }
    frames += mine;
    last &&= lastCount?.includes(`subscription_count\\":${subscribers}}`) === true;
  }
  for (const socket of sockets) socket.close(1000, 'done');
  await server.stop();
  return { joinMs, frames, perJoin: frames / subscribers, allExact: last };
}

const cases = [
  { label: 'flat out, interval 1,000 ms (default)', intervalMs: 1_000, rate: 0 },
  { label: 'flat out, interval 100 ms', intervalMs: 100, rate: 0 },
  { label: '1,000 joins/s, interval 1,000 ms', intervalMs: 1_000, rate: 1_000 },
  { label: '1,000 joins/s, interval 100 ms', intervalMs: 100, rate: 1_000 },
];
console.log(`${subscribers} subscribers join one channel; without coalescing: ${((subscribers + 1) / 2).toFixed(0)} frames per join`);
for (const { label, ...options } of cases) {
  const { joinMs, frames, perJoin, allExact } = await run(options);
  console.log(`${label.padEnd(40)} joins took ${(joinMs / 1000).toFixed(1).padStart(5)} s   count frames ${String(frames).padStart(8)}   per join ${perJoin.toFixed(2).padStart(6)}   every last count exact: ${allExact}`);
}
