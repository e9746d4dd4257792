/** Senders remembered; a cluster has a handful of nodes, each restart adds one id. */
const maxSenders = 1_024;

/**
 * The last sequence number seen from each sending node. A message at or
 * below it is a resend of one already delivered (a PUBLISH retried after a
 * failure whose effect was unknown) and is dropped; a jump counts the
 * messages of that node this one never received (it was cut off meanwhile).
 */
export class SequenceTracker {
  readonly #last = new Map<string, number>();
  duplicates = 0;
  missed = 0;

  /** True when the message is new and must be delivered. */
  accept(node: string, seq: number): boolean {
    const last = this.#last.get(node);
    if (last !== undefined) {
      if (seq <= last) {
        this.duplicates++;
        return false;
      }
      this.missed += seq - last - 1;
    } else if (this.#last.size >= maxSenders) {
      // The longest-known sender goes first; nodes that restarted long ago send nothing any more.
      this.#last.delete(this.#last.keys().next().value!);
    }
    this.#last.set(node, seq);
    return true;
  }
}
