/**
 * Holds `member_removed` and `channel_vacated` for a while: a page reload
 * leaves and re-joins within a second or two, and the receiver should see
 * neither the leave nor the re-join. A matching join within the window
 * cancels the held leave, and the caller then drops the join too.
 */
export class LeaveDebouncer {
  readonly #delayMs: number;
  readonly #held = new Map<string, { timer: ReturnType<typeof setTimeout>; fire: () => void }>();

  constructor(delayMs: number) {
    this.#delayMs = delayMs;
  }

  get size(): number {
    return this.#held.size;
  }

  /** Runs `fire` after the delay unless `cancel(key)` comes first. A key already held stays as it was. */
  hold(key: string, fire: () => void): void {
    if (this.#held.has(key)) return;
    const timer = setTimeout(() => {
      this.#held.delete(key);
      fire();
    }, this.#delayMs);
    timer.unref?.();
    this.#held.set(key, { timer, fire });
  }

  /** True when a held leave was cancelled (the caller drops the matching join). */
  cancel(key: string): boolean {
    const held = this.#held.get(key);
    if (!held) return false;
    clearTimeout(held.timer);
    this.#held.delete(key);
    return true;
  }

  /** Fires everything held now (shutdown: nobody will re-join on this node). */
  flush(): void {
    const held = [...this.#held.values()];
    this.#held.clear();
    for (const { timer, fire } of held) {
      clearTimeout(timer);
      fire();
    }
  }
}
