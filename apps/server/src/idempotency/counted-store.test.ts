import { createMemoryStore, IdempotencyError, type IdempotencyStore } from '@org/idempotency';
import { describe, expect, it } from 'vitest';
import { countedStore } from './counted-store.js';

function observer() {
  const seen: string[] = [];
  return { seen, replayed: (appId: string) => seen.push(`replayed ${appId}`), inFlight: (appId: string) => seen.push(`in-flight ${appId}`), storeFailed: (operation: string) => seen.push(`failed ${operation}`) };
}

describe('the counted store', () => {
  it('reports replays and 409s, and passes every answer through unchanged', async () => {
    const counts = observer();
    const store = countedStore(createMemoryStore(), counts);
    const first = await store.claim('app', 'k');
    expect(await store.claim('app', 'k')).toEqual({ status: 'in-flight' });
    if (first.status === 'first') await store.complete(first.token, { status: 200, body: '{}' });
    expect(await store.claim('app', 'k')).toEqual({ status: 'done', answer: { status: 200, body: '{}' } });
    expect(counts.seen).toEqual(['in-flight app', 'replayed app']);
  });

  it('counts each failed call and still rejects, so the API publishes without idempotency', async () => {
    const counts = observer();
    const failure = () => Promise.reject(new IdempotencyError('UNAVAILABLE', 'away'));
    const away: IdempotencyStore = { claim: failure, complete: failure, release: failure, close: () => Promise.resolve() };
    const store = countedStore(away, counts);
    const token = { appId: 'app', key: 'k', id: '1' };
    await expect(store.claim('app', 'k')).rejects.toMatchObject({ code: 'UNAVAILABLE' });
    await expect(store.complete(token, { status: 200, body: '{}' })).rejects.toMatchObject({ code: 'UNAVAILABLE' });
    await expect(store.release(token)).rejects.toMatchObject({ code: 'UNAVAILABLE' });
    expect(counts.seen).toEqual(['failed claim', 'failed complete', 'failed release']);
  });
});
