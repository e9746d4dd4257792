import type { IdempotencyStore } from '@org/idempotency';
import type { IdempotencyObserver } from '@org/metrics';

/**
 * The store as the API sees it, reporting to `/metrics` on the way: replays, 409s and failed calls.
 * A failed call still rejects: the API then publishes without idempotency (claim) or lets it be.
 */
export function countedStore(store: IdempotencyStore, observer: IdempotencyObserver): IdempotencyStore {
  return {
    claim: (appId, key) =>
      store.claim(appId, key).then(
        (claim) => {
          if (claim.status === 'done') observer.replayed(appId);
          else if (claim.status === 'in-flight') observer.inFlight(appId);
          return claim;
        },
        (error: unknown) => {
          observer.storeFailed('claim');
          throw error;
        },
      ),
    complete: (token, answer) =>
      store.complete(token, answer).catch((error: unknown) => {
        observer.storeFailed('complete');
        throw error;
      }),
    release: (token) =>
      store.release(token).catch((error: unknown) => {
        observer.storeFailed('release');
        throw error;
      }),
    close: () => store.close(),
  };
}
