import { MessageChannel, Worker } from 'node:worker_threads';
import * as vitest from 'vitest';
import { describe, expect, it } from 'vitest';
import { createMemoryStore } from './memory-store.js';
import { createPortStore } from './port-store.js';
import { createIdempotencyHost } from './thread-host.js';
import { runIdempotencyStoreConformance } from './testing/index.js';
import type { IdempotencyStore } from './store.js';

/** Port stores on one host, as workers hold them (here in this thread; the last test uses real threads). */
function portStores(count: number, windowMs: number, inFlightMs?: number): IdempotencyStore[] {
  const backing = createMemoryStore({ windowMs, inFlightMs });
  const host = createIdempotencyHost(backing);
  let open = count;
  return Array.from({ length: count }, () => {
    const { port1, port2 } = new MessageChannel();
    host.attach(port1);
    const store = createPortStore(port2);
    return {
      ...store,
      close: async () => {
        await store.close();
        if (--open === 0) {
          host.close();
          await backing.close();
        }
      },
    };
  });
}

runIdempotencyStoreConformance(vitest, 'worker threads', { clients: (count, { windowMs, inFlightMs }) => Promise.resolve(portStores(count, windowMs, inFlightMs)) });

/** Each worker claims `key` when told, completes when told, and reports its claims. */
const workerSource = (distUrl: string) => `
  import { parentPort, workerData } from 'node:worker_threads';
  const { createPortStore } = await import(${JSON.stringify(distUrl)});
  const store = createPortStore(workerData.port);
  let token;
  parentPort.on('message', async (command) => {
    if (command === 'claim') {
      const claim = await store.claim('app', 'key');
      if (claim.status === 'first') token = claim.token;
      parentPort.postMessage(claim.status);
    } else if (command === 'complete') {
      if (token) await store.complete(token, { status: 200, body: 'answer' });
      parentPort.postMessage('completed');
    } else {
      await store.close();
      parentPort.close();
    }
  });
  parentPort.postMessage('ready');`;

describe('a store shared by worker threads', () => {
  it('gives one first among real threads claiming at once, then the answer to all of them', async () => {
    const host = createIdempotencyHost(createMemoryStore());
    const source = workerSource(new URL('../dist/index.js', import.meta.url).href);
    const workers = Array.from({ length: 4 }, () => {
      const { port1, port2 } = new MessageChannel();
      host.attach(port1);
      return new Worker(new URL(`data:text/javascript,${encodeURIComponent(source)}`), { workerData: { port: port2 }, transferList: [port2] });
    });
    const next = (worker: Worker) => new Promise<string>((resolve, reject) => worker.once('message', resolve).once('error', reject));
    const ask = (command: string) => Promise.all(workers.map((worker) => { const answer = next(worker); worker.postMessage(command); return answer; }));
    await Promise.all(workers.map(next));

    const claims = await ask('claim');
    expect(claims.filter((status) => status === 'first')).toHaveLength(1);
    expect(claims.filter((status) => status === 'in-flight')).toHaveLength(3);
    await ask('complete');
    expect(await ask('claim')).toEqual(['done', 'done', 'done', 'done']);

    for (const worker of workers) worker.postMessage('close');
    await Promise.all(workers.map((worker) => new Promise((resolve) => worker.once('exit', resolve))));
    host.close();
  }, 20_000);

  it('rejects with UNAVAILABLE when the main thread does not answer, and releases a claim granted after', async () => {
    const backing = createMemoryStore();
    const { port1, port2 } = new MessageChannel();
    // A host that answers late: the first claim after 200 ms.
    const held: unknown[] = [];
    port1.on('message', (message) => held.push(message));
    const store = createPortStore(port2, { timeoutMs: 50 });
    await expect(store.claim('app', 'k')).rejects.toMatchObject({ code: 'UNAVAILABLE' });
    const host = createIdempotencyHost(backing);
    port1.removeAllListeners('message');
    host.attach(port1);
    for (const message of held) port1.emit('message', message);
    await vitest.expect.poll(async () => (await backing.claim('app', 'k')).status, { timeout: 2_000 }).toBe('first');
    await store.close();
    host.close();
  });

  it('ignores what is not a request', async () => {
    const backing = createMemoryStore();
    const host = createIdempotencyHost(backing);
    const { port1, port2 } = new MessageChannel();
    host.attach(port1);
    for (const junk of [null, 1, 'claim', { id: 'x', op: 'claim' }, { id: 1, op: 'claim', appId: 1, key: 'k' }, { id: 2, op: 'complete', token: {}, answer: {} }, { id: 3, op: 'drop' }]) port2.postMessage(junk);
    const store = createPortStore(port2);
    expect((await store.claim('app', 'k')).status).toBe('first');
    expect(backing.size).toBe(1);
    await store.close();
    host.close();
  });
});
