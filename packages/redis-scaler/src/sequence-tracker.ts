/** Topics remembered (the oldest-remembered is forgotten first); a node rarely listens to more at once. */
const defaultMaxTopics = 65_536;
/** Senders remembered per topic; a cluster has a handful of nodes, each restart adds one id. */
const maxSendersPerTopic = 1_024;

/**
 * The last sequence number seen from each sending node on each topic. A
 * message at or below it is a resend of one already delivered (a PUBLISH
 * retried after a failure whose effect was unknown) and is dropped. A message
 * whose `prev` (the sender's previous number on this topic) is above it means
 * this node missed at least one of that sender's messages on the topic (it was
 * cut off meanwhile): counted once per gap. From an older sender (no `prev`,
 * it only ever used the bus) the jump in numbers is counted, as before.
 *
 * A topic this node stops listening to is forgotten (`forget`), so the
 * messages it did not hear while unsubscribed are not taken for losses.
 * Memory is bounded: past `maxTopics`, the longest-remembered topic goes (its
 * next message only sets a new baseline).
 */
export class SequenceTracker {
  readonly #topics = new Map<string, Map<string, number>>();
  readonly #maxTopics: number;
  duplicates = 0;
  missed = 0;

  constructor(maxTopics = defaultMaxTopics) {
    this.#maxTopics = maxTopics;
  }

  /** How many topics are remembered now. */
  get size(): number {
    return this.#topics.size;
  }

  /** True when the message is new and must be delivered. */
  accept(sender: string, topic: string, seq: number, prev: number | undefined): boolean {
    let senders = this.#topics.get(topic);
    if (!senders) {
      if (this.#topics.size >= this.#maxTopics) this.#topics.delete(this.#topics.keys().next().value!);
      this.#topics.set(topic, (senders = new Map()));
    }
    const last = senders.get(sender);
    if (last !== undefined) {
      if (seq <= last) {
        this.duplicates++;
        return false;
      }
      if (prev === undefined) this.missed += seq - last - 1;
      else if (prev > last) this.missed++;
    } else if (senders.size >= maxSendersPerTopic) {
      // The longest-known sender goes first; nodes that restarted long ago send nothing any more.
      senders.delete(senders.keys().next().value!);
    }
    senders.set(sender, seq);
    return true;
  }

  /** This node stopped (or starts afresh) listening to `topic`: what it hears next sets a new baseline. */
  forget(topic: string): void {
    this.#topics.delete(topic);
  }
}
