import type { HubMethod, InterestChange } from './wire.js';
import { isCount, isMembers, isRecord, isRequestId, isString, isStrings } from './value-checks.js';

/** What each call's answer must look like; an answer that does not is refused (INVALID_REPLY), not handed on. */
export const replyChecks: Record<HubMethod | 'start' | 'close', (value: unknown) => boolean> = {
  start: (value) => value === undefined,
  close: (value) => value === undefined,
  addConnection: isCount,
  removeConnection: (value) =>
    isRecord(value) &&
    Array.isArray(value['vacated']) &&
    value['vacated'].every(isString) &&
    Array.isArray(value['membersLeft']) &&
    value['membersLeft'].every((m) => isRecord(m) && isString(m['channel']) && isString(m['userId'])) &&
    (value['userWentOffline'] === undefined || typeof value['userWentOffline'] === 'boolean'),
  connectionCount: isCount,
  addSubscription: isCount,
  removeSubscription: isCount,
  subscriptionCount: isCount,
  channels: (value) => value instanceof Map && [...value].every(([channel, count]) => isString(channel) && isCount(count)),
  joinPresence: (value) =>
    isRecord(value) &&
    (value['status'] === 'full' || (value['status'] === 'joined' && typeof value['firstForUser'] === 'boolean' && isMembers(value['members']))),
  leavePresence: (value) => typeof value === 'boolean',
  presenceMembers: isMembers,
  isPresenceMember: (value) => typeof value === 'boolean',
  userCount: isCount,
  storeCachedEvent: (value) => value === undefined,
  cachedEvent: (value) => value === undefined || (isRecord(value) && isString(value['frame']) && typeof value['ttl'] === 'number'),
  signIn: (value) => typeof value === 'boolean',
  signOut: (value) => typeof value === 'boolean',
  onlineUsers: (value) => Array.isArray(value) && value.every(isString),
};

/** An `interest` message the worker can apply, or false. */
export function isInterest(value: Record<string, unknown>): value is InterestChange {
  return (
    (value['id'] === undefined || isRequestId(value['id'])) &&
    (value['reset'] === undefined || typeof value['reset'] === 'boolean') &&
    (value['all'] === undefined || typeof value['all'] === 'boolean') &&
    isStrings(value['on']) &&
    isStrings(value['off'])
  );
}
