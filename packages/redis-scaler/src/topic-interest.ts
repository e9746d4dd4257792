import type { PubSub } from './pubsub.js';

/** Topics per UNSUBSCRIBE when lingering ones expire together. */
const unsubscribeBatch = 1_000;

export interface TopicInterestOptions {
  pubsub: PubSub;
  /** How long a topic stays subscribed after this node's last local listener left, in ms (0: unsubscribed at once). */
  lingerMs: number;
  /** At most this many topics linger; past it the longest-lingering is unsubscribed at once. */
  maxLingering: number;
  /** A topic is left (or subscribed afresh): what was heard on it before sets no baseline for what comes next. */
  onForget(topic: string): void;
}

/** What an operator may watch: topics subscribed now and the churn. */
export interface TopicStats {
  /** Channel topics this node is subscribed to now, lingering ones included. */
  topics: number;
  /** Of those, topics without a local listener, waiting for their linger to end. */
  lingeringTopics: number;
  /** Topics subscribed (one per SUBSCRIBE of a topic), since start. */
  topicSubscribes: number;
  /** Topics unsubscribed, since start. */
  topicUnsubscribes: number;
}

/** One SUBSCRIBE sent for a topic: confirmed once Redis answered it. */
interface Subscription {
  readonly confirmed: Promise<void>;
  /** False from the UNSUBSCRIBE that ends it. */
  live: boolean;
}

/**
 * Which channel topics this node listens to. The node says when a channel has a local listener
 * (`want`: its first local subscriber or presence socket) and when it has none (`release`); the
 * topic is subscribed at once and confirmed, and unsubscribed only `lingerMs` after the last
 * listener left, so that churn (a page reload) costs no SUBSCRIBE/UNSUBSCRIBE pair. A `want` during
 * the linger costs nothing.
 *
 * Each topic is a small state machine: absent → subscribing → subscribed ⇄ lingering → unsubscribing
 * → absent. A SUBSCRIBE sent while an UNSUBSCRIBE is in flight goes out behind it on the same
 * connection; Redis runs a connection's commands in order, so the last one wins and the topic is
 * subscribed, and a fresh `Subscription` (with its own confirmation) replaces the old one.
 */
export class TopicInterest {
  readonly #options: TopicInterestOptions;
  readonly #subscriptions = new Map<string, Subscription>();
  /** Lingering topics → when they are unsubscribed; in insertion order, which is deadline order (one linger for all). */
  readonly #lingering = new Map<string, number>();
  #timer: ReturnType<typeof setTimeout> | undefined;
  #live = 0;
  #subscribes = 0;
  #unsubscribes = 0;
  #closed = false;

  constructor(options: TopicInterestOptions) {
    this.#options = options;
  }

  get stats(): TopicStats {
    return { topics: this.#live, lingeringTopics: this.#lingering.size, topicSubscribes: this.#subscribes, topicUnsubscribes: this.#unsubscribes };
  }

  /** True while `topic` is subscribed or being subscribed (lingering included). */
  has(topic: string): boolean {
    return this.#subscriptions.get(topic)?.live ?? false;
  }

  /**
   * This node has a local listener in the topic's channel. Resolves once Redis confirmed the
   * subscription (at once when it already was); while Redis is down the SUBSCRIBE waits in the
   * subscriber's offline queue. Rejects when the subscriber connection was ended.
   */
  want(topic: string): Promise<void> {
    const current = this.#subscriptions.get(topic);
    if (current?.live) {
      this.#lingering.delete(topic);
      return current.confirmed;
    }
    if (this.#closed) return Promise.resolve();
    this.#subscribes++;
    this.#live++;
    this.#options.onForget(topic);
    const subscription: Subscription = {
      confirmed: this.#options.pubsub.subscribe([topic]).catch((error: unknown) => {
        // Not subscribed after all (the connection ended): a later `want` sends a SUBSCRIBE again.
        if (this.#subscriptions.get(topic) === subscription && subscription.live) this.#drop(topic, subscription);
        throw error;
      }),
      live: true,
    };
    // Whoever awaits it handles a rejection; the stored copy must not count as unhandled.
    subscription.confirmed.catch(() => undefined);
    this.#subscriptions.set(topic, subscription);
    return subscription.confirmed;
  }

  /** This node has no local listener in the topic's channel any more: the topic lingers, then is unsubscribed. */
  release(topic: string): void {
    const subscription = this.#subscriptions.get(topic);
    if (!subscription?.live || this.#lingering.has(topic)) return;
    this.#lingering.set(topic, Date.now() + this.#options.lingerMs);
    if (this.#options.lingerMs === 0 || this.#lingering.size > this.#options.maxLingering) {
      this.#sweep();
      return;
    }
    this.#schedule();
  }

  /** The node stops: no more timers or commands (its subscriber connection is closed with it). */
  close(): void {
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /** Unsubscribes lingering topics whose time is up, and the longest-lingering ones past the bound. */
  #sweep(): void {
    const now = Date.now();
    const expired: string[] = [];
    for (const [topic, deadline] of this.#lingering) {
      if (deadline > now && this.#lingering.size - expired.length <= this.#options.maxLingering) break;
      expired.push(topic);
    }
    for (let i = 0; i < expired.length; i += unsubscribeBatch) this.#unsubscribe(expired.slice(i, i + unsubscribeBatch));
    this.#schedule();
  }

  #unsubscribe(topics: string[]): void {
    const ended: [string, Subscription][] = [];
    for (const topic of topics) {
      const subscription = this.#subscriptions.get(topic)!;
      this.#lingering.delete(topic);
      subscription.live = false;
      this.#live--;
      this.#unsubscribes++;
      this.#options.onForget(topic);
      ended.push([topic, subscription]);
    }
    if (this.#closed) return;
    const forget = () => {
      // Unless subscribed afresh meanwhile (a new Subscription replaced this one).
      for (const [topic, subscription] of ended) if (this.#subscriptions.get(topic) === subscription) this.#subscriptions.delete(topic);
    };
    this.#options.pubsub.unsubscribe(topics).then(forget, forget);
  }

  /** A SUBSCRIBE that failed: the topic is as if never asked for. */
  #drop(topic: string, subscription: Subscription): void {
    subscription.live = false;
    this.#live--;
    this.#lingering.delete(topic);
    this.#subscriptions.delete(topic);
  }

  #schedule(): void {
    if (this.#timer !== undefined || this.#closed) return;
    const first = this.#lingering.values().next();
    if (first.done) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#sweep();
    }, Math.max(0, first.value - Date.now()));
    this.#timer.unref?.();
  }
}
