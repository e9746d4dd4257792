import { copyAnswer } from './answer-codec.js';
import { IdempotencyError } from './errors.js';
import { resolveMemoryOptions, type MemoryStoreOptions } from './options.js';
import type { Claim, ClaimToken, IdempotencyStore, IdempotentAnswer } from './store.js';

interface Entry {
  readonly id: string;
  readonly claimedAt: number;
  /** The claim's `inFlightMs` until it completes, then the window from `claimedAt`. */
  expiresAt: number;
  answer: IdempotentAnswer | undefined;
  /** What this entry counts against `maxBytes`: see `entryBytes`. */
  bytes: number;
}

/**
 * Per entry, beyond its key and answer: the Map slot, the entry and answer objects and the claim id
 * (measured: an answered 22-character key with the answer `{}` holds about 224 bytes).
 */
const entryOverheadBytes = 200;
/**
 * What an entry holds: one byte a character, as V8 keeps the printable ASCII keys and the JSON answers
 * of the API (channel names are ASCII); a store given wider text undercounts by at most half.
 */
const entryBytes = (name: string, answer: IdempotentAnswer | undefined) =>
  entryOverheadBytes + name.length + (answer ? answer.body.length + (answer.request?.length ?? 0) : 0);

/** A memory store, with what it holds for metrics. */
export interface MemoryStore extends IdempotencyStore {
  /** Keys held now (expired ones are dropped as claims come). */
  readonly size: number;
  /** Bytes of the keys held, their answers included (see `maxBytes`). */
  readonly bytes: number;
  /** Keys forgotten before their window ended because `maxKeys` or `maxBytes` was reached, since the store was made. */
  readonly evicted: number;
}

/** Unambiguous for any app id and key: the app id's length first. */
const entryKey = (appId: string, key: string) => `${appId.length}:${appId}${key}`;

/**
 * Keys in this process's memory, each for `windowMs` from its first claim once completed, and for
 * `inFlightMs` while not (a request that died does not block its retries for the whole window).
 * Entries sit in claim order, which is expiry order for every completed key, so expired keys are
 * dropped from the front as claims come, without a timer or a scan; a claim left in flight that
 * expires behind a longer-lived key is dropped when its key is claimed again (or reaches the front). At `maxKeys` keys, or `maxBytes` of keys
 * and answers (an answer may be kilobytes: a trigger to 100 channels with `info`), the oldest key is
 * forgotten early: a retry with it is then published again (at least once), never refused or lost.
 *
 * @example
 * const store = createMemoryStore({ windowMs: 120_000, maxKeys: 100_000 });
 * const claim = await store.claim('app-1', 'order-42');
 */
export function createMemoryStore(options?: MemoryStoreOptions): MemoryStore {
  const { windowMs, inFlightMs, maxKeys, maxBytes, now = Date.now } = resolveMemoryOptions(options);
  const entries = new Map<string, Entry>();
  let bytes = 0;
  let evicted = 0;
  let closed = false;
  // Claim ids only need to differ within this store: a counter, short in memory (a UUID per key cost ~100 bytes more).
  let nextId = 0;

  const forget = (key: string, entry: Entry) => {
    entries.delete(key);
    bytes -= entry.bytes;
  };
  const dropExpired = (time: number) => {
    for (const [key, entry] of entries) {
      if (entry.expiresAt > time) return;
      forget(key, entry);
    }
  };
  /** Forgets the oldest keys (Map order is claim order) until `room` more keys and `extraBytes` more bytes fit. */
  const evictFor = (room: number, extraBytes: number) => {
    for (const [key, entry] of entries) {
      if (entries.size + room <= maxKeys && bytes + extraBytes <= maxBytes) return;
      forget(key, entry);
      evicted++;
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
    get bytes() {
      dropExpired(now());
      return bytes;
    },
    get evicted() {
      return evicted;
    },
    claim(appId, key) {
      if (closed) return Promise.reject(new IdempotencyError('CLOSED', 'the idempotency store is closed'));
      const time = now();
      dropExpired(time);
      const name = entryKey(appId, key);
      let entry = entries.get(name);
      // A claim whose request died can expire behind a later key that lives longer, out of dropExpired's reach.
      if (entry && entry.expiresAt <= time) {
        forget(name, entry);
        entry = undefined;
      }
      let claim: Claim;
      if (entry) {
        claim = entry.answer ? { status: 'done', answer: entry.answer } : { status: 'in-flight' };
      } else {
        const added = entryBytes(name, undefined);
        evictFor(1, added);
        const id = (nextId++).toString(36);
        entries.set(name, { id, claimedAt: time, expiresAt: time + inFlightMs, answer: undefined, bytes: added });
        bytes += added;
        claim = { status: 'first', token: { appId, key, id } };
      }
      return Promise.resolve(claim);
    },
    complete(token, answer) {
      const found = held(token);
      if (!found) return Promise.resolve();
      const [name, entry] = found;
      entry.answer = copyAnswer(answer);
      entry.expiresAt = entry.claimedAt + windowMs;
      const grown = entryBytes(name, entry.answer) - entry.bytes;
      entry.bytes += grown;
      bytes += grown;
      if (entry.bytes > maxBytes) {
        // Larger than all the room there is: this key alone is forgotten, not every other one before it.
        forget(name, entry);
        evicted++;
      }
      evictFor(0, 0);
      return Promise.resolve();
    },
    release(token) {
      const found = held(token);
      if (found) forget(...found);
      return Promise.resolve();
    },
    close() {
      closed = true;
      entries.clear();
      bytes = 0;
      return Promise.resolve();
    },
  };
}
