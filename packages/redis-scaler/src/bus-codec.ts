import type { ClusterMessage } from '@org/protocol';

/**
 * Wire format of the bus and of the channel topics:
 * `{"n":"<nodeId>","e":"<epoch>","s":<seq>,"p":<prev>,"a":1,"m":<message>}`. The
 * message is serialised once per publish; a broadcast's frame stays a string
 * inside it, so receivers hand it to their sockets without re-encoding it.
 * - `s` numbers a node's PUBLISHes in the order it sends them (from 1, across all topics).
 * - `p` is the `s` of the sender's previous PUBLISH on the same topic (0: none known), so a
 *   receiver that hears only some topics (routing) still tells a resend (`s` not above the last
 *   it had on that topic: dropped) from a gap (`p` is not the last it had: at least one missed).
 *   Envelopes without `p` (an older node) are checked by `s` alone, as before.
 * - `a` (only ever 1) marks the copy of a channel message that also goes to the node-wide bus for
 *   nodes that hear only the bus (routing `'all'`, or an older release); routed nodes drop it,
 *   having it from the channel's topic.
 * - `e` is random per start of a node, so a node restarted under the same configured `nodeId`
 *   numbers anew without being taken for its earlier self.
 * External publishers (`publishClusterMessage`) send neither.
 */
export function encodeMessage(nodeId: string, message: ClusterMessage): string {
  return `{"n":${JSON.stringify(nodeId)},"m":${JSON.stringify(message)}}`;
}

/**
 * A node's payload from its own prefix, a sequence number, the message body (`JSON.stringify(message)`),
 * the sequence number of its previous PUBLISH on the same topic (0: none; left out, the envelope is an
 * older node's) and whether it is the bus copy of a channel message (`a`).
 */
export function sequencedPayload(ownPrefix: string, seq: number, body: string, prev?: number, allCopy = false): string {
  return `${ownPrefix}"s":${seq},${prev === undefined ? '' : `"p":${prev},`}${allCopy ? '"a":1,' : ''}"m":${body}}`;
}

/** The prefix of what this run of a node sends: its own prefix plus its epoch. */
export function senderPrefix(nodeId: string, epoch: string): string {
  return `${ownMessagePrefix(nodeId)}"e":${JSON.stringify(epoch)},`;
}

/** The prefix of this node's own messages, recognised without parsing them. */
export function ownMessagePrefix(nodeId: string): string {
  return `{"n":${JSON.stringify(nodeId)},`;
}

/** A decoded bus payload: the message, and who sent it with which number when it says so. */
export interface Envelope {
  message: ClusterMessage;
  node: string | undefined;
  /** The sender's run: node id and epoch, when it sent an epoch; the node id alone otherwise. */
  sender: string | undefined;
  seq: number | undefined;
  /** The sender's previous sequence number on this topic (0: none known); undefined from older nodes. */
  prev: number | undefined;
  /** The bus copy of a channel message, for nodes that hear only the bus. */
  allCopy: boolean;
}

const isString = (value: unknown): value is string => typeof value === 'string';
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Parses and checks a bus payload; undefined for anything that is not a well-formed envelope. Never throws. */
export function decodeEnvelope(payload: string): Envelope | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(payload);
  } catch {
    // Malformed JSON, and also input so deeply nested that the parser runs out of stack.
    return undefined;
  }
  if (!isObject(parsed)) return undefined;
  const { n: node, e: epoch, s: seq, p: prev, a: all } = parsed;
  if (node !== undefined && !isString(node)) return undefined;
  if (epoch !== undefined && !isString(epoch)) return undefined;
  if (seq !== undefined && !(Number.isSafeInteger(seq) && (seq as number) > 0)) return undefined;
  // A previous number needs a number to precede, and must be below it.
  if (prev !== undefined && !(seq !== undefined && Number.isSafeInteger(prev) && (prev as number) >= 0 && (prev as number) < (seq as number))) return undefined;
  if (all !== undefined && all !== 1) return undefined;
  const message = toMessage(parsed['m']);
  const sender = node === undefined ? undefined : epoch === undefined ? node : `${node}\u0000${epoch}`;
  return message && { message, node, sender, seq: seq as number | undefined, prev: prev as number | undefined, allCopy: all === 1 };
}

/** Parses and checks a bus payload; undefined for anything that is not a cluster message. Never throws. */
export function decodeMessage(payload: string): ClusterMessage | undefined {
  return decodeEnvelope(payload)?.message;
}

/** A fresh, well-formed message with exactly the known fields, or undefined. */
function toMessage(message: unknown): ClusterMessage | undefined {
  if (!isObject(message)) return undefined;
  switch (message['type']) {
    case 'broadcast': {
      const { appId, channel, frame, exceptSocketId } = message;
      if (!isString(appId) || !isString(channel) || !isString(frame)) return undefined;
      if (exceptSocketId !== undefined && !isString(exceptSocketId)) return undefined;
      return exceptSocketId === undefined
        ? { type: 'broadcast', appId, channel, frame }
        : { type: 'broadcast', appId, channel, frame, exceptSocketId };
    }
    case 'member-added': {
      const { appId, channel, userId, userInfo, exceptSocketId } = message;
      if (!isString(appId) || !isString(channel) || !isString(userId) || !isString(userInfo)) return undefined;
      if (exceptSocketId !== undefined && !isString(exceptSocketId)) return undefined;
      return exceptSocketId === undefined
        ? { type: 'member-added', appId, channel, userId, userInfo }
        : { type: 'member-added', appId, channel, userId, userInfo, exceptSocketId };
    }
    case 'member-removed': {
      const { appId, channel, userId } = message;
      if (!isString(appId) || !isString(channel) || !isString(userId)) return undefined;
      return { type: 'member-removed', appId, channel, userId };
    }
    case 'subscription-count-changed': {
      const { appId, channel } = message;
      if (!isString(appId) || !isString(channel)) return undefined;
      return { type: 'subscription-count-changed', appId, channel };
    }
    case 'terminate-user': {
      const { appId, userId } = message;
      if (!isString(appId) || !isString(userId)) return undefined;
      return { type: 'terminate-user', appId, userId };
    }
    case 'user-online':
    case 'user-offline': {
      const { type, appId, userId } = message;
      if (!isString(appId) || !isString(userId)) return undefined;
      return { type, appId, userId };
    }
    case 'restart':
      return { type: 'restart' };
    default:
      return undefined;
  }
}
