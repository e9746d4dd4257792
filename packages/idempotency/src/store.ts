/** What a first request was answered with, replayed to its retries. */
export interface IdempotentAnswer {
  status: number;
  /** The whole body, as sent. */
  body: string;
  /** What tells the request it answered from another with the same key (the caller's digest); kept as given. */
  request?: string;
}

/**
 * Proof that a claim was the first: plain data (it crosses worker threads), handed back to
 * `complete` or `release`. `id` tells this claim from a later one of the same key, so a claim that
 * outlived its window cannot complete or free its successor's.
 */
export interface ClaimToken {
  readonly appId: string;
  readonly key: string;
  readonly id: string;
}

/**
 * A claim's outcome: `first` (run the request, then `complete` or `release`), `in-flight` (the
 * first is still running), or `done` (replay `answer`).
 */
export type Claim = { status: 'first'; token: ClaimToken } | { status: 'in-flight' } | { status: 'done'; answer: IdempotentAnswer };

/**
 * Where idempotency keys are remembered, one window from their first claim. A key is per app.
 * Every store (memory, worker threads, Redis) passes `runIdempotencyStoreConformance` from
 * `@org/idempotency/testing`.
 */
export interface IdempotencyStore {
  /** Exactly one of concurrent claims of a key is `first`, wherever they come from. Rejects when the store is unreachable. */
  claim(appId: string, key: string): Promise<Claim>;
  /** Remembers the first request's answer for the rest of the window; later claims get `done`. */
  complete(token: ClaimToken, answer: IdempotentAnswer): Promise<void>;
  /** Forgets a claim whose request failed, so a retry is `first` again. */
  release(token: ClaimToken): Promise<void>;
  /** Stops the store (timers, ports); a closed store rejects claims. The caller's Redis client stays open. */
  close(): Promise<void>;
}
