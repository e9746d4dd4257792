import type { ClusterMessage, HeldChannel, NodeLoss, PresenceMember } from '@org/protocol';

/** Checks of values that crossed a port, shared by both sides: what arrives is `unknown` until one passes. */

export const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
export const isString = (value: unknown): value is string => typeof value === 'string';
export const isStrings = (value: unknown): value is string[] | undefined => value === undefined || (Array.isArray(value) && value.every(isString));
export const isRequestId = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;
export const isCount = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;

export const isMember = (value: unknown): value is PresenceMember => isRecord(value) && isString(value['userId']) && isString(value['userInfo']);
export const isMembers = (value: unknown): value is PresenceMember[] => Array.isArray(value) && value.every(isMember);

export function isHeld(value: unknown): value is HeldChannel[] | undefined {
  return (
    value === undefined ||
    (Array.isArray(value) && value.every((entry) => isRecord(entry) && isString(entry['channel']) && (entry['presenceUserId'] === undefined || isString(entry['presenceUserId']))))
  );
}

/** A cluster message as the engine expects it (types and fields), or false. */
export function isClusterMessage(value: unknown): value is ClusterMessage {
  if (!isRecord(value)) return false;
  const optional = (key: string) => value[key] === undefined || isString(value[key]);
  switch (value['type']) {
    case 'broadcast':
      return isString(value['appId']) && isString(value['channel']) && isString(value['frame']) && optional('exceptSocketId');
    case 'member-added':
      return isString(value['appId']) && isString(value['channel']) && isString(value['userId']) && isString(value['userInfo']) && optional('exceptSocketId');
    case 'member-removed':
      return isString(value['appId']) && isString(value['channel']) && isString(value['userId']);
    case 'subscription-count-changed':
      return isString(value['appId']) && isString(value['channel']);
    case 'terminate-user':
    case 'user-online':
    case 'user-offline':
      return isString(value['appId']) && isString(value['userId']);
    case 'restart':
      return true;
    default:
      return false;
  }
}

const isChannelRef = (value: unknown): boolean => isRecord(value) && isString(value['appId']) && isString(value['channel']);

export function isNodeLoss(value: unknown): value is NodeLoss {
  return (
    isRecord(value) &&
    Array.isArray(value['members']) &&
    value['members'].every((m) => isRecord(m) && isString(m['appId']) && isString(m['channel']) && isString(m['userId'])) &&
    Array.isArray(value['vacatedChannels']) &&
    value['vacatedChannels'].every(isChannelRef) &&
    (value['reducedChannels'] === undefined || (Array.isArray(value['reducedChannels']) && value['reducedChannels'].every(isChannelRef))) &&
    (value['usersOffline'] === undefined ||
      (Array.isArray(value['usersOffline']) && value['usersOffline'].every((u) => isRecord(u) && isString(u['appId']) && isString(u['userId']))))
  );
}
