// Worker of socket-removal.mjs: PINGs Redis in a loop on its own thread, so
// the scaler's work on the main thread never delays it, and reports the
// longest wait when told to stop.
import { parentPort, workerData } from 'node:worker_threads';
import { Redis } from 'ioredis';

const pinger = new Redis(workerData.url);
let running = true;
let maxPingMs = 0;
parentPort.once('message', () => (running = false));
await pinger.ping();
parentPort.postMessage('ready');
while (running) {
  const start = process.hrtime.bigint();
  await pinger.ping();
  maxPingMs = Math.max(maxPingMs, Number(process.hrtime.bigint() - start) / 1e6);
  await new Promise((resolve) => setImmediate(resolve));
}
parentPort.postMessage(maxPingMs);
pinger.disconnect();
