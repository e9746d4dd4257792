import { SOCKET_ID_HEADER } from '@org/notifications/contract';
import { createHttpNotificationApi } from './api/http-api.js';
import type { NotificationApi } from './api/notification-api.js';
import type { LiveSource } from './live/live-source.js';
import { Poller } from './live/poller.js';
import { TabCoordinator } from './live/tab-coordinator.js';
import type { RelayMessage } from './live/tab-coordinator.js';
import type { BroadcastingConfig } from './options.js';
import type { NotificationStore } from './store.js';
import type { LiveEvent } from './types.js';

export interface ConnectionOptions {
  store: NotificationStore;
  apiBase: string;
  /** Overrides the HTTP API (e.g. the in-memory one). */
  api?: NotificationApi;
  perPage: number;
  pollInterval: number;
  enablePolling: boolean;
  broadcasting: BroadcastingConfig | false;
  /** The element's `user-id`; when absent, `broadcasting.userId` is used. */
  userId: string | undefined;
  onError(error: unknown): void;
}

/** The user whose channel to follow: the element's `user-id`, else `broadcasting.userId`. */
function connectionUserId(options: Pick<ConnectionOptions, 'userId' | 'broadcasting'>): string | undefined {
  if (options.userId !== undefined) return options.userId;
  const fromConfig = options.broadcasting ? (options.broadcasting as { userId?: unknown }).userId : undefined;
  return typeof fromConfig === 'string' && fromConfig !== '' ? fromConfig : undefined;
}


/**
 * Keeps one store fed: first load, polling, the live connection (in the
 * leader tab) and the cross-tab relay. One per bell; `close()` undoes it all.
 */
export class BellConnection {
  #liveHealthy = false;
  #poller: Poller | undefined;
  #tabs: TabCoordinator | undefined;
  #live: LiveSource | undefined;
  #unsubscribe: (() => void) | undefined;

  constructor(private readonly options: ConnectionOptions) {}

  get liveHealthy(): boolean {
    return this.#liveHealthy;
  }

  open(): void {
    const { store } = this.options;
    store.configure({
      api:
        this.options.api ??
        createHttpNotificationApi({
          apiBase: this.options.apiBase,
          headers: () => {
            const socketId = this.#live?.socketId?.();
            return socketId ? { [SOCKET_ID_HEADER]: socketId } : {};
          },
        }),
      perPage: this.options.perPage,
    });
    void store.refresh();

    const userId = connectionUserId(this.options);
    this.#tabs = new TabCoordinator(userId ?? 'anonymous', (message) => this.#onRelay(message));
    this.#unsubscribe = store.subscribe('sync', (event) => this.#tabs?.post({ kind: 'live', event }));

    const { broadcasting } = this.options;
    if (broadcasting && userId !== undefined) {
      this.#tabs.lead(() => {
        let stopped = false;
        // The transports are a chunk of their own, loaded only here (a page that polls never needs them).
        import('./live/transports.js').then(
          ({ openLiveSource }) => {
            if (stopped) return;
            this.#live = openLiveSource(broadcasting, userId, {
              onEvent: (event) => this.#onServerEvent(event),
              onOpen: () => void store.refresh(),
              onHealthChange: (healthy) => {
                this.#liveHealthy = healthy;
                this.#tabs?.post({ kind: 'health', healthy });
              },
              onError: (error) => this.options.onError(error),
            });
          },
          (error: unknown) => this.options.onError(error),
        );
        return () => {
          stopped = true;
          this.#live?.close();
          this.#live = undefined;
          this.#liveHealthy = false;
          this.#tabs?.post({ kind: 'health', healthy: false });
        };
      });
      this.#tabs.post({ kind: 'hello' });
    } else if (broadcasting) {
      this.options.onError(new Error('<notification-bell> broadcasting needs "user-id" (or broadcasting.userId) to pick the private channel; live updates are off.'));
    }

    if (this.options.enablePolling) {
      this.#poller = new Poller(
        this.options.pollInterval,
        () => void store.refresh(),
        () => document.hidden || this.#liveHealthy,
      );
      this.#poller.start();
    }
  }

  #onServerEvent(event: LiveEvent): void {
    this.options.store.applyLiveEvent(event);
    this.#tabs?.post({ kind: 'live', event });
  }

  #onRelay(message: RelayMessage): void {
    switch (message.kind) {
      case 'live':
        this.options.store.applyLiveEvent(message.event);
        return;
      case 'health':
        this.#liveHealthy = message.healthy;
        return;
      case 'hello':
        // A new tab asks whether the leader's connection is up; only the leader has #live.
        if (this.#live) this.#tabs?.post({ kind: 'health', healthy: this.#liveHealthy });
        return;
    }
  }

  close(): void {
    this.#poller?.stop();
    this.#unsubscribe?.();
    this.#tabs?.close();
    this.#live?.close();
    this.#live = undefined;
  }
}
