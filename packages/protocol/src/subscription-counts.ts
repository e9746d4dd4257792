import type { App } from './app.js';
import { channelType } from './channel-name.js';
import { fanOutTopic } from './fan-out-topic.js';
import { subscriptionCountFrame } from './frames.js';
import type { Scaler } from './scaler.js';

/** What the subscription counts need of their node. */
interface SubscriptionCountHost {
  readonly scaler: Scaler;
  /** How many of this node's sockets hear the channel. */
  localSubscribers(app: App, channel: string): number;
  /** Delivers a frame to this node's subscribers of the channel (reported as `message.sent`). */
  publishLocal(app: App, channel: string, frame: string, event: string): void;
  /** Whether anything listens to `subscription.count`: the read is skipped otherwise when no local socket needs it. */
  wantsCountEvents(): boolean;
  /** Reports `subscription.count`. */
  emitCount(app: App, channel: string, count: number): void;
  /** A failed read of the count (the scaler rejected): reported, never thrown. */
  failed(error: unknown, app: App, channel: string): void;
}

const subscriptionCountEvent = 'pusher_internal:subscription_count';

/** Whether an app's channel gets counts: with the option on, every channel type but presence (which has members) and a user's own channel. */
function countsSubscriptions(app: App, channel: string): boolean {
  if (!app.enableSubscriptionCount) return false;
  const type = channelType(channel);
  return type !== 'presence' && type !== 'server-to-user';
}

/** One channel with work in the current interval. */
interface Pending {
  readonly app: App;
  readonly channel: string;
  timer: ReturnType<typeof setTimeout> | undefined;
  /** A change made on this node is not yet told to the other nodes. */
  signal: boolean;
  /** This node's subscribers (or, with `local`, the server event) have not yet seen the latest change. */
  flush: boolean;
  /** The next flush includes a change made on this node: it reports `subscription.count`. */
  local: boolean;
  /** Reads started and shown, numbered: a read that resolves after a later one was shown is dropped. */
  started: number;
  shown: number;
  reading: number;
}

/**
 * Subscription counts for Pusher's `pusher_internal:subscription_count`, exact across the cluster
 * and coalesced.
 *
 * Exact: a change (a subscription confirmed, an unsubscribe, a closed socket's channels) is first
 * committed through the scaler; then the node that made it publishes `subscription-count-changed`
 * on the channel, carrying no count. Each node with subscribers there (the scaler routes it like a
 * broadcast), and the node that made the change, then reads the count from the scaler and sends it
 * to its own subscribers in one publish. Every signal leaves after its change is committed and every
 * read starts after its signal arrived, so each node's last read sees the final count: all converge
 * on the exact count, whatever order the nodes' changes and messages take.
 *
 * Coalesced, per channel and node: the first change after a quiet interval is read and sent at
 * once (a lone subscriber sees its count promptly), and the signal to the other nodes leaves at once;
 * any further changes within the interval make one more read and one more signal at its end, and so
 * on while changes keep coming. So a subscriber gets at most two frames in the first interval of a
 * burst and one per interval after it, whatever the burst's size (10,000 joins do not make 10,000
 * frames per subscriber), and a node publishes at most one signal per channel per interval after
 * the first. State: one entry and one timer per channel with changes in the last interval, removed
 * after an interval without any; nothing per connection, nothing for apps with the option off.
 */
export class SubscriptionCounts {
  readonly #host: SubscriptionCountHost;
  readonly #pending = new Map<string, Pending>();

  constructor(host: SubscriptionCountHost) {
    this.#host = host;
  }

  /** Channels with work in the current interval (for tests: bounded memory). */
  get size(): number {
    return this.#pending.size;
  }

  /** A change made on this node, already committed through the scaler. */
  changed(app: App, channel: string): void {
    if (!countsSubscriptions(app, channel)) return;
    const entry = this.#pending.get(key(app, channel));
    if (entry) {
      entry.signal = entry.flush = entry.local = true;
      return;
    }
    this.#begin(app, channel, true);
  }

  /** Another node's `subscription-count-changed`. */
  signalled(app: App, channel: string): void {
    if (!countsSubscriptions(app, channel)) return;
    const entry = this.#pending.get(key(app, channel));
    if (entry) {
      entry.flush = true;
      return;
    }
    // Nobody here to tell (a node that hears every channel, or a signal from a foreign publisher): no entry, no timer.
    if (this.#host.localSubscribers(app, channel) === 0) return;
    this.#begin(app, channel, false);
  }

  /**
   * Stops every timer (the engine stops, its sockets already released). The changes still waiting for
   * their interval's end act now rather than never: the other nodes' subscribers would otherwise keep
   * a count read after this node's first removal, not its last, and `subscription.count` would miss
   * the final count. Resolves once their reads are done (before the scaler closes).
   */
  async stop(): Promise<void> {
    const reads: Promise<void>[] = [];
    for (const entry of this.#pending.values()) {
      clearTimeout(entry.timer);
      entry.timer = undefined;
      const read = entry.signal || entry.flush ? this.#run(entry) : undefined;
      if (read) reads.push(read);
    }
    this.#pending.clear();
    await Promise.allSettled(reads);
  }

  /** The leading edge: acts at once and opens the interval. */
  #begin(app: App, channel: string, local: boolean): void {
    const entry: Pending = { app, channel, timer: undefined, signal: local, flush: true, local, started: 0, shown: 0, reading: 0 };
    this.#pending.set(key(app, channel), entry);
    this.#run(entry);
    this.#arm(entry);
  }

  #arm(entry: Pending): void {
    entry.timer = setTimeout(() => this.#tick(entry), entry.app.subscriptionCountIntervalMs);
    entry.timer.unref?.();
  }

  /** The end of an interval: the trailing edge when changes came, else the end of the entry. */
  #tick(entry: Pending): void {
    entry.timer = undefined;
    if (entry.signal || entry.flush) {
      this.#run(entry);
      this.#arm(entry);
    } else if (entry.reading > 0) {
      this.#arm(entry); // a slow read still holds the entry's numbering
    } else {
      this.#pending.delete(key(entry.app, entry.channel));
    }
  }

  /** Signals and reads as the entry's flags say; returns the read, if one started (it never rejects). */
  #run(entry: Pending): Promise<void> | undefined {
    const { app, channel } = entry;
    if (entry.signal) {
      entry.signal = false;
      this.#host.scaler.publish({ type: 'subscription-count-changed', appId: app.id, channel });
    }
    if (!entry.flush) return undefined;
    entry.flush = false;
    const local = entry.local;
    entry.local = false;
    const host = this.#host;
    const reportEvent = local && host.wantsCountEvents();
    if (!reportEvent && host.localSubscribers(app, channel) === 0) return undefined;
    const ticket = ++entry.started;
    entry.reading++;
    return host.scaler.subscriptionCount(app.id, channel).then(
      (count) => {
        entry.reading--;
        if (ticket < entry.shown) return; // a later read was shown already
        entry.shown = ticket;
        host.publishLocal(app, channel, subscriptionCountFrame(channel, count), subscriptionCountEvent);
        if (reportEvent) host.emitCount(app, channel, count);
      },
      (error: unknown) => {
        entry.reading--;
        host.failed(error, app, channel);
      },
    );
  }
}

/** One entry per channel of an app: its fan-out topic is that key already. */
const key = (app: App, channel: string) => fanOutTopic(app.id, channel);
