/**
 * Local delivery of what arrives from the bus, in arrival order per topic,
 * where some messages must first be checked against the cluster state.
 *
 * A member event crosses the bus with some delay. When a user leaves on one
 * node and comes back on another within that delay, the first node's late
 * `member_removed` reaches a third node after the return: delivered as is,
 * it would remove a present user from its subscribers' lists for good. So a
 * member event from another node is delivered only if it is still true when
 * its turn comes, and whatever arrives for that topic meanwhile (the user's
 * first client event, a local member event) waits behind it, keeping the
 * order each node published in. With nothing waiting, delivery is immediate:
 * the common path costs one size check.
 */
/** How long a check may hold its topic's messages before they go out unchecked. */
const checkTimeoutMs = 1_000;

async function answerOrTrue(check: () => Promise<boolean>): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(true), checkTimeoutMs);
  });
  try {
    return await Promise.race([check().catch(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export class OrderedDelivery {
  readonly #tails = new Map<string, Promise<void>>();
  readonly #onError: (error: unknown) => void;

  constructor(onError: (error: unknown) => void) {
    this.#onError = onError;
  }

  /** True when nothing waits anywhere: the caller may send directly. */
  get idle(): boolean {
    return this.#tails.size === 0;
  }

  /**
   * Sends now, or after what is already waiting for this topic; `stillTrue` is asked just before
   * sending. A check that fails, or does not answer within `checkTimeoutMs`, lets the message through:
   * a stale member event is rare, a lost one (a member missing from every list here) is not acceptable.
   */
  deliver(topic: string, send: () => void, stillTrue?: () => Promise<boolean>): void {
    const ahead = this.#tails.size === 0 ? undefined : this.#tails.get(topic);
    if (!ahead && !stillTrue) {
      send();
      return;
    }
    const current: Promise<void> = (ahead ?? Promise.resolve())
      .then(async () => {
        if (!stillTrue || (await answerOrTrue(stillTrue))) send();
      })
      .catch(this.#onError)
      .finally(() => {
        if (this.#tails.get(topic) === current) this.#tails.delete(topic);
      });
    this.#tails.set(topic, current);
  }
}
