import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { NotificationStore } from '../store.js';

export interface StoreHost extends ReactiveControllerHost {
  store: NotificationStore;
}

/**
 * Keeps one set of store subscriptions for a host, and moves them when the
 * host's `store` property changes (checked before every render).
 */
export class StoreController implements ReactiveController {
  #store: NotificationStore | undefined;
  #stop: Array<() => void> = [];

  constructor(
    private readonly host: StoreHost,
    private readonly subscribe: (store: NotificationStore) => Array<() => void>,
  ) {
    host.addController(this);
  }

  hostConnected(): void {
    this.#follow();
  }

  hostUpdate(): void {
    this.#follow();
  }

  hostDisconnected(): void {
    for (const stop of this.#stop) stop();
    this.#stop = [];
    this.#store = undefined;
  }

  #follow(): void {
    const store = this.host.store;
    if (store === this.#store) return;
    this.hostDisconnected();
    this.#store = store;
    this.#stop = this.subscribe(store);
  }
}
