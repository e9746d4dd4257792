import { serverToUserPrefix, type ClusterMessage, type NodeLoss, type ScalerRouting } from '@org/protocol';
import type { ScalerHubErrorCode } from './errors.js';

/**
 * What a worker's scaler and the hub say to each other over a `MessagePort` (structured clone, so
 * plain objects, strings and Maps). Every message is checked on arrival (`read-request.ts` on the
 * hub's side, `reply-checks.ts` on the worker's): a port is an edge, and a bug (or a foreign
 * message) on it must be refused with an answer, never thrown or half applied.
 */

/** The kinds of argument a hub method takes, each with its check in `read-request.ts`. */
export type ArgumentKind = 'string' | 'optional-string' | 'strings' | 'held' | 'member' | 'limit' | 'ttl';

/** The scaler calls the hub answers from its `ClusterState`, with their argument kinds. */
export const hubMethods = {
  addConnection: ['string', 'string'],
  removeConnection: ['string', 'string', 'held', 'optional-string'],
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
  signIn: ['string', 'string', 'string'],
  signOut: ['string', 'string', 'string'],
  onlineUsers: ['string', 'strings'],
} as const satisfies Record<string, readonly ArgumentKind[]>;

export type HubMethod = keyof typeof hubMethods;

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

/** An `interest` change as the hub sends it. */
export type InterestChange = Extract<HubReply, { k: 'interest' }>;

/**
 * Messages every node must see whatever it listens to: a user's termination, a user's watchlist events
 * (watchers may be on any node), a restart, a user's own channel.
 */
export const isNodeWide = (message: ClusterMessage): boolean =>
  message.type === 'terminate-user' ||
  message.type === 'user-online' ||
  message.type === 'user-offline' ||
  message.type === 'restart' ||
  (message.type === 'broadcast' && message.channel.startsWith(serverToUserPrefix));

/** A channel's key in `interest` messages. */
export const interestKey = (appId: string, channel: string): string => `${appId}\u0000${channel}`;
