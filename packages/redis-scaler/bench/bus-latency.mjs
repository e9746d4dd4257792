// Cross-node bus benchmark (not a test): two scaler nodes in one process, one
// Redis. Measures publish -> receive latency at a fixed rate, then the highest
// delivery rate. Run after `pnpm run build`:
//   REDIS_URL=redis://127.0.0.1:6379 node bench/bus-latency.mjs [rate=1000] [seconds=5]
import { Redis } from 'ioredis';
import { createRedisScaler } from '../dist/index.js';

const url = process.env.REDIS_URL;
if (!url) {
  console.error('set REDIS_URL (a Redis on loopback) to run the benchmark');
  process.exit(2);
}
const rate = Number(process.argv[2] ?? 1000);
const seconds = Number(process.argv[3] ?? 5);
const redis = new Redis(url);
const prefix = `bench-${process.pid}-${Date.now()}`;
const sender = createRedisScaler({ redis, prefix });
const receiver = createRedisScaler({ redis, prefix });

const latencies = [];
let received = 0;
await receiver.start((message) => {
  received++;
  if (message.type !== 'broadcast') return;
  const sentAt = Number(message.frame.slice(message.frame.indexOf(':') + 1, -1));
  latencies.push(Number(process.hrtime.bigint() - BigInt(sentAt)) / 1e6);
});
await sender.start(() => {});

const frame = (at) => `{"t":${at}}`;
const publish = () => sender.publish({ type: 'broadcast', appId: 'bench', channel: 'c', frame: frame(process.hrtime.bigint()) });
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

// 1. Fixed rate, in 10 ms ticks.
const perTick = rate / 100;
let due = 0;
for (let tick = 0; tick < seconds * 100; tick++) {
  due += perTick;
  for (; due >= 1; due--) publish();
  await sleep(10);
}
await sleep(500);
const sorted = [...latencies].sort((a, b) => a - b);
const fixed = { rate, seconds, sent: Math.round(rate * seconds), received: latencies.length, p50Ms: percentile(sorted, 50), p99Ms: percentile(sorted, 99), maxMs: sorted.at(-1) };

// 2. Flat out: how many messages per second cross the bus.
received = 0;
latencies.length = 0;
const burst = 100_000;
const started = process.hrtime.bigint();
for (let i = 0; i < burst; i++) {
  publish();
  if (i % 1_000 === 999) await new Promise((resolve) => setImmediate(resolve));
}
while (received < burst) {
  const before = received;
  await sleep(200);
  if (received === before) break;
}
const elapsedS = Number(process.hrtime.bigint() - started) / 1e9;
const max = { sent: burst, received, perSecond: Math.round(received / elapsedS) };

console.log(JSON.stringify({ fixedRate: fixed, maxThroughput: max }, null, 2));
await Promise.all([sender.close(), receiver.close()]);
redis.disconnect();
