import type { MessagePort } from 'node:worker_threads';
import { copyAnswer } from './answer-codec.js';
import { IdempotencyError } from './errors.js';
import { resolvePortOptions, type PortStoreOptions } from './options.js';
import type { Claim, ClaimToken, IdempotencyStore, IdempotentAnswer } from './store.js';
import type { StoreReply, StoreRequest } from './thread-messages.js';

interface Waiting {
  resolve(claim: Claim | undefined): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

type RequestBody = { op: 'claim'; appId: string; key: string } | { op: 'complete'; token: ClaimToken; answer: IdempotentAnswer } | { op: 'release'; token: ClaimToken };

/**
 * A worker thread's store: every call goes over `port` to `createIdempotencyHost` in the main
 * thread, which holds the one store of the process. A call waits at most `timeoutMs`, then rejects
 * with `UNAVAILABLE`; a claim that timed out but was granted later is released at once. The port
 * does not keep the thread alive; `close` closes it.
 */
export function createPortStore(port: MessagePort, options?: PortStoreOptions): IdempotencyStore {
  const { timeoutMs } = resolvePortOptions(options);
  const waiting = new Map<number, Waiting>();
  let nextId = 0;
  let closed = false;

  const call = (body: RequestBody): Promise<Claim | undefined> => {
    if (closed) return Promise.reject(new IdempotencyError('CLOSED', 'the idempotency store is closed'));
    const id = nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        waiting.delete(id);
        reject(new IdempotencyError('UNAVAILABLE', `the main thread did not answer the idempotency ${body.op} within ${timeoutMs} ms`));
        // A claim granted after we gave up would hold the key for the window: give it back.
        if (body.op === 'claim') waiting.set(id, { resolve: (claim) => releaseLate(claim), reject: () => {}, timer: setTimeout(() => waiting.delete(id), 60_000).unref() });
      }, timeoutMs);
      waiting.set(id, { resolve, reject, timer });
      port.postMessage({ id, ...body } satisfies StoreRequest);
    });
  };
  const releaseLate = (claim: Claim | undefined) => {
    if (claim?.status === 'first') call({ op: 'release', token: claim.token }).catch(() => {});
  };

  port.on('message', (reply: StoreReply) => {
    const entry = waiting.get(reply.id);
    if (!entry) return;
    waiting.delete(reply.id);
    clearTimeout(entry.timer);
    if (reply.ok) entry.resolve(reply.claim);
    else entry.reject(new IdempotencyError('UNAVAILABLE', `the idempotency store in the main thread failed: ${reply.message}`));
  });
  port.unref();

  return {
    async claim(appId, key) {
      const claim = await call({ op: 'claim', appId, key });
      if (!claim) throw new IdempotencyError('UNAVAILABLE', 'the main thread answered a claim without its outcome');
      return claim;
    },
    async complete(token, answer) {
      await call({ op: 'complete', token, answer: copyAnswer(answer) });
    },
    async release(token) {
      await call({ op: 'release', token });
    },
    close() {
      closed = true;
      for (const [id, entry] of waiting) {
        clearTimeout(entry.timer);
        entry.reject(new IdempotencyError('CLOSED', 'the idempotency store is closed'));
        waiting.delete(id);
      }
      port.close();
      return Promise.resolve();
    },
  };
}
