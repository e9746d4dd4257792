import { post, type HubNode } from './hub-node.js';
import { interestKey, type InterestChange } from './wire.js';

/** How long a call waits for other nodes to apply an interest change (they answer within a loop turn when alive). */
const ackTimeoutMs = 1_000;

/**
 * Which channels each node listens to, and what every node has been told of the others: a worker
 * sends a channel's messages to the hub only while some other node listens there (or takes
 * everything). A channel becoming interesting is acked before the call that caused it resolves,
 * so the other nodes' next publish reaches it.
 */
export class InterestTable {
  readonly #nodes: ReadonlyMap<string, HubNode>;
  /** Per channel key, the nodes with a subscription or presence socket in it (from their shares). */
  readonly #interested = new Map<string, Set<HubNode>>();
  /** `interest` changes sent and not yet applied by their node: the call that caused them waits. */
  readonly #pendingAcks = new Map<number, { node: HubNode; done(): void }>();
  #nextAck = 0;

  constructor(nodes: ReadonlyMap<string, HubNode>) {
    this.#nodes = nodes;
  }

  /** Whether any node but `node` listens to `key`. */
  othersWant(node: HubNode, key: string): boolean {
    for (const other of this.#interested.get(key) ?? []) if (other !== node) return true;
    return false;
  }

  /** Whether any node but `node` takes everything (routing 'all'). */
  othersTakeAll(node: HubNode): boolean {
    return [...this.#nodes.values()].some((other) => other !== node && other.routing === 'all');
  }

  /**
   * A node that just started: it learns what the others listen to (before the answer to its
   * `start`, the port keeps the order); one that takes everything is announced to every other
   * node, whose acks the returned promises wait for.
   */
  welcome(node: HubNode): Promise<void>[] {
    const on = [...this.#interested.keys()].filter((key) => this.othersWant(node, key));
    post(node, { k: 'interest', reset: true, all: this.othersTakeAll(node), on });
    if (node.routing !== 'all') return [];
    return [...this.#nodes.values()].filter((other) => other !== node).map((other) => this.tell(other, { all: true }));
  }

  /** Sends `node` an interest change; resolves once it applied it (or is gone). */
  tell(node: HubNode, change: Omit<InterestChange, 'k' | 'id'>): Promise<void> {
    const id = this.#nextAck++;
    if (node.unanswering) {
      // Still told (its ack marks it alive again), but nobody waits for a node that did not answer last time.
      post(node, { k: 'interest', id, ...change });
      return Promise.resolve();
    }
    return new Promise((done) => {
      this.#pendingAcks.set(id, { node, done });
      post(node, { k: 'interest', id, ...change });
      // A node too stuck to answer must not hold every other node's subscriptions: past the bound the call is answered.
      setTimeout(() => {
        if (!this.#pendingAcks.delete(id)) return;
        node.unanswering = true;
        done();
      }, ackTimeoutMs).unref();
    });
  }

  /** `node` applied the change `id` (any ack shows it answers again). */
  acked(node: HubNode, id: number): void {
    node.unanswering = false;
    const pending = this.#pendingAcks.get(id);
    if (pending?.node !== node) return;
    this.#pendingAcks.delete(id);
    pending.done();
  }

  /** A node is gone: nobody waits for its acks any more. */
  release(node: HubNode): void {
    for (const [id, pending] of this.#pendingAcks) {
      if (pending.node !== node) continue;
      this.#pendingAcks.delete(id);
      pending.done();
    }
  }

  /**
   * Keeps the table in step with `node`'s share for one channel. A channel becoming interesting
   * is told to every other node that did not know it yet, and `acks` gets promises of their acks
   * (so that once the call that subscribed resolves, they publish that channel's messages); one
   * losing its last listener is told without waiting (sending too much is harmless: the hub
   * routes again).
   */
  refresh(node: HubNode, appId: string, channel: string, acks: Promise<void>[]): void {
    const key = interestKey(appId, channel);
    const listens = node.share.subscriptionCount(appId, channel) > 0 || node.share.userCount(appId, channel) > 0;
    const set = this.#interested.get(key);
    if (listens === (set?.has(node) ?? false)) return;
    const before = new Map([...this.#nodes.values()].map((other) => [other, this.othersWant(other, key)]));
    if (listens) {
      if (set) set.add(node);
      else this.#interested.set(key, new Set([node]));
    } else {
      set!.delete(node);
      if (set!.size === 0) this.#interested.delete(key);
    }
    for (const [other, knew] of before) {
      const knows = this.othersWant(other, key);
      if (knows === knew) continue;
      if (knows) acks.push(this.tell(other, { on: [key] }));
      else post(other, { k: 'interest', off: [key] });
    }
  }
}
