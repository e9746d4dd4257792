import type { ClusterMessage } from '@org/protocol';

/**
 * Wire format of the bus: `{"n":"<nodeId>","m":<message>}`, serialised once
 * per publish. The frame inside a broadcast stays a string, so receivers hand
 * it to their sockets without re-encoding it.
 */
export function encodeMessage(nodeId: string, message: ClusterMessage): string {
  return `{"n":${JSON.stringify(nodeId)},"m":${JSON.stringify(message)}}`;
}

/** The prefix of this node's own messages, recognised without parsing them. */
export function ownMessagePrefix(nodeId: string): string {
  return `{"n":${JSON.stringify(nodeId)},`;
}

const isString = (value: unknown): value is string => typeof value === 'string';

/** Parses and checks a bus payload; undefined for anything that is not a cluster message. */
export function decodeMessage(payload: string): ClusterMessage | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(payload);
  } catch {
    return undefined;
  }
  const message = (parsed as { m?: unknown } | null)?.m as Record<string, unknown> | undefined;
  if (typeof message !== 'object' || message === null) return undefined;
  switch (message.type) {
    case 'broadcast': {
      const { appId, channel, frame, exceptSocketId } = message;
      if (!isString(appId) || !isString(channel) || !isString(frame)) return undefined;
      if (exceptSocketId !== undefined && !isString(exceptSocketId)) return undefined;
      return exceptSocketId === undefined
        ? { type: 'broadcast', appId, channel, frame }
        : { type: 'broadcast', appId, channel, frame, exceptSocketId };
    }
    case 'terminate-user':
      if (!isString(message.appId) || !isString(message.userId)) return undefined;
      return { type: 'terminate-user', appId: message.appId, userId: message.userId };
    case 'restart':
      return { type: 'restart' };
    default:
      return undefined;
  }
}
