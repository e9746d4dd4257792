import type { Health } from './health.js';
import type { ScriptClient } from './scripts.js';

/**
 * The one rule every Scaler call of a node follows when Redis is unreachable.
 *
 * 1. Wait until a command can be sent (only at start-up, for the first connection, bounded).
 * 2. `change`, when the call changes state: this node's own record of it, made whether Redis is up
 *    or not and before Redis is asked, because local state is both the answer during an outage and
 *    what the resync writes back into Redis (a resync that starts meanwhile must see it).
 * 3. `redisCall`: the cluster-wide answer.
 * 4. When Redis was down, or the call failed or timed out: the node is marked down (so it
 *    resynchronises once Redis is back, and cluster messages wait in the outbox meanwhile) and the
 *    answer is `localAnswer`, from this node's own state. A question computes it only then.
 *
 * Rejects only when the node is closed, or when `localAnswer` throws (a question local state
 * cannot answer).
 */
export type WithFallback = <T, C = undefined>(
  redisCall: (redis: ScriptClient, changed: C) => Promise<T>,
  localAnswer: (changed: C) => T,
  change?: () => C,
) => Promise<T>;

/** Binds the rule to a node's health and command connection. */
export function fallbackFor(health: Health, redis: ScriptClient): WithFallback {
  return async (redisCall, localAnswer, change) => {
    const connected = await health.ready();
    const changed = change?.() as Parameters<typeof localAnswer>[0];
    if (connected) {
      try {
        return await redisCall(redis, changed);
      } catch (error) {
        health.markDown(error);
      }
    }
    return localAnswer(changed);
  };
}
