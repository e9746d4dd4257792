import { ClusterState } from './cluster-state.js';
import type { Scaler } from './scaler.js';

/**
 * The single-node scaler: the cluster's state in memory (`ClusterState`), no bus. This is the
 * default; the same conformance suite runs against it and against the Redis scaler. Its methods
 * are plain functions on the object (no `this`), so a copy made with spread still works.
 */
export function createLocalScaler(options: { now?: () => number } = {}): Scaler {
  const state = new ClusterState(options);
  return {
    nodeId: 'local',
    async start() {},
    publish() {},
    async close() {
      state.clear();
    },

    addConnection: async (appId, socketId) => state.addConnection(appId, socketId),
    removeConnection: async (appId, socketId, held, signedInAs) => state.removeConnection(appId, socketId, held, signedInAs),
    connectionCount: async (appId) => state.connectionCount(appId),

    addSubscription: async (appId, channel, socketId) => state.addSubscription(appId, channel, socketId),
    removeSubscription: async (appId, channel, socketId) => state.removeSubscription(appId, channel, socketId),
    subscriptionCount: async (appId, channel) => state.subscriptionCount(appId, channel),
    channels: async (appId) => state.channels(appId),

    joinPresence: async (appId, channel, socketId, member, maxMembers) => state.joinPresence(appId, channel, socketId, member, maxMembers),
    leavePresence: async (appId, channel, socketId, userId) => state.leavePresence(appId, channel, socketId, userId),
    presenceMembers: async (appId, channel) => state.presenceMembers(appId, channel),
    isPresenceMember: async (appId, channel, userId) => state.isPresenceMember(appId, channel, userId),
    userCount: async (appId, channel) => state.userCount(appId, channel),

    storeCachedEvent: async (appId, channel, frame, ttlSeconds) => state.storeCachedEvent(appId, channel, frame, ttlSeconds),
    cachedEvent: async (appId, channel) => state.cachedEvent(appId, channel),

    signIn: async (appId, userId, socketId) => state.signIn(appId, userId, socketId),
    signOut: async (appId, userId, socketId) => state.signOut(appId, userId, socketId),
    onlineUsers: async (appId, userIds) => state.onlineUsers(appId, userIds),
  };
}
