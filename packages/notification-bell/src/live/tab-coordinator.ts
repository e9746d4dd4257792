import type { LiveEvent } from '../types.js';

export type RelayMessage =
  | { kind: 'live'; event: LiveEvent }
  | { kind: 'health'; healthy: boolean }
  | { kind: 'hello' };

/**
 * One tab per user holds the live connection (Web Locks); every tab shares
 * live events and its own mutations over a BroadcastChannel. Without Web
 * Locks each tab connects on its own, which is still correct, only costlier.
 */
export class TabCoordinator {
  readonly #key: string;
  readonly #channel: BroadcastChannel | undefined;
  readonly #abort = new AbortController();
  #release: (() => void) | undefined;
  #closed = false;

  constructor(key: string, onMessage: (message: RelayMessage) => void) {
    this.#key = key;
    if (typeof BroadcastChannel !== 'undefined') {
      this.#channel = new BroadcastChannel(`notification-bell:${key}`);
      this.#channel.onmessage = (message: MessageEvent<RelayMessage>) => onMessage(message.data);
    }
  }

  post(message: RelayMessage): void {
    if (!this.#closed) this.#channel?.postMessage(message);
  }

  /** Runs `lead` once this tab becomes the leader; its return value stops the connection when we step down. */
  lead(start: () => () => void): void {
    const locks = globalThis.navigator?.locks;
    if (!locks) {
      const stop = start();
      this.#release = stop;
      return;
    }
    locks
      .request(`notification-bell:live:${this.#key}`, { signal: this.#abort.signal }, async () => {
        if (this.#closed) return;
        const stop = start();
        // Hold the lock until close(); then the next tab in the queue takes over.
        await new Promise<void>((resolve) => {
          this.#release = resolve;
        });
        stop();
      })
      .catch(() => {
        /* aborted while waiting for the lock: this tab never led */
      });
  }

  close(): void {
    this.#closed = true;
    this.#abort.abort();
    this.#release?.();
    this.#channel?.close();
  }
}
