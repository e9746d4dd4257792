/**
 * The scaler owns everything that must be true across the cluster: which
 * sockets exist, who is in which channel, presence members, cached events,
 * and the bus that carries messages to other nodes. The in-memory scaler is
 * the single-node default; `@org/redis-scaler` is the drop-in for many nodes.
 */

/** A presence member. `userInfo` is JSON text, kept as text so it is never re-serialised. */
export interface PresenceMember {
  userId: string;
  userInfo: string;
}

export type PresenceJoin =
  /** `firstForUser` is true when no other socket of this user was in the channel anywhere. */
  | { status: 'joined'; firstForUser: boolean; members: PresenceMember[] }
  | { status: 'full' };

export interface CachedEvent {
  /** The complete frame, replayed as is. */
  frame: string;
  /** Seconds left before it expires. */
  ttl: number;
}

/**
 * Messages between nodes. An event's frame is serialised once by the node that produced it; a presence
 * change travels as data, and each node's engine makes its frame (it checks the change against the
 * cluster's state before showing it, so it needs the user, not the text).
 */
export type ClusterMessage =
  | { type: 'broadcast'; appId: string; channel: string; frame: string; exceptSocketId?: string }
  /** A user's first socket joined a presence channel; `userInfo` is JSON text. */
  | { type: 'member-added'; appId: string; channel: string; userId: string; userInfo: string; exceptSocketId?: string }
  /** A user's last socket left a presence channel. */
  | { type: 'member-removed'; appId: string; channel: string; userId: string }
  /**
   * A channel's subscription count changed (already committed); no count: each receiving node reads the
   * exact count from the scaler and tells its own subscribers (`subscription-counts.ts`).
   */
  | { type: 'subscription-count-changed'; appId: string; channel: string }
  | { type: 'terminate-user'; appId: string; userId: string }
  /** A user's first signed-in socket anywhere signed in (watchlist events; node-wide: watchers may be on any node). */
  | { type: 'user-online'; appId: string; userId: string }
  /** A user's last signed-in socket anywhere closed or signed in as someone else. */
  | { type: 'user-offline'; appId: string; userId: string }
  | { type: 'restart' };

export type ClusterMessageHandler = (message: ClusterMessage) => void;

/**
 * What the failure of another node took away, reported once in the cluster
 * (by the node that removed the dead node's state), so that the engine there
 * can tell everyone: `member_removed` to the channel, `channel_vacated` events.
 */
export interface NodeLoss {
  /** Presence users that thereby left a channel on every node. */
  members: { appId: string; channel: string; userId: string }[];
  /** Channels that thereby have no subscriber left anywhere. */
  vacatedChannels: { appId: string; channel: string }[];
  /**
   * Channels that thereby lost subscribers but keep some (for their subscription counts). Optional: a
   * scaler without it leaves those counts as they were until the channel's next change.
   */
  reducedChannels?: { appId: string; channel: string }[];
  /** Users whose last signed-in socket anywhere was on the dead node (watchlist events); absent when none. */
  usersOffline?: { appId: string; userId: string }[];
}

export type NodeLossHandler = (loss: NodeLoss) => void;

/**
 * How much of the cluster's traffic a node asks for.
 * - `'all'` (the default, and the contract every scaler keeps): every message any node publishes.
 * - `'subscribed'`: a channel's messages (`broadcast`, `member-added`, `member-removed`,
 *   `subscription-count-changed`) only once this
 *   node holds a subscription or presence socket in that channel (from the moment `addSubscription` or
 *   `joinPresence` resolved until its last one is removed, plus a linger the scaler may choose), and every
 *   node-wide message (`terminate-user`, `restart`, and broadcasts to `#server-to-user-` channels, which
 *   no subscription records). A scaler that cannot route ignores it and delivers everything, which is
 *   correct, only not cheaper.
 */
export type ScalerRouting = 'all' | 'subscribed';

export interface ScalerStartOptions {
  routing?: ScalerRouting;
}

