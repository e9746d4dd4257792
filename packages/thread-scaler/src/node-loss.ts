import type { ClusterState, HeldChannel, NodeLoss } from '@org/protocol';
import type { HubCore } from './hub-core.js';
import { post, type HubNode } from './hub-node.js';
import type { InterestTable } from './interest-table.js';

interface SocketHeld {
  appId: string;
  socketId: string;
  connected: boolean;
  held: Map<string, HeldChannel>;
}

/** Each socket of a node's share, with whether it was connected and the channels it held. */
function socketsOf(share: ClusterState): Iterable<SocketHeld> {
  const sockets = new Map<string, SocketHeld>();
  const entry = (appId: string, socketId: string) => {
    const key = `${appId}\u0000${socketId}`;
    let found = sockets.get(key);
    if (!found) sockets.set(key, (found = { appId, socketId, connected: false, held: new Map() }));
    return found;
  };
  for (const [appId, ids] of share.connectionEntries()) for (const socketId of ids) entry(appId, socketId).connected = true;
  for (const [appId, channel, ids] of share.subscriptionEntries()) {
    for (const socketId of ids) entry(appId, socketId).held.set(channel, { channel, presenceUserId: undefined });
  }
  for (const [appId, channel, userId, user] of share.presenceEntries()) {
    for (const socketId of user.sockets) entry(appId, socketId).held.set(channel, { channel, presenceUserId: userId });
  }
  return sockets.values();
}

/** Takes a node's sockets out of the cluster state (and its channels out of the interest table); what that changed, as a node loss. */
function undo(state: ClusterState, interest: InterestTable, node: HubNode): NodeLoss {
  const reducedChannels: NonNullable<NodeLoss['reducedChannels']> = [];
  const loss: NodeLoss = { members: [], vacatedChannels: [], reducedChannels };
  for (const { appId, socketId, connected, held } of socketsOf(node.share)) {
    const channels = [...held.values()];
    const removal = connected ? state.removeConnection(appId, socketId, channels) : state.removeHeld(appId, socketId, channels);
    for (const channel of removal.vacated) loss.vacatedChannels.push({ appId, channel });
    for (const { channel, userId } of removal.membersLeft) loss.members.push({ appId, channel, userId });
  }
  const offline: NonNullable<NodeLoss['usersOffline']> = [];
  for (const [appId, userId, sockets] of node.share.signedInEntries()) {
    let last = false;
    for (const socketId of sockets) last = state.signOut(appId, userId, socketId) || last;
    if (last) offline.push({ appId, userId });
  }
  if (offline.length > 0) loss.usersOffline = offline;
  const channels = [...node.share.subscriptionEntries()].map(([appId, channel]) => [appId, channel] as const);
  // Still subscribed elsewhere: their subscription counts changed (the engine that hears of the loss tells them).
  for (const [appId, channel] of channels) if (state.subscriptionCount(appId, channel) > 0) reducedChannels.push({ appId, channel });
  for (const [appId, channel] of node.share.presenceEntries()) channels.push([appId, channel]);
  node.share.clear();
  for (const [appId, channel] of channels) interest.refresh(node, appId, channel, []);
  return loss;
}

/**
 * Takes a node out of the hub: its sockets leave the state, nobody waits for its acks, and the
 * others stop sending it everything. A `lost` node (its port closed, or `detach`) has its loss
 * reported once in the cluster, by one surviving node's engine (which tells the channels); a node
 * that closed is a drain, and goes quietly.
 */
export function removeNode(hub: HubCore, node: HubNode, lost: boolean): void {
  const { nodes, stats, interest } = hub;
  if (nodes.get(node.id) !== node) return;
  const loss = undo(hub.state, interest, node);
  nodes.delete(node.id);
  stats.nodes = nodes.size;
  interest.release(node);
  // A node that took everything is gone: the others may stop sending what nobody else wants.
  if (node.routing === 'all') for (const other of nodes.values()) if (!interest.othersTakeAll(other)) post(other, { k: 'interest', all: false });
  if (!lost) return;
  stats.lost++;
  const { members, vacatedChannels, reducedChannels, usersOffline } = loss;
  if (!members.length && !vacatedChannels.length && !reducedChannels?.length && !usersOffline) return;
  const survivor = [...nodes.values()].find((candidate) => candidate.routing !== undefined);
  if (survivor) post(survivor, { k: 'lost', loss });
}
