import type { CachedEvent, HeldChannel, PresenceJoin, PresenceMember, SocketRemoval } from '@org/protocol';

interface LocalUser {
  userInfo: string;
  sockets: Set<string>;
}

/** Cache channels whose last event is also kept locally for outages; Redis keeps them all. */
export const maxLocalCachedEvents = 10_000;

function inner<V>(outer: Map<string, Map<string, V>>, key: string): Map<string, V> {
  let map = outer.get(key);
  if (!map) outer.set(key, (map = new Map()));
  return map;
}

/**
 * This node's own sockets, subscriptions and presence memberships. It is the
 * source of truth for resynchronising Redis after an outage, and the answer
 * ("what is known") while Redis is unreachable.
 */
export class LocalState {
  readonly connections = new Map<string, Set<string>>();
  readonly subscriptions = new Map<string, Map<string, Set<string>>>();
  readonly presence = new Map<string, Map<string, Map<string, LocalUser>>>();
  readonly #cache = new Map<string, { frame: string; expiresAt: number }>();

  addConnection(appId: string, socketId: string): number {
    let sockets = this.connections.get(appId);
    if (!sockets) this.connections.set(appId, (sockets = new Set()));
    sockets.add(socketId);
    return sockets.size;
  }

  removeConnection(appId: string, socketId: string): void {
    const sockets = this.connections.get(appId);
    sockets?.delete(socketId);
    if (sockets?.size === 0) this.connections.delete(appId);
  }

  connectionCount(appId: string): number {
    return this.connections.get(appId)?.size ?? 0;
  }

  addSubscription(appId: string, channel: string, socketId: string): number {
    const channels = inner(this.subscriptions, appId);
    let sockets = channels.get(channel);
    if (!sockets) channels.set(channel, (sockets = new Set()));
    sockets.add(socketId);
    return sockets.size;
  }

  removeSubscription(appId: string, channel: string, socketId: string): number {
    const channels = this.subscriptions.get(appId);
    const sockets = channels?.get(channel);
    if (!channels || !sockets) return 0;
    sockets.delete(socketId);
    if (sockets.size === 0) channels.delete(channel);
    if (channels.size === 0) this.subscriptions.delete(appId);
    return sockets.size;
  }

  /**
   * Removes a closed socket's channels (the connection itself is
   * `removeConnection`). The answer counts only this node: a channel is
   * vacated when this socket was its last local subscriber.
   */
  removeHeld(appId: string, socketId: string, held: readonly HeldChannel[]): SocketRemoval {
    const removal: SocketRemoval = { vacated: [], membersLeft: [] };
    const channels = this.subscriptions.get(appId);
    for (const { channel, presenceUserId } of held) {
      const sockets = channels?.get(channel);
      if (sockets?.delete(socketId) && sockets.size === 0) {
        channels!.delete(channel);
        removal.vacated.push(channel);
      }
      if (presenceUserId !== undefined && this.leavePresence(appId, channel, socketId, presenceUserId)) {
        removal.membersLeft.push({ channel, userId: presenceUserId });
      }
    }
    if (channels?.size === 0) this.subscriptions.delete(appId);
    return removal;
  }

  subscriptionCount(appId: string, channel: string): number {
    return this.subscriptions.get(appId)?.get(channel)?.size ?? 0;
  }

  channels(appId: string): Map<string, number> {
    const result = new Map<string, number>();
    for (const [channel, sockets] of this.subscriptions.get(appId) ?? []) result.set(channel, sockets.size);
    return result;
  }

  /** Records a join without a limit (Redis decided); true when it is the user's first local socket. */
  joinPresence(appId: string, channel: string, socketId: string, member: PresenceMember): boolean {
    const users = inner(inner(this.presence, appId), channel);
    const user = users.get(member.userId);
    if (user) {
      user.sockets.add(socketId);
      user.userInfo = member.userInfo;
      return false;
    }
    users.set(member.userId, { userInfo: member.userInfo, sockets: new Set([socketId]) });
    return true;
  }

  /** The answer while Redis is unreachable: only this node's members are known. */
  joinPresenceLimited(appId: string, channel: string, socketId: string, member: PresenceMember, maxMembers: number): PresenceJoin {
    const users = this.presence.get(appId)?.get(channel);
    if (!users?.has(member.userId) && (users?.size ?? 0) >= maxMembers) return { status: 'full' };
    const firstForUser = this.joinPresence(appId, channel, socketId, member);
    return { status: 'joined', firstForUser, members: this.presenceMembers(appId, channel) };
  }

  /** True when that was the user's last local socket in the channel. */
  leavePresence(appId: string, channel: string, socketId: string, userId: string): boolean {
    const channels = this.presence.get(appId);
    const users = channels?.get(channel);
    const user = users?.get(userId);
    if (!channels || !users || !user || !user.sockets.delete(socketId)) return false;
    if (user.sockets.size > 0) return false;
    users.delete(userId);
    if (users.size === 0) channels.delete(channel);
    if (channels.size === 0) this.presence.delete(appId);
    return true;
  }

  hasPresenceUser(appId: string, channel: string, userId: string): boolean {
    return this.presence.get(appId)?.get(channel)?.has(userId) ?? false;
  }

  presenceMembers(appId: string, channel: string): PresenceMember[] {
    const members: PresenceMember[] = [];
    for (const [userId, user] of this.presence.get(appId)?.get(channel) ?? []) members.push({ userId, userInfo: user.userInfo });
    return members;
  }

  userCount(appId: string, channel: string): number {
    return this.presence.get(appId)?.get(channel)?.size ?? 0;
  }

  /** Cached events are shared state; the local copy only answers during an outage. */
  storeCachedEvent(appId: string, channel: string, frame: string, ttlSeconds: number, now: number): void {
    const key = `${appId}\u0000${channel}`;
    if (this.#cache.size >= maxLocalCachedEvents && !this.#cache.has(key)) {
      this.pruneCache(now);
      if (this.#cache.size >= maxLocalCachedEvents) return;
    }
    this.#cache.set(key, { frame, expiresAt: now + ttlSeconds * 1000 });
  }

  cachedEvent(appId: string, channel: string, now: number): CachedEvent | undefined {
    const key = `${appId}\u0000${channel}`;
    const entry = this.#cache.get(key);
    if (!entry) return undefined;
    const ttl = Math.ceil((entry.expiresAt - now) / 1000);
    if (ttl > 0) return { frame: entry.frame, ttl };
    this.#cache.delete(key);
    return undefined;
  }

  /** Drops expired cached events so the copy never outgrows the live cache channels. */
  pruneCache(now: number): void {
    for (const [key, entry] of this.#cache) if (entry.expiresAt <= now) this.#cache.delete(key);
  }

  get cacheSize(): number {
    return this.#cache.size;
  }

  clear(): void {
    this.connections.clear();
    this.subscriptions.clear();
    this.presence.clear();
    this.#cache.clear();
  }
}
