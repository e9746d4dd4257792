import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { ClusterState, type ClusterStateOptions } from '../cluster-state.js';
import type { ClusterMessage, HeldChannel, NodeLoss, Scaler, ScalerRouting } from '../scaler.js';
import { createPortScaler } from './port-scaler.js';
import { interestKey, isNodeWide, readRequest, type HubReply, type HubRequest } from './wire.js';

/** The side of a `MessagePort` the hub uses (a real port; a fake in tests). */
export interface HubPort {
  on(event: 'message', listener: (data: unknown) => void): unknown;
  on(event: 'close', listener: () => void): unknown;
  postMessage(message: HubReply): void;
  close(): void;
}

export interface ScalerHubStats {
  /** Nodes attached now. */
  nodes: number;
  /** Cluster messages handed to another node (one per receiving node). */
  forwarded: number;
  /** Cluster messages not sent to a routed node that had nothing in the channel. */
  skipped: number;
  /** Requests refused as unreadable. */
  invalid: number;
  /** Nodes whose port closed without `close()`, their state undone. */
  lost: number;
}

export interface ScalerHub {
  /** Serves one node's requests arriving on `port` (the other end goes to its `createPortScaler`). */
  attach(port: HubPort, nodeId: string): void;
  /** Treats a node as gone now (its thread exited): undoes its state, reports it to a surviving node. */
  detach(nodeId: string): void;
  /** A node in this thread: a `MessageChannel` with the scaler on one end (tests, and a worker count of 1 if wanted). */
  node(nodeId?: string): Scaler;
  readonly stats: ScalerHubStats;
  /** The state every node sees, read-only by contract (tests and diagnostics). */
  readonly state: ClusterState;
  /** Closes every port; the state is cleared. */
  close(): void;
}

/** How long a call waits for other nodes to apply an interest change (they answer within a loop turn when alive). */
const ackTimeoutMs = 1_000;

interface HubNode {
  readonly id: string;
  readonly port: HubPort;
  /** This node's share of the state (its own sockets), for routing and for undoing it when the node is lost. */
  readonly share: ClusterState;
  routing: ScalerRouting | undefined;
  /** It missed an interest ack: calls stop waiting for it (each would take `ackTimeoutMs`) until it acks again. */
  unanswering: boolean;
}

/**
 * The coordinator of worker threads in one process: ONE `ClusterState` answering every worker's
 * scaler calls (so counts, presence and caches are exact across workers, with no Redis), and the
 * bus between them. It runs in the main thread; each worker runs `createPortScaler` on its port.
 *
 * Which node holds which socket is kept per node (`share`), from the calls the hub itself answers:
 * it routes a channel's messages to the nodes holding a subscription or presence socket there
 * (for nodes that started with `routing: 'subscribed'`), and it is what the hub undoes when a
 * node's port closes without `close()` (its thread died).
 */
