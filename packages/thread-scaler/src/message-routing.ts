import type { ClusterMessage } from '@org/protocol';
import type { HubCore } from './hub-core.js';
import { post, type HubNode } from './hub-node.js';
import { isNodeWide } from './wire.js';

/** Whether a routed node must see this message: node-wide ones always, a channel's only with a socket there. */
function wants(node: HubNode, message: ClusterMessage): boolean {
  if (node.routing !== 'subscribed') return true;
  if (isNodeWide(message) || !('channel' in message)) return true;
  return node.share.subscriptionCount(message.appId, message.channel) > 0 || node.share.userCount(message.appId, message.channel) > 0;
}

/** One batch of a node's messages: each other started node gets the ones it wants, in one port message. */
export function forwardBatch({ nodes, stats }: HubCore, from: HubNode, messages: readonly ClusterMessage[]): void {
  for (const node of nodes.values()) {
    if (node === from || node.routing === undefined) continue;
    const wanted = messages.filter((message) => wants(node, message));
    stats.skipped += messages.length - wanted.length;
    if (wanted.length === 0) continue;
    stats.forwarded += wanted.length;
    post(node, { k: 'messages', messages: wanted });
  }
}
