/**
 * A first-in first-out queue: `shift` moves an index instead of moving every
 * element, and the array is compacted once half of it is consumed.
 */
export class Fifo<T> {
  #items: (T | undefined)[] = [];
  #head = 0;

  get size(): number {
    return this.#items.length - this.#head;
  }

  push(item: T): void {
    this.#items.push(item);
  }

  peek(): T | undefined {
    return this.#items[this.#head];
  }

  shift(): T | undefined {
    if (this.size === 0) return undefined;
    const item = this.#items[this.#head];
    this.#items[this.#head++] = undefined; // let it be collected
    if (this.#head === this.#items.length) {
      this.#items = [];
      this.#head = 0;
    } else if (this.#head >= 1_024 && this.#head * 2 >= this.#items.length) {
      this.#items = this.#items.slice(this.#head);
      this.#head = 0;
    }
    return item;
  }

  /** Puts items in front, in their order. */
  unshiftAll(items: readonly T[]): void {
    if (items.length === 0) return;
    this.#items = [...items, ...this.#items.slice(this.#head)];
    this.#head = 0;
  }

  /** Empties the queue and returns what it held, oldest first. */
  drain(): T[] {
    const items = this.#items.slice(this.#head) as T[];
    this.#items = [];
    this.#head = 0;
    return items;
  }
}
