import type { ClusterState, HeldChannel } from '@org/protocol';
import type { HubCore } from './hub-core.js';
import type { HubNode } from './hub-node.js';
import type { HubRequest } from './wire.js';

type CallRequest = Extract<HubRequest, { k: 'call' }>;

/**
 * Runs a worker's state call on the one cluster state, keeping the node's share (and so the
 * interest table) in step with what the state accepted. A change that makes a channel interesting
 * to another node adds the promise of that node's ack to `acks`: the answer waits for them.
 */
export function applyCall({ state, interest }: HubCore, node: HubNode, request: CallRequest, acks: Promise<void>[]): unknown {
  const value = callState(state, node.share, request);
  const a = request.a as [string, string, string, never, never];
  switch (request.m) {
    case 'addSubscription':
    case 'removeSubscription':
    case 'joinPresence':
    case 'leavePresence':
      interest.refresh(node, a[0], a[1], acks);
      break;
    case 'removeConnection':
      for (const { channel } of (request.a[2] as HeldChannel[] | undefined) ?? []) interest.refresh(node, a[0], channel, acks);
  }
  return value;
}

/** The call itself: on the shared state, and on the node's share for what changes which socket is where. */
function callState(state: ClusterState, share: ClusterState, request: CallRequest): unknown {
  // Checked by readRequest against hubMethods (argument kinds per method).
  const a = request.a as [never, never, never, never, never];
  switch (request.m) {
    case 'addConnection':
      share.addConnection(a[0], a[1]);
      return state.addConnection(a[0], a[1]);
    case 'removeConnection':
      share.removeConnection(a[0], a[1], a[2], a[3]);
      return state.removeConnection(a[0], a[1], a[2], a[3]);
    case 'connectionCount':
      return state.connectionCount(a[0]);
    case 'addSubscription':
      share.addSubscription(a[0], a[1], a[2]);
      return state.addSubscription(a[0], a[1], a[2]);
    case 'removeSubscription':
      share.removeSubscription(a[0], a[1], a[2]);
      return state.removeSubscription(a[0], a[1], a[2]);
    case 'subscriptionCount':
      return state.subscriptionCount(a[0], a[1]);
    case 'channels':
      return state.channels(a[0]);
    case 'joinPresence': {
      const joined = state.joinPresence(a[0], a[1], a[2], a[3], a[4]);
      if (joined.status === 'joined') share.addPresenceSocket(a[0], a[1], a[2], a[3]);
      return joined;
    }
    case 'leavePresence':
      share.leavePresence(a[0], a[1], a[2], a[3]);
      return state.leavePresence(a[0], a[1], a[2], a[3]);
    case 'presenceMembers':
      return state.presenceMembers(a[0], a[1]);
    case 'isPresenceMember':
      return state.isPresenceMember(a[0], a[1], a[2]);
    case 'userCount':
      return state.userCount(a[0], a[1]);
    case 'storeCachedEvent':
      return state.storeCachedEvent(a[0], a[1], a[2], a[3]);
    case 'cachedEvent':
      return state.cachedEvent(a[0], a[1]);
    case 'signIn':
      share.signIn(a[0], a[1], a[2]);
      return state.signIn(a[0], a[1], a[2]);
    case 'signOut':
      share.signOut(a[0], a[1], a[2]);
      return state.signOut(a[0], a[1], a[2]);
    case 'onlineUsers':
      return state.onlineUsers(a[0], a[1]);
  }
}
