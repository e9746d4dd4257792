import { IdempotencyError } from './errors.js';
import { resolveMemoryOptions, type MemoryStoreOptions } from './options.js';
import type { Claim, ClaimToken, IdempotencyStore, IdempotentAnswer } from './store.js';

interface Entry {
  readonly id: string;
  readonly expiresAt: number;
  answer: IdempotentAnswer | undefined;
}

/** A memory store, with what it holds for metrics. */
export interface MemoryStore extends IdempotencyStore {
  /** Keys held now (expired ones are dropped as claims come). */
  readonly size: number;
  /** Keys forgotten before their window ended because `maxKeys` was reached, since the store was made. */
  readonly evicted: number;
}

/** Unambiguous for any app id and key: the app id's length first. */
const entryKey = (appId: string, key: string) => `${appId.length}:${appId}${key}`;

/**
 * Keys in this process's memory, each for `windowMs` from its first claim. Entries sit in claim
 * order, which is also expiry order (every key has the same window), so expired keys are dropped
 * from the front as claims come, without a timer or a scan. At `maxKeys` the oldest key is
 * forgotten early: a retry with it is then published again (at least once), never refused or lost.
 *
 * @example
 * const store = createMemoryStore({ windowMs: 120_000, maxKeys: 100_000 });
 * const claim = await store.claim('app-1', 'order-42');
 */
export function createMemoryStore(options?: MemoryStoreOptions): MemoryStore {
  const { windowMs, maxKeys, now = Date.now } = resolveMemoryOptions(options);
  const entries = new Map<string, Entry>();
  let evicted = 0;
  let closed = false;
  // Claim ids only need to differ within this store: a counter, short in memory (a UUID per key cost ~100 bytes more).
  let nextId = 0;

  const dropExpired = (time: number) => {
    for (const [key, entry] of entries) {
      if (entry.expiresAt > time) return;
      entries.delete(key);
    }
  };
  /** The entry of a token's claim, if it is still the one held. */
  const held = (token: ClaimToken): [string, Entry] | undefined => {
    const key = entryKey(token.appId, token.key);
    const entry = entries.get(key);
    return entry?.id === token.id && entry.expiresAt > now() ? [key, entry] : undefined;
  };

  return {
    get size() {
      dropExpired(now());
      return entries.size;
    },
    get evicted() {
      return evicted;
    },
    claim(appId, key) {
      if (closed) return Promise.reject(new IdempotencyError('CLOSED', 'the idempotency store is closed'));
      const time = now();
      dropExpired(time);
      const name = entryKey(appId, key);
      const entry = entries.get(name);
      let claim: Claim;
      if (entry) {
        claim = entry.answer ? { status: 'done', answer: entry.answer } : { status: 'in-flight' };
      } else {
        if (entries.size >= maxKeys) {
          // Map order is claim order: the first key is the oldest.
          const oldest = entries.keys().next().value as string;
          entries.delete(oldest);
          evicted++;
        }
        const id = (nextId++).toString(36);
        entries.set(name, { id, expiresAt: time + windowMs, answer: undefined });
        claim = { status: 'first', token: { appId, key, id } };
      }
      return Promise.resolve(claim);
    },
    complete(token, answer) {
      const found = held(token);
      if (found) found[1].answer = { status: answer.status, body: answer.body };
      return Promise.resolve();
    },
    release(token) {
      const found = held(token);
      if (found) entries.delete(found[0]);
      return Promise.resolve();
    },
    close() {
      closed = true;
      entries.clear();
      return Promise.resolve();
    },
  };
}
