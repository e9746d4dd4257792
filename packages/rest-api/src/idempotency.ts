import { createHash } from 'node:crypto';
import { PusherApiError } from './errors.js';

/** What a first request was answered with, replayed to its retries. */
export interface IdempotentAnswer {
  status: number;
  body: string;
  /**
   * Which request it answered (`requestDigest`): a later request with the key and another digest is
   * refused (422), not answered with this. A store keeps it as given; answers stored without one
   * are replayed to any request with the key.
   */
  request?: string;
}

/**
 * A claim of an idempotency key: `first` (run, then `complete` or `release` with the token),
 * `in-flight` (the first is still running) or `done` (replay `answer`).
 */
export type IdempotencyClaim<Token> = { status: 'first'; token: Token } | { status: 'in-flight' } | { status: 'done'; answer: IdempotentAnswer };

/**
 * Where the API remembers `X-Idempotency-Key`s, per app, for a window: what it needs of a store, so
 * any store fits (`@org/idempotency`'s have this shape). A rejected call never fails a request: a
 * failing claim serves it without idempotency (published at least once, never lost).
 */
export interface IdempotencyOption<Token = unknown> {
  claim(appId: string, key: string): Promise<IdempotencyClaim<Token>>;
  complete(token: Token, answer: IdempotentAnswer): Promise<void>;
  release(token: Token): Promise<void>;
}

export const idempotencyKeyHeader = 'x-idempotency-key';
/** The longest key accepted. */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;
/**
 * Visible ASCII, with inner spaces: a space at either end would be trimmed by some proxies and
 * fetch implementations but not others, and then one key would be two.
 */
const validKey = /^[\x21-\x7e](?:[\x20-\x7e]{0,253}[\x21-\x7e])?$/;

/**
 * The request's `X-Idempotency-Key`, undefined without one; a malformed one is a 400. A repeated
 * header arrives joined with `, ` (as HTTP and fetch join them) and is one key.
 */
export function idempotencyKey(headers: Readonly<Record<string, string | undefined>>): string | undefined {
  const key = headers[idempotencyKeyHeader];
  if (key === undefined) return undefined;
  if (!validKey.test(key)) {
    throw new PusherApiError(
      'MALFORMED_REQUEST',
      `X-Idempotency-Key must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} printable ASCII characters, without a space at either end`,
    );
  }
  return key;
}

/**
 * What tells one request from another under one key: its endpoint and its body, as 22 characters
 * (128 bits of SHA-256). The query is left out: a retry is signed anew (`auth_timestamp`).
 */
export function requestDigest(endpointPath: string, body: Uint8Array): string {
  return createHash('sha256').update(endpointPath).update('\n').update(body).digest('base64url').slice(0, 22);
}

/** An answer, and whether it is a replay of an earlier request's. */
export interface IdempotentOutcome extends IdempotentAnswer {
  replayed: boolean;
}

const ignore = () => {};

/**
 * Runs `run` (the request, resolving to its 200's body) once per key: a retry of a done request
 * gets its answer again, a retry while it runs is a 409, another request with the key (another
 * `request` digest) a 422. Only a 200 is remembered: a request that fails (throws) releases its
 * key, so the retry runs. A store that fails to claim is skipped.
 */
export async function answerIdempotently<Token>(
  store: IdempotencyOption<Token>,
  appId: string,
  key: string,
  request: string,
  run: () => Promise<string>,
): Promise<IdempotentOutcome> {
  let claim: IdempotencyClaim<Token>;
  try {
    claim = await store.claim(appId, key);
  } catch {
    // The store is away: served as without a key (at least once), never refused.
    return { status: 200, body: await run(), replayed: false };
  }
  if (claim.status === 'done') {
    const { answer } = claim;
    if (answer.request !== undefined && answer.request !== request) {
      // A replay would answer 200 for a trigger that is never published: a key reused by mistake must be loud.
      throw new PusherApiError(
        'IDEMPOTENCY_KEY_REUSED',
        'this X-Idempotency-Key was used for another request (another body or endpoint) within the window; send a new trigger with a new key',
      );
    }
    return { status: answer.status, body: answer.body, replayed: true };
  }
  if (claim.status === 'in-flight') {
    throw new PusherApiError('IDEMPOTENCY_KEY_IN_USE', 'a request with this X-Idempotency-Key is in progress; retry once it has been answered');
  }
  let body: string;
  try {
    body = await run();
  } catch (error) {
    await store.release(claim.token).catch(ignore);
    throw error;
  }
  // Awaited, so a retry sent after this answer finds it done; a store failing here leaves the key in flight until the window ends.
  await store.complete(claim.token, { status: 200, body, request }).catch(ignore);
  return { status: 200, body, replayed: false };
}