/** A channel a closing socket held, with the presence user it joined as. */
export interface HeldChannel {
  channel: string;
  presenceUserId: string | undefined;
}

/** What removing a closed socket changed across the cluster. */
export interface SocketRemoval {
  /** Channels this socket was the last subscriber of, anywhere. */
  vacated: string[];
  /** Presence users for whom this was the last socket in the channel, anywhere. */
  membersLeft: { channel: string; userId: string }[];
  /** True when the socket was signed in (`signedInAs`) and was that user's last signed-in socket anywhere. */
  userWentOffline?: boolean;
}

export interface Scaler {
  /** Unique per running node. */
  readonly nodeId: string;
  /**
   * Starts delivering other nodes' messages to `onMessage`. A multi-node
   * scaler reports the state it removed for a dead node to `onNodeLost`.
   */
  start(onMessage: ClusterMessageHandler, onNodeLost?: NodeLossHandler, options?: ScalerStartOptions): Promise<void>;
  /** Sends a message to every other node (never back to this one). */
  publish(message: ClusterMessage): void;
  /** Removes this node's state and stops. */
  close(): Promise<void>;

  /** Registers a connection; resolves to the app's connection count across the cluster, this one included. */
  addConnection(appId: string, socketId: string): Promise<number>;
  /**
   * Removes a closed socket with every channel it held, in one step (one
   * round trip for a remote scaler, however many channels): a socket with
   * 100,000 channels must not cost 100,000 round trips to clean up. With
   * `signedInAs`, its sign-in (see `signIn`) goes in the same step.
   */
  removeConnection(appId: string, socketId: string, held?: readonly HeldChannel[], signedInAs?: string): Promise<SocketRemoval>;
  connectionCount(appId: string): Promise<number>;

  /** Resolves to the channel's subscription count across the cluster after the change. */
  addSubscription(appId: string, channel: string, socketId: string): Promise<number>;
  removeSubscription(appId: string, channel: string, socketId: string): Promise<number>;
  subscriptionCount(appId: string, channel: string): Promise<number>;
  /** Occupied channels with their subscription counts. */
  channels(appId: string): Promise<Map<string, number>>;

  /** Adds a socket as a presence member unless the channel already has `maxMembers` other users. */
  joinPresence(appId: string, channel: string, socketId: string, member: PresenceMember, maxMembers: number): Promise<PresenceJoin>;
  /** Resolves to true when that was the user's last socket in the channel anywhere. */
  leavePresence(appId: string, channel: string, socketId: string, userId: string): Promise<boolean>;
  presenceMembers(appId: string, channel: string): Promise<PresenceMember[]>;
  /**
   * Whether a user is in a presence channel anywhere (a late member event from another node is checked
   * with it). Rejects when it cannot tell; the event is then delivered unchecked, as after 1 s without an
   * answer. Optional: without it the engine reads `presenceMembers`, which costs more on big channels.
   */
  isPresenceMember?(appId: string, channel: string, userId: string): Promise<boolean>;
  userCount(appId: string, channel: string): Promise<number>;

  storeCachedEvent(appId: string, channel: string, frame: string, ttlSeconds: number): Promise<void>;
  cachedEvent(appId: string, channel: string): Promise<CachedEvent | undefined>;

  /**
   * Records that a socket signed in as a user (watchlist events: a user is online while at least one
   * of its sockets is signed in anywhere). Resolves to true when it is the user's first signed-in
   * socket anywhere; recording the same socket twice counts it once.
   */
  signIn(appId: string, userId: string, socketId: string): Promise<boolean>;
  /** The socket is no longer signed in as the user; true when it was the user's last signed-in socket anywhere. */
  signOut(appId: string, userId: string, socketId: string): Promise<boolean>;
  /** Which of `userIds` have a signed-in socket anywhere, in no particular order. */
  onlineUsers(appId: string, userIds: readonly string[]): Promise<string[]>;
}
