#!/usr/bin/env node
// The cost of a pusher:signin with watchlist events: sign-ins per second on one engine (memory transport),
// without a watchlist (option off, and on with no watchlist) and with a 100-id watchlist (half of the watched users
// online), on the local scaler and, with REDIS_URL set, on the Redis scaler.
// Run after building @org/protocol and @org/redis-scaler:
//   node bench/micro/watchlist-signin.mjs            (local scaler; about 20 s)
//   REDIS_URL=redis://127.0.0.1:6379 node bench/micro/watchlist-signin.mjs   (adds the Redis scaler)
// Each round: open N sockets, send every sign-in at once, wait for every answer (signin_success, and the status frame
// when there is a watchlist), then close them all; the figure is N over the time from the first sign-in to the last
// answer and the last sign-in recorded by the scaler, and the engine process's CPU per sign-in over the same span (Redis's
// own CPU is not in it). Medians of 5 rounds.
import { createApp, createStaticAppProvider, RealtimeServer, signUser, createLocalScaler } from '../../packages/protocol/dist/index.js';
import { MemoryTransport, settle } from '../../packages/protocol/dist/testing.js';

const rounds = 5;
const sockets = 2_000;
const watchlist = Array.from({ length: 100 }, (_, i) => `watched-${i}`);
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const apps = {
  off: createApp({ id: 'off', key: 'off', secret: 'off-secret', maxConnections: 1_000_000 }),
  on: createApp({ id: 'on', key: 'on', secret: 'on-secret', maxConnections: 1_000_000, enableWatchlistEvents: true }),
};

async function until(done) {
  for (let turn = 0; turn < 100_000 && !done(); turn++) await new Promise((resolve) => setTimeout(resolve, 1));
}

async function engine(scaler) {
  const server = new RealtimeServer({ apps: createStaticAppProvider(Object.values(apps)), scaler });
  await server.start();
  return { server, transport: new MemoryTransport(server) };
}

/** Sign-ins per second for one case; `expect` is the frames each socket must have after the handshake. */
async function measure({ transport }, app, withWatchlist, offset) {
  // Half of the watched users are online, signed in on sockets that stay for the round.
  const online = [];
  if (withWatchlist) {
    for (let i = 0; i < 50; i++) {
      const socket = await transport.connect({ appKey: app.key });
      await until(() => socket.frames.length > 0);
      const userData = JSON.stringify({ id: `watched-${i}` });
      socket.receive({ event: 'pusher:signin', data: { user_data: userData, auth: signUser(app, socket.socketId, userData) } });
      online.push(socket);
    }
  }
  const clients = [];
  for (let i = 0; i < sockets; i++) clients.push(await transport.connect({ appKey: app.key }));
  // A remote scaler confirms connections later than the memory transport's settle.
  await until(() => clients.every((socket) => socket.frames.length > 0));
  const frames = clients.map((socket, i) => {
    const userData = JSON.stringify(withWatchlist ? { id: `user-${offset + i}`, watchlist } : { id: `user-${offset + i}` });
    return JSON.stringify({ event: 'pusher:signin', data: { user_data: userData, auth: signUser(app, socket.socketId, userData) } });
  });
  const before = clients.map((socket) => socket.frames.length);
  const wanted = withWatchlist && app.enableWatchlistEvents ? 2 : 1;
  const cpuBefore = process.cpuUsage();
  const start = performance.now();
  for (let i = 0; i < sockets; i++) clients[i].receive(frames[i]);
  for (let turn = 0; turn < 10_000; turn++) {
    if (clients.every((socket, i) => socket.frames.length - before[i] >= wanted)) break;
    await new Promise((resolve) => setImmediate(resolve));
  }
  // Every sign-in recorded too (the scaler answers in order): without a watchlist the client's answer comes first.
  await settle(2);
  await transport.server.scaler.onlineUsers(app.id, ['barrier']);
  const seconds = (performance.now() - start) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  for (const socket of [...clients, ...online]) socket.close(1000, 'round over');
  await settle(20);
  return { rate: sockets / seconds, cpuMicros: (cpu.user + cpu.system) / sockets };
}

async function run(label, makeScaler) {
  const cases = [
    ['option off, no watchlist', apps.off, false],
    ['option on, no watchlist', apps.on, false],
    ['option on, 100-id watchlist', apps.on, true],
  ];
  const results = new Map(cases.map(([name]) => [name, []]));
  const node = await engine(await makeScaler());
  let offset = 0;
  for (let round = 0; round < rounds; round++) {
    for (const [name, app, withWatchlist] of cases) {
      results.get(name).push(await measure(node, app, withWatchlist, (offset += sockets)));
    }
  }
  await node.server.stop();
  for (const [name, values] of results) {
    const rate = median(values.map((value) => value.rate));
    const cpu = median(values.map((value) => value.cpuMicros));
    console.log(`${label.padEnd(14)} ${name.padEnd(30)} ${Math.round(rate).toLocaleString('en').padStart(8)} sign-ins/s   engine CPU ${cpu.toFixed(1).padStart(6)} µs per sign-in`);
  }
}

await run('local scaler', async () => createLocalScaler());
if (process.env.REDIS_URL) {
  const { Redis } = await import('ioredis');
  const { createRedisScaler } = await import('../../packages/redis-scaler/dist/index.js');
  const redis = new Redis(process.env.REDIS_URL);
  await run('Redis scaler', async () => createRedisScaler({ redis, prefix: `bench-watchlist-${process.pid}` }));
  redis.disconnect();
}
