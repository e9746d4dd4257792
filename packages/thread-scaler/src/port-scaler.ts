import type { ClusterMessage, ClusterMessageHandler, NodeLossHandler, Scaler } from '@org/protocol';
import { ScalerHubError } from './errors.js';
import { isInterest, replyChecks } from './reply-checks.js';
import { isClusterMessage, isNodeLoss, isRequestId } from './value-checks.js';
import { interestKey, isNodeWide, type HubMethod, type HubRequest } from './wire.js';

/** The side of a `MessagePort` a worker's scaler uses (a real port; a fake in tests). */
export interface ScalerPort {
  on(event: 'message', listener: (data: unknown) => void): unknown;
  on(event: 'close', listener: () => void): unknown;
  postMessage(message: HubRequest): void;
  close(): void;
}

export interface PortScalerOptions {
  /** Unique per node; the hub knows the node by the name it was attached with. */
  nodeId: string;
}

export interface PortScalerStats {
  /** Messages from the hub that were not readable, ignored. */
  invalidReplies: number;
  /** Channel messages not sent to the hub because no other node listens to the channel. */
  unsent: number;
}

interface Pending {
  method: HubMethod | 'start' | 'close';
  resolve(value: unknown): void;
  reject(error: Error): void;
}

/**
 * A worker thread's `Scaler`: every state call is a request to the hub (`createScalerHub`, in the
 * main thread) over `port`, answered from the one shared state; `publish` is one-way. Answers are
 * checked before they reach the engine, and a port that closes fails the calls in flight
 * (`HUB_GONE`) instead of leaving them hanging.
 */
