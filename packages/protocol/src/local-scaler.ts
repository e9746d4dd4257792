import type { CachedEvent, ClusterMessage, PresenceJoin, PresenceMember, Scaler, SocketRemoval } from './scaler.js';

interface PresenceUser {
  userInfo: string;
  sockets: Set<string>;
}

/** Nested map helper: the inner map for `key`, created on first use. */
function inner<K, V>(outer: Map<string, Map<K, V>>, key: string): Map<K, V> {
  let map = outer.get(key);
  if (!map) outer.set(key, (map = new Map()));
  return map;
}

/**
 * The single-node scaler: all state in memory, no bus. This is the default;
 * the same conformance suite runs against it and against the Redis scaler.
 */
export function createLocalScaler(options: { now?: () => number } = {}): Scaler {
  const now = options.now ?? Date.now;
  const connections = new Map<string, Set<string>>();
  const subscriptions = new Map<string, Map<string, Set<string>>>();
  const presence = new Map<string, Map<string, Map<string, PresenceUser>>>();
  const cache = new Map<string, { frame: string; expiresAt: number }>();

  const channelSockets = (appId: string, channel: string) => subscriptions.get(appId)?.get(channel);

  function removeSubscription(appId: string, channel: string, socketId: string): number {
    const sockets = channelSockets(appId, channel);
    if (!sockets) return 0;
    sockets.delete(socketId);
    if (sockets.size === 0) subscriptions.get(appId)?.delete(channel);
    return sockets.size;
  }

  function leavePresence(appId: string, channel: string, socketId: string, userId: string): boolean {
    const users = presence.get(appId)?.get(channel);
    const user = users?.get(userId);
    if (!users || !user || !user.sockets.delete(socketId)) return false;
    if (user.sockets.size > 0) return false;
    users.delete(userId);
    if (users.size === 0) presence.get(appId)?.delete(channel);
    return true;
  }

  return {
    nodeId: 'local',
    async start() {},
    publish(_message: ClusterMessage) {},
    async close() {
      connections.clear();
      subscriptions.clear();
      presence.clear();
      cache.clear();
    },

    async addConnection(appId, socketId) {
      let set = connections.get(appId);
      if (!set) connections.set(appId, (set = new Set()));
      set.add(socketId);
      return set.size;
    },
    async removeConnection(appId, socketId, held = []) {
      connections.get(appId)?.delete(socketId);
      const removal: SocketRemoval = { vacated: [], membersLeft: [] };
      for (const { channel, presenceUserId } of held) {
        const sockets = channelSockets(appId, channel);
        if (sockets?.has(socketId) && removeSubscription(appId, channel, socketId) === 0) removal.vacated.push(channel);
        if (presenceUserId !== undefined && leavePresence(appId, channel, socketId, presenceUserId)) {
          removal.membersLeft.push({ channel, userId: presenceUserId });
        }
      }
      return removal;
    },
    async connectionCount(appId) {
      return connections.get(appId)?.size ?? 0;
    },

    async addSubscription(appId, channel, socketId) {
      const channels = inner(subscriptions, appId);
      let sockets = channels.get(channel);
      if (!sockets) channels.set(channel, (sockets = new Set()));
      sockets.add(socketId);
      return sockets.size;
    },
    async removeSubscription(appId, channel, socketId) {
      return removeSubscription(appId, channel, socketId);
    },
    async subscriptionCount(appId, channel) {
      return channelSockets(appId, channel)?.size ?? 0;
    },
    async channels(appId) {
      const result = new Map<string, number>();
      for (const [channel, sockets] of subscriptions.get(appId) ?? []) result.set(channel, sockets.size);
      return result;
    },

    async joinPresence(appId, channel, socketId, member, maxMembers): Promise<PresenceJoin> {
      const users = inner(inner(presence, appId), channel);
      const existing = users.get(member.userId);
      if (existing) {
        existing.sockets.add(socketId);
        existing.userInfo = member.userInfo;
      } else {
        if (users.size >= maxMembers) return { status: 'full' };
        users.set(member.userId, { userInfo: member.userInfo, sockets: new Set([socketId]) });
      }
      return { status: 'joined', firstForUser: !existing, members: toMembers(users) };
    },
    async leavePresence(appId, channel, socketId, userId) {
      return leavePresence(appId, channel, socketId, userId);
    },
    async presenceMembers(appId, channel) {
      const users = presence.get(appId)?.get(channel);
      return users ? toMembers(users) : [];
    },
    async isPresenceMember(appId, channel, userId) {
      return presence.get(appId)?.get(channel)?.has(userId) ?? false;
    },
    async userCount(appId, channel) {
      return presence.get(appId)?.get(channel)?.size ?? 0;
    },

    async storeCachedEvent(appId, channel, frame, ttlSeconds) {
      cache.set(`${appId}\u0000${channel}`, { frame, expiresAt: now() + ttlSeconds * 1000 });
    },
    async cachedEvent(appId, channel): Promise<CachedEvent | undefined> {
      const key = `${appId}\u0000${channel}`;
      const entry = cache.get(key);
      if (!entry) return undefined;
      const ttl = Math.ceil((entry.expiresAt - now()) / 1000);
      if (ttl <= 0) {
        cache.delete(key);
        return undefined;
      }
      return { frame: entry.frame, ttl };
    },
  };
}

function toMembers(users: Map<string, PresenceUser>): PresenceMember[] {
  const members: PresenceMember[] = [];
  for (const [userId, user] of users) members.push({ userId, userInfo: user.userInfo });
  return members;
}
