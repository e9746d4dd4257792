import { randomUUID } from 'node:crypto';
import { decodeAnswer, encodeAnswer } from './answer-codec.js';
import { IdempotencyError } from './errors.js';
import { resolveRedisOptions, type RedisStoreOptions } from './options.js';
import type { Claim, ClaimToken, IdempotencyStore } from './store.js';

/**
 * A claim in flight is `pending:<claim id>`; a completed one is `done:<answer JSON>`, in the same key,
 * so every call touches one key and works on a Redis Cluster unchanged.
 */
const pendingPrefix = 'pending:';
const donePrefix = 'done:';

/** Sets the key when absent (for the window), else answers what it holds: `SET NX GET` for Redis before 7. */
const claimScript = `local held = redis.call('GET', KEYS[1]) if held then return held end redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) return false`;
/**
 * Replaces the value only while this claim holds the key, and extends its TTL from the claim's
 * `inFlightMs` to the window from the claim: what is left of the first plus ARGV[3] (window minus
 * `inFlightMs`), so no clock but Redis's counts.
 */
const completeScript = `if redis.call('GET', KEYS[1]) == ARGV[1] then local ttl = redis.call('PTTL', KEYS[1]) if ttl > 0 then return redis.call('SET', KEYS[1], ARGV[2], 'PX', ttl + tonumber(ARGV[3])) end end return 0`;
/** Deletes the key only while this claim holds it: a late release never frees a successor's claim. */
const releaseScript = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

/**
 * Keys in Redis (6 or later) or a Redis Cluster. A script does `SET <keyPrefix>:<app>:<key>
 * pending:<id> NX PX <inFlightMs>` or answers the value held, so exactly one claim of a key is first
 * across every process sharing the Redis; the answer replaces the value for the rest of the window from the claim.
 * Every call touches one key, so a Cluster needs nothing more. Each call waits at most `timeoutMs`,
 * then rejects with `UNAVAILABLE` (a caller then serves the request without idempotency, at least
 * once); a claim that timed out is released after its script, on the same connection, so a late
 * claim does not hold the key for the window. While the client is not connected a call waits for
 * it (within `timeoutMs`) instead of sending: a client that retries forever would otherwise keep
 * every call of an outage in its offline queue, one per keyed trigger, until Redis is back.
 *
 * @example
 * const store = createRedisStore({ client: new Redis(url), windowMs: 120_000 });
 */
export function createRedisStore(options: RedisStoreOptions): IdempotencyStore {
  const { client, windowMs, inFlightMs, keyPrefix, timeoutMs } = resolveRedisOptions(options);
  let closed = false;
  // App ids and keys are URI-encoded: no `:` of theirs can make two keys one.
  const redisKey = (appId: string, key: string) => `${keyPrefix}:${encodeURIComponent(appId)}:${encodeURIComponent(key)}`;

  const bounded = <T>(work: Promise<T>, what: string): Promise<T> => {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new IdempotencyError('UNAVAILABLE', `Redis did not answer the idempotency ${what} within ${timeoutMs} ms`)), timeoutMs);
    });
    const answered = work.catch((error: unknown) => {
      throw error instanceof IdempotencyError ? error : new IdempotencyError('UNAVAILABLE', `Redis refused the idempotency ${what}`, { cause: error });
    });
    return Promise.race([answered, timeout]).finally(() => clearTimeout(timer));
  };
  /** One 'ready' listener, however many calls wait for the client to connect. */
  let connected: Promise<void> | undefined;
  const whenConnected = () =>
    (connected ??= new Promise<void>((resolve) =>
      client.once('ready', () => {
        connected = undefined;
        resolve();
      }),
    ));
  /**
   * `command()` now when the client is ready (or lazy and not yet asked to connect: the command
   * connects it), else once it is, unless `timeoutMs` passed first: nothing sits in the client's
   * offline queue for a call already answered `UNAVAILABLE`.
   */
  const send = <T>(command: () => Promise<T>, what: string): { sent: Promise<T>; answered: Promise<T> } => {
    if (client.status === 'ready' || client.status === 'wait') {
      const sent = command();
      return { sent, answered: bounded(sent, what) };
    }
    let gaveUp = false;
    const sent = whenConnected().then(() => {
      if (gaveUp) throw new IdempotencyError('UNAVAILABLE', `Redis was not connected within ${timeoutMs} ms`);
      return command();
    });
    const answered = bounded(sent, what);
    answered.catch(() => (gaveUp = true));
    return { sent, answered };
  };
  const release = (token: ClaimToken) =>
    client.eval(releaseScript, 1, redisKey(token.appId, token.key), pendingPrefix + token.id).then(() => undefined);

  return {
    async claim(appId, key) {
      if (closed) throw new IdempotencyError('CLOSED', 'the idempotency store is closed');
      const name = redisKey(appId, key);
      const id = randomUUID();
      const token: ClaimToken = { appId, key, id };
      const { sent: setting, answered } = send(() => client.eval(claimScript, 1, name, pendingPrefix + id, inFlightMs) as Promise<string | null>, 'claim');
      let held: string | null;
      try {
        held = await answered;
      } catch (error) {
        // Queued after the SET on the same connection: if the SET lands late, this frees the key again.
        setting.then(() => release(token), () => {}).catch(() => {});
        throw error;
      }
      if (held === null) return { status: 'first', token };
      if (held.startsWith(pendingPrefix)) return { status: 'in-flight' };
      if (held.startsWith(donePrefix)) return { status: 'done', answer: decodeAnswer(held.slice(donePrefix.length)) } satisfies Claim;
      // Not ours (another program under the prefix): neither replayed nor taken for a running request.
      throw new IdempotencyError('UNAVAILABLE', 'the idempotency key holds a value this store did not write');
    },
    async complete(token, answer) {
      await send(() => client.eval(completeScript, 1, redisKey(token.appId, token.key), pendingPrefix + token.id, donePrefix + encodeAnswer(answer), windowMs - inFlightMs), 'completion').answered;
    },
    async release(token) {
      await send(() => release(token), 'release').answered;
    },
    close() {
      closed = true;
      return Promise.resolve();
    },
  };
}