export function createPortScaler(port: ScalerPort, options: PortScalerOptions): Scaler & { readonly stats: PortScalerStats } {
  const pending = new Map<number, Pending>();
  const stats: PortScalerStats = { invalidReplies: 0, unsent: 0 };
  // What the other nodes listen to, as the hub tells it; until it has, everything is sent.
  let othersTakeAll = true;
  const othersListen = new Set<string>();
  const wanted = (message: ClusterMessage) =>
    othersTakeAll || isNodeWide(message) || ('channel' in message && othersListen.has(interestKey(message.appId, message.channel)));
  let nextId = 0;
  let closed = false;
  let onMessage: ClusterMessageHandler | undefined;
  let onNodeLost: NodeLossHandler | undefined;

  const failAll = (why: string) => {
    closed = true;
    for (const { reject } of pending.values()) reject(new ScalerHubError('HUB_GONE', why));
    pending.clear();
  };

  // Messages published during this synchronous turn, sent as one batch in a microtask: before the
  // HTTP answer of the request that published them can be written (that answer waits for at least
  // one more microtask), so a client publishing sequentially sees its order kept across workers,
  // and before any later call (the hub sees program order).
  let outgoing: ClusterMessage[] = [];
  let flushScheduled = false;
  const flush = () => {
    flushScheduled = false;
    if (outgoing.length === 0 || closed) return;
    const messages = outgoing;
    outgoing = [];
    port.postMessage({ k: 'publish', messages });
  };

  function request<T>(method: Pending['method'], message: (id: number) => HubRequest): Promise<T> {
    if (closed) return Promise.reject(new ScalerHubError('HUB_GONE', `${method}: the scaler's port is closed`));
    flush();
    const id = nextId++;
    return new Promise<T>((resolve, reject) => {
      pending.set(id, { method, resolve: resolve as (value: unknown) => void, reject });
      port.postMessage(message(id));
    });
  }

  const call = <T>(method: HubMethod, ...args: unknown[]): Promise<T> => request<T>(method, (id) => ({ k: 'call', id, m: method, a: args }));

  function receive(data: unknown): void {
    if (typeof data !== 'object' || data === null) {
      stats.invalidReplies++;
      return;
    }
    const message = data as Record<string, unknown>;
    if (message['k'] === 'messages' && Array.isArray(message['messages'])) {
      for (const one of message['messages'] as unknown[]) {
        if (isClusterMessage(one)) onMessage?.(one);
        else stats.invalidReplies++;
      }
      return;
    }
    if (message['k'] === 'interest' && isInterest(message)) {
      if (message.reset) othersListen.clear();
      if (message.all !== undefined) othersTakeAll = message.all;
      for (const key of message.on ?? []) othersListen.add(key);
      for (const key of message.off ?? []) othersListen.delete(key);
      if (message.id !== undefined && !closed) port.postMessage({ k: 'ack', id: message.id });
      return;
    }
    if (message['k'] === 'lost' && isNodeLoss(message['loss'])) {
      onNodeLost?.(message['loss']);
      return;
    }
    const id = message['id'];
    const waiting = message['k'] === 'reply' && isRequestId(id) ? pending.get(id) : undefined;
    if (!waiting) {
      stats.invalidReplies++;
      return;
    }
    pending.delete(id as number);
    if (message['ok'] === true && replyChecks[waiting.method](message['v'])) waiting.resolve(message['v']);
    else if (message['ok'] === false && typeof message['code'] === 'string' && typeof message['message'] === 'string') {
      const code = message['code'] === 'INVALID_REQUEST' || message['code'] === 'HUB_FAILED' || message['code'] === 'HUB_GONE' ? message['code'] : 'INVALID_REPLY';
      waiting.reject(new ScalerHubError(code, `${waiting.method}: ${message['message']}`));
    } else {
      stats.invalidReplies++;
      waiting.reject(new ScalerHubError('INVALID_REPLY', `${waiting.method}: the hub's answer is not readable`));
    }
  }

  port.on('message', receive);
  port.on('close', () => failAll('the hub closed the port'));

  return {
    nodeId: options.nodeId,
    stats,
    async start(handler, lost, startOptions) {
      onMessage = handler;
      onNodeLost = lost;
      await request<void>('start', (id) => ({ k: 'start', id, routing: startOptions?.routing ?? 'all' }));
    },
    publish(message) {
      if (closed) return;
      if (!wanted(message)) {
        stats.unsent++;
        return;
      }
      outgoing.push(message);
      if (!flushScheduled) {
        flushScheduled = true;
        queueMicrotask(flush);
      }
    },
    async close() {
      if (closed) return;
      try {
        await request<void>('close', (id) => ({ k: 'close', id }));
      } catch {
        // The hub is gone already: nothing of this node is left to remove.
      }
      onMessage = undefined;
      onNodeLost = undefined;
      failAll('closed');
      port.close();
    },

    addConnection: (appId, socketId) => call('addConnection', appId, socketId),
    removeConnection: (appId, socketId, held, signedInAs) => call('removeConnection', appId, socketId, held, signedInAs),
    connectionCount: (appId) => call('connectionCount', appId),

    addSubscription: (appId, channel, socketId) => call('addSubscription', appId, channel, socketId),
    removeSubscription: (appId, channel, socketId) => call('removeSubscription', appId, channel, socketId),
    subscriptionCount: (appId, channel) => call('subscriptionCount', appId, channel),
    channels: (appId) => call('channels', appId),

    joinPresence: (appId, channel, socketId, member, maxMembers) => call('joinPresence', appId, channel, socketId, member, maxMembers),
    leavePresence: (appId, channel, socketId, userId) => call('leavePresence', appId, channel, socketId, userId),
    presenceMembers: (appId, channel) => call('presenceMembers', appId, channel),
    isPresenceMember: (appId, channel, userId) => call('isPresenceMember', appId, channel, userId),
    userCount: (appId, channel) => call('userCount', appId, channel),

    storeCachedEvent: (appId, channel, frame, ttlSeconds) => call('storeCachedEvent', appId, channel, frame, ttlSeconds),
    cachedEvent: (appId, channel) => call('cachedEvent', appId, channel),

    signIn: (appId, userId, socketId) => call('signIn', appId, userId, socketId),
    signOut: (appId, userId, socketId) => call('signOut', appId, userId, socketId),
    onlineUsers: (appId, userIds) => call('onlineUsers', appId, [...userIds]),
  };
}
