// A store of `X-Idempotency-Key`s for the API's tests: @org/rest-api depends on no store package,
// so its tests hold keys in a Map, with every call logged and failures on demand.
import type { IdempotencyClaim, IdempotencyOption, IdempotentAnswer } from '../../src/idempotency.js';

interface Token {
  appId: string;
  key: string;
  id: number;
}

export interface TestStore extends IdempotencyOption<Token> {
  /** Every call, in order: `claim app key`, `complete app key`, `release app key`. */
  readonly calls: string[];
  /** When set, every call rejects (as a store that is away). */
  failing: boolean;
  /** Keys held (in flight or done). */
  readonly size: number;
  /** Forgets every key and call. */
  reset(): void;
}

export function testStore(): TestStore {
  const entries = new Map<string, { id: number; answer: IdempotentAnswer | undefined }>();
  const calls: string[] = [];
  let nextId = 0;
  const name = (appId: string, key: string) => JSON.stringify([appId, key]);
  const store: TestStore = {
    calls,
    failing: false,
    get size() {
      return entries.size;
    },
    reset() {
      entries.clear();
      calls.length = 0;
    },
    claim(appId, key) {
      calls.push(`claim ${appId} ${key}`);
      if (store.failing) return Promise.reject(new Error('store away'));
      const entry = entries.get(name(appId, key));
      let claim: IdempotencyClaim<Token>;
      if (entry) claim = entry.answer ? { status: 'done', answer: entry.answer } : { status: 'in-flight' };
      else {
        const id = nextId++;
        entries.set(name(appId, key), { id, answer: undefined });
        claim = { status: 'first', token: { appId, key, id } };
      }
      return Promise.resolve(claim);
    },
    complete(token, answer) {
      calls.push(`complete ${token.appId} ${token.key}`);
      if (store.failing) return Promise.reject(new Error('store away'));
      const entry = entries.get(name(token.appId, token.key));
      if (entry?.id === token.id) entry.answer = answer;
      return Promise.resolve();
    },
    release(token) {
      calls.push(`release ${token.appId} ${token.key}`);
      if (store.failing) return Promise.reject(new Error('store away'));
      if (entries.get(name(token.appId, token.key))?.id === token.id) entries.delete(name(token.appId, token.key));
      return Promise.resolve();
    },
  };
  return store;
}
