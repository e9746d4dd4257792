// Closing-socket clean-up benchmark (not a test): one scaler node, one Redis.
// A socket holds N channels (a share of them presence channels); it is removed
//   before: channel by channel (removeSubscription + leavePresence, awaited in
//           turn, then removeConnection: what the engine did), and
//   after:  with one removeConnection(appId, socketId, held).
// Then close() of a node holding N channels. Each phase reports its time, the
// time Redis spent running scripts meanwhile (INFO commandstats; includes
// any other client of that Redis), the longest a PING from another thread
// waited (how long Redis kept other clients waiting), the longest single
// script call (Redis SLOWLOG, calls over 10 ms) and whether Redis holds
// exactly what it held before the socket came (SCAN of the prefix, key by key).
// Run after `pnpm run build`:
//   REDIS_URL=redis://127.0.0.1:6379 node bench/socket-removal.mjs [channels=100000] [presenceShare=0.1]
import { Worker } from 'node:worker_threads';
import { Redis } from 'ioredis';
import { createRedisScaler } from '../dist/index.js';

const url = process.env.REDIS_URL;
if (!url) {
  console.error('set REDIS_URL (a Redis on loopback) to run the benchmark');
  process.exit(2);
}
const channels = Math.min(Number(process.argv[2] ?? 100_000), 1_000_000);
const presenceShare = Number(process.argv[3] ?? 0.1);
const redis = new Redis(url);
const prefix = `bench-removal-${process.pid}-${Date.now()}`;
const app = 'bench';
const presenceEvery = presenceShare > 0 ? Math.round(1 / presenceShare) : 0;
const isPresence = (i) => presenceEvery > 0 && i % presenceEvery === 0;
const channelName = (i) => (isPresence(i) ? `presence-${i}` : `private-${i}`);
const held = Array.from({ length: channels }, (_, i) => ({ channel: channelName(i), presenceUserId: isPresence(i) ? 'user-1' : undefined }));

/** Every key of the prefix with its content, except the heartbeat set (its scores move). */
async function snapshot() {
  const keys = [];
  let cursor = '0';
  do {
    const [next, batch] = await redis.scan(cursor, 'MATCH', `{${prefix}}:*`, 'COUNT', 10_000);
    cursor = next;
    keys.push(...batch.filter((key) => !key.endsWith(':nodes')));
  } while (cursor !== '0');
  keys.sort();
  const content = await Promise.all(
    keys.map(async (key) => {
      const type = await redis.type(key);
      const value = type === 'set' ? (await redis.smembers(key)).sort() : type === 'hash' ? await redis.hgetall(key) : await redis.get(key);
      return [key, type, value];
    }),
  );
  return JSON.stringify(content);
}

/** Time of `work`, the longest PING from another thread meanwhile, and the longest script call Redis logged. */
async function measured(work) {
  const worker = new Worker(new URL('./ping-worker.mjs', import.meta.url), { workerData: { url } });
  await new Promise((resolve) => worker.once('message', resolve));
  const [latest] = await redis.slowlog('GET', 1);
  const sinceId = latest ? Number(latest[0]) : -1;
  const busyBefore = await commandMicros();
  const start = process.hrtime.bigint();
  await work();
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  const redisBusyMs = Math.round(((await commandMicros()) - busyBefore) / 1_000);
  const maxPingMs = await new Promise((resolve) => {
    worker.once('message', resolve);
    worker.postMessage('stop');
  });
  const slow = (await redis.slowlog('GET', 1_000)).filter((entry) => Number(entry[0]) > sinceId);
  const longestCallMs = Math.max(0, ...slow.map((entry) => Number(entry[2]) / 1_000));
  return { ms: Math.round(ms), redisBusyMs, maxPingMs: round(maxPingMs), longestCallMs: slow.length ? round(longestCallMs) : '< 10 (none logged)' };
}

/**
 * Microseconds Redis spent running Lua scripts since it started (INFO
 * commandstats of EVAL and EVALSHA; the commands inside scripts are counted
 * again under their own names, so they are left out). Every change the scaler
 * makes is a script.
 */
async function commandMicros() {
  const info = await redis.info('commandstats');
  let total = 0;
  for (const match of info.matchAll(/^cmdstat_eval(?:sha)?:calls=\d+,usec=(\d+),/gm)) total += Number(match[1]);
  return total;
}

const round = (value) => Math.round(value * 10) / 10;

/** The socket joins every channel; calls in batches so auto-pipelining keeps set-up short. */
async function fill(scaler) {
  await scaler.addConnection(app, '1.1');
  for (let start = 0; start < channels; start += 5_000) {
    const batch = held.slice(start, start + 5_000);
    await Promise.all(
      batch.map(async ({ channel, presenceUserId }) => {
        await scaler.addSubscription(app, channel, '1.1');
        if (presenceUserId) await scaler.joinPresence(app, channel, '1.1', { userId: presenceUserId, userInfo: '{}' }, 1_000);
      }),
    );
  }
}

const scaler = createRedisScaler({ redis, prefix, nodeId: 'bench-node' });
await scaler.start(() => {});
const baseline = await snapshot();
const results = { channels, presenceChannels: held.filter((h) => h.presenceUserId).length, keysBefore: JSON.parse(baseline).length };

await fill(scaler);
results.before = await measured(async () => {
  for (const { channel, presenceUserId } of held) {
    await scaler.removeSubscription(app, channel, '1.1');
    if (presenceUserId) await scaler.leavePresence(app, channel, '1.1', presenceUserId);
  }
  await scaler.removeConnection(app, '1.1');
});
results.before.redisAsBefore = (await snapshot()) === baseline;

await fill(scaler);
let removal;
results.after = await measured(async () => {
  removal = await scaler.removeConnection(app, '1.1', held);
});
results.after.redisAsBefore = (await snapshot()) === baseline;
results.after.vacated = removal.vacated.length;
results.after.membersLeft = removal.membersLeft.length;

await fill(scaler);
results.close = await measured(() => scaler.close());
results.close.redisAsBefore = (await snapshot()) === baseline;
results.close.nodeStillListed = (await redis.zscore(`{${prefix}}:nodes`, 'bench-node')) !== null;

console.log(JSON.stringify(results, null, 2));
redis.disconnect();
