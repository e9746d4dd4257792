import type { ConnectionRecord } from './connection.js';

/**
 * Runs subscribe/unsubscribe operations of one (connection, channel) pair one
 * after another, in the order the client sent them.
 *
 * Each operation awaits the scaler (Redis round trips), so two of them on the
 * same channel would otherwise interleave: pusher-js's leave-and-rejoin
 * (`unsubscribe` then `subscribe`) let the leave's removal land after the
 * re-join was recorded, and other members saw `member_removed` for a user
 * still present. In order, the last operation sent decides the outcome.
 *
 * Operations on different channels still run concurrently; an operation with
 * nothing ahead of it starts synchronously, as before. The map exists only
 * while something is in flight: an idle connection keeps none.
 */
export function inChannelOrder(connection: ConnectionRecord, channel: string, operation: () => Promise<void>): Promise<void> {
  const queue = (connection.channelOps ??= new Map());
  const ahead = queue.get(channel);
  const current: Promise<void> = (ahead ? ahead.then(operation, operation) : operation()).finally(() => {
    if (queue.get(channel) === current) queue.delete(channel);
    if (queue.size === 0 && connection.channelOps === queue) connection.channelOps = undefined;
  });
  queue.set(channel, current);
  return current;
}

/** Resolves once every operation in flight on this connection has settled. */
export async function channelOpsSettled(connection: ConnectionRecord): Promise<void> {
  while (connection.channelOps !== undefined && connection.channelOps.size > 0) {
    await Promise.allSettled([...connection.channelOps.values()]);
  }
}
