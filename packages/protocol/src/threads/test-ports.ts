import type { HubPort } from './scaler-hub.js';
import type { ScalerPort } from './port-scaler.js';
import type { ClusterState } from '../cluster-state.js';

/** One end of a port that a test drives by hand: `deliver` plays the other side, `posted` is what this side sent. */
export function handPort<Port extends HubPort | ScalerPort>(): { port: Port; deliver(data: unknown): void; posted: unknown[]; closeFromOtherSide(): void } {
  const listeners: { message: ((data: unknown) => void)[]; close: (() => void)[] } = { message: [], close: [] };
  const posted: unknown[] = [];
  const port = {
    on(event: 'message' | 'close', listener: never) {
      listeners[event].push(listener);
      return port;
    },
    postMessage(message: unknown) {
      // What a real port would hand over: a structured clone.
      posted.push(structuredClone(message));
    },
    close() {},
  };
  return {
    port: port as unknown as Port,
    deliver: (data) => listeners.message.forEach((listener) => listener(data)),
    posted,
    closeFromOtherSide: () => listeners.close.forEach((listener) => listener()),
  };
}

/** Everything a state holds, as plain data to compare. */
export function snapshot(state: ClusterState): unknown {
  return {
    connections: [...state.connectionEntries()].map(([appId, sockets]) => [appId, [...sockets].sort()]),
    subscriptions: [...state.subscriptionEntries()].map(([appId, channel, sockets]) => [appId, channel, [...sockets].sort()]),
    presence: [...state.presenceEntries()].map(([appId, channel, userId, user]) => [appId, channel, userId, user.userInfo, [...user.sockets].sort()]),
    cached: state.cachedEventCount,
  };
}
