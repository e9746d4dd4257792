#!/usr/bin/env node
// What one event per webhook request (Pusher's default format) costs against batches: a burst of 1,000
// channel_occupied events through @org/webhooks (its built dist) to a loopback receiver that answers 200
// after 0 or 5 ms (a receiver across a network), timed until the last request was answered, with the
// requests the receiver got and the most it held at once.
// Run after building @org/webhooks: node bench/micro/webhook-requests.mjs   (about 30 s; after a warm-up, medians of 3 runs)
import { createServer } from 'node:http';
import { createApp, ServerEvents } from '../../packages/protocol/dist/index.js';
import { createWebhooks } from '../../packages/webhooks/dist/index.js';

const events = 1_000;
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function receiver(delayMs) {
  const seen = { requests: 0, events: 0, concurrent: 0, mostConcurrent: 0 };
  const server = createServer((request, response) => {
    seen.concurrent++;
    seen.mostConcurrent = Math.max(seen.mostConcurrent, seen.concurrent);
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      seen.requests++;
      seen.events += JSON.parse(Buffer.concat(chunks).toString('utf8')).events.length;
      const answer = () => {
        seen.concurrent--;
        response.end('ok');
      };
      if (delayMs === 0) answer();
      else setTimeout(answer, delayMs);
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}/webhook`, seen, close: () => new Promise((resolve) => server.close(resolve)) };
}

async function run(delayMs, appKeys, webhookKeys) {
  const hook = await receiver(delayMs);
  const app = createApp({ id: 'bench', key: 'bench-key', secret: 'bench-secret' });
  const serverEvents = new ServerEvents();
  const webhooks = createWebhooks({ events: serverEvents, apps: [{ ...app, ...appKeys, webhooks: [{ url: hook.url, ...webhookKeys }] }] });
  const started = performance.now();
  for (let i = 0; i < events; i++) serverEvents.emit('channel.occupied', { app, channel: `channel-${i}` });
  while (hook.seen.events < events) await new Promise((resolve) => setTimeout(resolve, 1));
  const ms = performance.now() - started;
  await webhooks.stop(Date.now() + 1_000);
  await hook.close();
  return { ms, requests: hook.seen.requests, mostConcurrent: hook.seen.mostConcurrent };
}

const setups = {
  'one per request, 1 in flight (default)': [{}, {}],
  'one per request, 4 in flight': [{}, { max_concurrent_requests: 4 }],
  'one per request, 16 in flight': [{}, { max_concurrent_requests: 16 }],
  'batch_webhooks (50 ms window)': [{ batch_webhooks: true }, {}],
};
// Warm-up (JIT, the first connections): the first thousand requests of a process cost several times the rest.
for (const [appKeys, webhookKeys] of Object.values(setups)) await run(0, appKeys, webhookKeys);
for (const delayMs of [0, 5]) {
  for (const [name, [appKeys, webhookKeys]] of Object.entries(setups)) {
    const runs = [];
    for (let rep = 0; rep < 3; rep++) runs.push(await run(delayMs, appKeys, webhookKeys));
    const { requests, mostConcurrent } = runs[0];
    console.log(`receiver +${delayMs} ms  ${name.padEnd(40)} ${median(runs.map((r) => r.ms)).toFixed(0).padStart(6)} ms for ${events} events, ${requests} requests, at most ${mostConcurrent} at once`);
  }
}