export function createScalerHub(options: ClusterStateOptions = {}): ScalerHub {
  const state = new ClusterState(options);
  const nodes = new Map<string, HubNode>();
  const stats: ScalerHubStats = { nodes: 0, forwarded: 0, skipped: 0, invalid: 0, lost: 0 };
  let anonymous = 0;
  /** Per channel key, the nodes with a subscription or presence socket in it (from their shares). */
  const interested = new Map<string, Set<HubNode>>();
  /** `interest` changes sent and not yet applied by their node: the call that caused them waits. */
  const pendingAcks = new Map<number, { node: HubNode; done(): void }>();
  let nextAck = 0;

  const reply = (node: HubNode, message: HubReply) => {
    try {
      node.port.postMessage(message);
    } catch {
      // A port closing under us: its close event undoes the node.
    }
  };

  /** Whether a routed node must see this message: node-wide ones always, a channel's only with a socket there. */
  function wants(node: HubNode, message: ClusterMessage): boolean {
    if (node.routing !== 'subscribed') return true;
    if (isNodeWide(message) || !('channel' in message)) return true;
    return node.share.subscriptionCount(message.appId, message.channel) > 0 || node.share.userCount(message.appId, message.channel) > 0;
  }

  /** One batch of a node's messages: each other node gets the ones it wants, in one port message. */
  function publish(from: HubNode, messages: readonly ClusterMessage[]): void {
    for (const node of nodes.values()) {
      if (node === from || node.routing === undefined) continue;
      const wanted = messages.filter((message) => wants(node, message));
      stats.skipped += messages.length - wanted.length;
      if (wanted.length === 0) continue;
      stats.forwarded += wanted.length;
      reply(node, { k: 'messages', messages: wanted });
    }
  }

  /** Sends `node` an interest change; resolves once it applied it (or is gone). */
  function tell(node: HubNode, change: Omit<Extract<HubReply, { k: 'interest' }>, 'k' | 'id'>): Promise<void> {
    const id = nextAck++;
    if (node.unanswering) {
      // Still told (its ack marks it alive again), but nobody waits for a node that did not answer last time.
      reply(node, { k: 'interest', id, ...change });
      return Promise.resolve();
    }
    return new Promise((done) => {
      pendingAcks.set(id, { node, done });
      reply(node, { k: 'interest', id, ...change });
      // A node too stuck to answer must not hold every other node's subscriptions: past the bound the call is answered.
      setTimeout(() => {
        if (!pendingAcks.delete(id)) return;
        node.unanswering = true;
        done();
      }, ackTimeoutMs).unref();
    });
  }

  /** Whether any node but `node` listens to `key` (or takes everything). */
  const othersWant = (node: HubNode, key: string) => {
    for (const other of interested.get(key) ?? []) if (other !== node) return true;
    return false;
  };
  const othersTakeAll = (node: HubNode) => [...nodes.values()].some((other) => other !== node && other.routing === 'all');

  /**
   * Keeps `interested` in step with `node`'s share for one channel. A channel becoming interesting
   * is told to every other node that did not know it yet, and the returned promise waits for their
   * acks (so that once the call that subscribed resolves, they publish that channel's messages);
   * one losing its last listener is told without waiting (sending too much is harmless: the hub
   * routes again).
   */
  function refresh(node: HubNode, appId: string, channel: string, acks: Promise<void>[]): void {
    const key = interestKey(appId, channel);
    const listens = node.share.subscriptionCount(appId, channel) > 0 || node.share.userCount(appId, channel) > 0;
    const set = interested.get(key);
    if (listens === (set?.has(node) ?? false)) return;
    const before = new Map([...nodes.values()].map((other) => [other, othersWant(other, key)]));
    if (listens) {
      if (set) set.add(node);
      else interested.set(key, new Set([node]));
    } else {
      set!.delete(node);
      if (set!.size === 0) interested.delete(key);
    }
    for (const [other, knew] of before) {
      const knows = othersWant(other, key);
      if (knows === knew) continue;
      if (knows) acks.push(tell(other, { on: [key] }));
      else reply(other, { k: 'interest', off: [key] });
    }
  }

  /** Runs a state call for `node`, keeping its share (and the interest table) in step with what the state accepted. */
  function call(node: HubNode, request: Extract<HubRequest, { k: 'call' }>, acks: Promise<void>[]): unknown {
    const value = callState(node, request);
    const a = request.a as [string, string, string, never, never];
    switch (request.m) {
      case 'addSubscription':
      case 'removeSubscription':
      case 'joinPresence':
      case 'leavePresence':
        refresh(node, a[0], a[1], acks);
        break;
      case 'removeConnection':
        for (const { channel } of (request.a[2] as HeldChannel[] | undefined) ?? []) refresh(node, a[0], channel, acks);
    }
    return value;
  }

  function callState(node: HubNode, request: Extract<HubRequest, { k: 'call' }>): unknown {
    // Checked by readRequest against hubMethods (argument kinds per method).
    const a = request.a as [never, never, never, never, never];
    const { share } = node;
    switch (request.m) {
      case 'addConnection':
        share.addConnection(a[0], a[1]);
        return state.addConnection(a[0], a[1]);
      case 'removeConnection':
        share.removeConnection(a[0], a[1], a[2]);
        return state.removeConnection(a[0], a[1], a[2]);
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
    }
  }

  /** Takes a node's sockets out of the cluster state; what that changed, as a node loss. */
  function undo(node: HubNode): NodeLoss {
    const sockets = new Map<string, { appId: string; socketId: string; connected: boolean; held: Map<string, HeldChannel> }>();
    const entry = (appId: string, socketId: string) => {
      const key = `${appId}\u0000${socketId}`;
      let found = sockets.get(key);
      if (!found) sockets.set(key, (found = { appId, socketId, connected: false, held: new Map() }));
      return found;
    };
    for (const [appId, ids] of node.share.connectionEntries()) for (const socketId of ids) entry(appId, socketId).connected = true;
    for (const [appId, channel, ids] of node.share.subscriptionEntries()) {
      for (const socketId of ids) entry(appId, socketId).held.set(channel, { channel, presenceUserId: undefined });
    }
    for (const [appId, channel, userId, user] of node.share.presenceEntries()) {
      for (const socketId of user.sockets) entry(appId, socketId).held.set(channel, { channel, presenceUserId: userId });
    }
    const loss: NodeLoss = { members: [], vacatedChannels: [] };
    for (const { appId, socketId, connected, held } of sockets.values()) {
      const channels = [...held.values()];
      const removal = connected ? state.removeConnection(appId, socketId, channels) : state.removeHeld(appId, socketId, channels);
      for (const channel of removal.vacated) loss.vacatedChannels.push({ appId, channel });
      for (const { channel, userId } of removal.membersLeft) loss.members.push({ appId, channel, userId });
    }
    const channels = [...node.share.subscriptionEntries()].map(([appId, channel]) => [appId, channel] as const);
    for (const [appId, channel] of node.share.presenceEntries()) channels.push([appId, channel]);
    node.share.clear();
    for (const [appId, channel] of channels) refresh(node, appId, channel, []);
    return loss;
  }

  function remove(node: HubNode, lost: boolean): void {
    if (nodes.get(node.id) !== node) return;
    const loss = undo(node);
    nodes.delete(node.id);
    stats.nodes = nodes.size;
    for (const [id, pending] of pendingAcks) {
      if (pending.node !== node) continue;
      pendingAcks.delete(id);
      pending.done();
    }
    // A node that took everything is gone: the others may stop sending what nobody else wants.
    if (node.routing === 'all') for (const other of nodes.values()) if (!othersTakeAll(other)) reply(other, { k: 'interest', all: false });
    if (!lost) return;
    stats.lost++;
    if (loss.members.length === 0 && loss.vacatedChannels.length === 0) return;
    // Reported once in the cluster, by one surviving node's engine (it tells the channels).
    const survivor = [...nodes.values()].find((candidate) => candidate.routing !== undefined);
    if (survivor) reply(survivor, { k: 'lost', loss });
  }

  function receive(node: HubNode, data: unknown): void {
    const read = readRequest(data);
    if (nodes.get(node.id) !== node) {
      // After its `close` (or a replacement under the same name): a call is answered, not left hanging.
      const id = read.ok ? ('id' in read.request ? read.request.id : undefined) : read.id;
      if (id !== undefined && !(read.ok && read.request.k === 'ack')) reply(node, { k: 'reply', id, ok: false, code: 'HUB_GONE', message: 'this node was closed' });
      return;
    }
    if (!read.ok) {
      stats.invalid++;
      if (read.id !== undefined) reply(node, { k: 'reply', id: read.id, ok: false, code: 'INVALID_REQUEST', message: read.problem });
      return;
    }
    const { request } = read;
    switch (request.k) {
      case 'publish':
        publish(node, request.messages);
        return;
      case 'start': {
        node.routing = request.routing;
        // What the others listen to, before the answer (the port keeps the order).
        const on = [...interested.keys()].filter((key) => othersWant(node, key));
        reply(node, { k: 'interest', reset: true, all: othersTakeAll(node), on });
        // A node taking everything: every other node must send it everything from now on.
        const acks = request.routing === 'all' ? [...nodes.values()].filter((other) => other !== node).map((other) => tell(other, { all: true })) : [];
        if (acks.length === 0) reply(node, { k: 'reply', id: request.id, ok: true, v: undefined });
        else void Promise.all(acks).then(() => reply(node, { k: 'reply', id: request.id, ok: true, v: undefined }));
        return;
      }
      case 'ack': {
        node.unanswering = false;
        const pending = pendingAcks.get(request.id);
        if (pending?.node !== node) return;
        pendingAcks.delete(request.id);
        pending.done();
        return;
      }
      case 'close':
        // A graceful stop: the engine removed its sockets first; whatever is left goes quietly, as in a drain.
        reply(node, { k: 'reply', id: request.id, ok: true, v: undefined });
        remove(node, false);
        return;
      case 'call': {
        let value: unknown;
        const acks: Promise<void>[] = [];
        try {
          value = call(node, request, acks);
        } catch (error) {
          // A bug in the state, not the caller's: answered, so the worker's call fails instead of hanging.
          reply(node, { k: 'reply', id: request.id, ok: false, code: 'HUB_FAILED', message: error instanceof Error ? error.message : String(error) });
          return;
        }
        const answer: HubReply = { k: 'reply', id: request.id, ok: true, v: value };
        if (acks.length === 0) reply(node, answer);
        else void Promise.all(acks).then(() => reply(node, answer));
      }
    }
  }

  const hub: ScalerHub = {
    stats,
    state,
    attach(port, nodeId) {
      const existing = nodes.get(nodeId);
      if (existing) remove(existing, true);
      const node: HubNode = { id: nodeId, port, share: new ClusterState(), routing: undefined, unanswering: false };
      nodes.set(nodeId, node);
      stats.nodes = nodes.size;
      port.on('message', (data) => receive(node, data));
      port.on('close', () => remove(node, true));
    },
    detach(nodeId) {
      const node = nodes.get(nodeId);
      if (node) remove(node, true);
    },
    node(nodeId = `thread-${++anonymous}`) {
      const { port1, port2 } = new MessageChannel();
      hub.attach(port1 as MessagePort, nodeId);
      return createPortScaler(port2, { nodeId });
    },
    close() {
      for (const node of [...nodes.values()]) {
        nodes.delete(node.id);
        node.port.close();
      }
      stats.nodes = 0;
      state.clear();
    },
  };
  return hub;
}
