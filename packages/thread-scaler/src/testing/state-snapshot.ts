import type { ClusterState } from '@org/protocol';

/** Everything a state holds, as plain data to compare. */
export function snapshot(state: ClusterState): unknown {
  return {
    connections: [...state.connectionEntries()].map(([appId, sockets]) => [appId, [...sockets].sort()]),
    subscriptions: [...state.subscriptionEntries()].map(([appId, channel, sockets]) => [appId, channel, [...sockets].sort()]),
    presence: [...state.presenceEntries()].map(([appId, channel, userId, user]) => [appId, channel, userId, user.userInfo, [...user.sockets].sort()]),
    cached: state.cachedEventCount,
  };
}
