import { serverToUserPrefix } from '../channel-name.js';
import type { ClusterMessage, HeldChannel, NodeLoss, PresenceMember, ScalerRouting } from '../scaler.js';

/**
 * What a worker's scaler and the hub say to each other over a `MessagePort` (structured clone, so
 * plain objects, strings and Maps). Every message is checked on arrival: a port is an edge, and a
 * bug (or a foreign message) on it must be refused with an answer, never thrown or half applied.
 */

/** The scaler calls the hub answers from its `ClusterState`, with their argument checks. */
export const hubMethods = {
  addConnection: ['string', 'string'],
  removeConnection: ['string', 'string', 'held'],
  connectionCount: ['string'],
  addSubscription: ['string', 'string', 'string'],
  removeSubscription: ['string', 'string', 'string'],
  subscriptionCount: ['string', 'string'],
  channels: ['string'],
  joinPresence: ['string', 'string', 'string', 'member', 'limit'],
  leavePresence: ['string', 'string', 'string', 'string'],
  presenceMembers: ['string', 'string'],
  isPresenceMember: ['string', 'string', 'string'],
  userCount: ['string', 'string'],
  storeCachedEvent: ['string', 'string', 'string', 'ttl'],
  cachedEvent: ['string', 'string'],
} as const satisfies Record<string, readonly ArgumentKind[]>;

export type HubMethod = keyof typeof hubMethods;
type ArgumentKind = 'string' | 'held' | 'member' | 'limit' | 'ttl';

/**
 * Worker → hub. `start` and `close` are answered like calls; `publish` is one-way and carries the
 * messages of one synchronous turn at once (a message between threads costs a wake-up on each side,
 * tens of µs: pipelined requests share it).
 */
export type HubRequest =
  | { k: 'call'; id: number; m: HubMethod; a: unknown[] }
  | { k: 'start'; id: number; routing: ScalerRouting }
  | { k: 'close'; id: number }
  | { k: 'publish'; messages: ClusterMessage[] }
  /** The worker applied the `interest` change with this id. */
  | { k: 'ack'; id: number };

/** Hub → worker. */
export type HubReply =
  | { k: 'reply'; id: number; ok: true; v: unknown }
  | { k: 'reply'; id: number; ok: false; code: ScalerHubErrorCode; message: string }
  /** The messages of one `publish` this node should see, in order. */
  | { k: 'messages'; messages: ClusterMessage[] }
  | { k: 'lost'; loss: NodeLoss }
  /**
   * Which channels some OTHER node listens to (keys `interestKey(appId, channel)`), so that a worker
   * does not even send what nobody else wants (a trigger without remote subscribers costs no
   * message between threads). `all`: another node takes everything (routing 'all'). `reset`
   * replaces the view. With an `id`, the hub waits for the `ack` before it answers the call that
   * made a channel interesting: from then on the worker publishes that channel's messages.
   */
  | { k: 'interest'; id?: number; reset?: boolean; all?: boolean; on?: string[]; off?: string[] };

/** A channel's key in `interest` messages. */
/** Messages every node must see whatever it listens to: a user's termination, a restart, a user's own channel. */
export const isNodeWide = (message: ClusterMessage): boolean =>
  message.type === 'terminate-user' || message.type === 'restart' || (message.type === 'broadcast' && message.channel.startsWith(serverToUserPrefix));

export const interestKey = (appId: string, channel: string): string => `${appId}\u0000${channel}`;

export type ScalerHubErrorCode =
  /** The hub refused a request it could not read (a bug on the worker's side). */
  | 'INVALID_REQUEST'
  /** The hub answered something the scaler could not read. */
  | 'INVALID_REPLY'
  /** The hub failed answering a readable request (a bug in the hub). */
  | 'HUB_FAILED'
  /** The port closed (the hub stopped, or this scaler was closed) before an answer came. */
  | 'HUB_GONE';

