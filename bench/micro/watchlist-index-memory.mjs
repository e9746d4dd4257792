#!/usr/bin/env node
// Heap held by this node's watchlist index: 5,000 signed-in connections of one engine sign in again, each with a
// watchlist of 100 user ids (out of 20,000), against the same sign-ins without one.
// Run after building @org/protocol: node --expose-gc bench/micro/watchlist-index-memory.mjs
import { createApp, createStaticAppProvider, createLocalScaler, RealtimeServer, signUser } from '../../packages/protocol/dist/index.js';
import { MemoryTransport, settle } from '../../packages/protocol/dist/testing.js';

if (typeof globalThis.gc !== 'function') throw new Error('run with node --expose-gc');
const app = createApp({ id: 'mem', key: 'mem', secret: 'mem-secret', maxConnections: 1_000_000, enableWatchlistEvents: true });
const server = new RealtimeServer({ apps: createStaticAppProvider([app]), scaler: createLocalScaler() });
await server.start();
const transport = new MemoryTransport(server);
const count = 5_000;
const clients = [];
for (let i = 0; i < count; i++) clients.push(await transport.connect({ appKey: 'mem' }));
const socketIds = clients.map((socket) => socket.socketId);
const signIn = (withWatchlist) => {
  clients.forEach((socket, i) => {
    const watchlist = Array.from({ length: 100 }, (_, k) => `u${(i * 7 + k * 13) % 20_000}`);
    const userData = JSON.stringify(withWatchlist ? { id: `u${i}`, watchlist } : { id: `u${i}` });
    socket.receive({ event: 'pusher:signin', data: { user_data: userData, auth: signUser(app, socketIds[i], userData) } });
  });
};
const heapAfter = async (withWatchlist) => {
  signIn(withWatchlist);
  await settle(10);
  for (const socket of clients) socket.frames.length = 0; // the test transport keeps frames; a real one does not
  globalThis.gc();
  return process.memoryUsage().heapUsed;
};
const without = await heapAfter(false);
const withIndex = await heapAfter(true);
console.log(`watchlist index: ${Math.round((withIndex - without) / count).toLocaleString('en')} bytes per connection watching 100 users`);
await server.stop();