/** A failed call to the hub, with a stable code. */
export class ScalerHubError extends Error {
  override readonly name = 'ScalerHubError';
  constructor(
    readonly code: ScalerHubErrorCode,
    message: string,
  ) {
    super(message);
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isString = (value: unknown): value is string => typeof value === 'string';
export const isRequestId = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;

function isHeld(value: unknown): value is HeldChannel[] | undefined {
  return (
    value === undefined ||
    (Array.isArray(value) && value.every((entry) => isRecord(entry) && isString(entry['channel']) && (entry['presenceUserId'] === undefined || isString(entry['presenceUserId']))))
  );
}

const isMember = (value: unknown): value is PresenceMember => isRecord(value) && isString(value['userId']) && isString(value['userInfo']);

const argumentChecks: Record<ArgumentKind, (value: unknown) => boolean> = {
  string: isString,
  held: isHeld,
  member: isMember,
  // A member limit may be Infinity (no limit), never NaN or negative.
  limit: (value) => typeof value === 'number' && value >= 0,
  ttl: (value) => typeof value === 'number' && Number.isFinite(value) && value > 0,
};

/** A worker's request, or why it is refused (with the id to answer, when it has a readable one). */
export function readRequest(data: unknown): { ok: true; request: HubRequest } | { ok: false; id: number | undefined; problem: string } {
  if (!isRecord(data)) return { ok: false, id: undefined, problem: 'not an object' };
  const id = isRequestId(data['id']) ? data['id'] : undefined;
  const refuse = (problem: string) => ({ ok: false as const, id, problem });
  switch (data['k']) {
    case 'publish':
      // All or nothing: a batch with one unreadable message is a bug on the sender's side, refused whole.
      return Array.isArray(data['messages']) && data['messages'].every(isClusterMessage)
        ? { ok: true, request: { k: 'publish', messages: data['messages'] } }
        : refuse('publish: not a list of cluster messages');
    case 'start': {
      const routing = data['routing'];
      if (id === undefined) return refuse('start: no id');
      return routing === 'all' || routing === 'subscribed' ? { ok: true, request: { k: 'start', id, routing } } : refuse('start: routing must be all or subscribed');
    }
    case 'close':
      return id === undefined ? refuse('close: no id') : { ok: true, request: { k: 'close', id } };
    case 'ack':
      return id === undefined ? refuse('ack: no id') : { ok: true, request: { k: 'ack', id } };
    case 'call': {
      if (id === undefined) return refuse('call: no id');
      const method = data['m'];
      const args = data['a'];
      if (!isString(method) || !Object.hasOwn(hubMethods, method)) return refuse('call: unknown method');
      const kinds: readonly ArgumentKind[] = hubMethods[method as HubMethod];
      if (!Array.isArray(args) || args.length > kinds.length) return refuse(`call ${method}: wrong arguments`);
      for (let index = 0; index < kinds.length; index++) if (!argumentChecks[kinds[index]!](args[index])) return refuse(`call ${method}: argument ${index + 1} is invalid`);
      return { ok: true, request: { k: 'call', id, m: method as HubMethod, a: args } };
    }
    default:
      return refuse('unknown kind');
  }
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
    case 'terminate-user':
      return isString(value['appId']) && isString(value['userId']);
    case 'restart':
      return true;
    default:
      return false;
  }
}

export function isNodeLoss(value: unknown): value is NodeLoss {
  return (
    isRecord(value) &&
    Array.isArray(value['members']) &&
    value['members'].every((m) => isRecord(m) && isString(m['appId']) && isString(m['channel']) && isString(m['userId'])) &&
    Array.isArray(value['vacatedChannels']) &&
    value['vacatedChannels'].every((c) => isRecord(c) && isString(c['appId']) && isString(c['channel']))
  );
}

const isCount = (value: unknown) => Number.isSafeInteger(value) && (value as number) >= 0;
const isMembers = (value: unknown) => Array.isArray(value) && value.every(isMember);

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
    value['membersLeft'].every((m) => isRecord(m) && isString(m['channel']) && isString(m['userId'])),
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
};

const isStrings = (value: unknown) => value === undefined || (Array.isArray(value) && value.every(isString));

/** An `interest` message the worker can apply, or false. */
export function isInterest(value: Record<string, unknown>): value is Extract<HubReply, { k: 'interest' }> {
  return (
    (value['id'] === undefined || isRequestId(value['id'])) &&
    (value['reset'] === undefined || typeof value['reset'] === 'boolean') &&
    (value['all'] === undefined || typeof value['all'] === 'boolean') &&
    isStrings(value['on']) &&
    isStrings(value['off'])
  );
}
