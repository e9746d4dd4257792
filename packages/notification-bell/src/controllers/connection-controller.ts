import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { BellConnection } from '../connection.js';
import type { ConnectionOptions } from '../connection.js';
import type { NotificationStore } from '../store.js';

export type ConnectionSettings = Omit<ConnectionOptions, 'store' | 'onError'>;

interface Shared {
  connection: BellConnection;
  settings: ConnectionSettings;
  holders: Set<ConnectionController>;
}

/**
 * One connection per store: a bell and an inline feed on the same page share
 * it (one poller, one live socket) instead of each polling on its own. When
 * two elements ask for different settings, the last one configured wins.
 */
const shared = new WeakMap<NotificationStore, Shared>();

function sameSettings(a: ConnectionSettings, b: ConnectionSettings): boolean {
  const { api: apiA, ...restA } = a;
  const { api: apiB, ...restB } = b;
  return apiA === apiB && JSON.stringify(restA) === JSON.stringify(restB);
}

/**
 * Feeds the host's store (first load, polling, live events, tab relay) while
 * the host is connected, and reconnects when `configure` gets other settings.
 */
export class ConnectionController implements ReactiveController {
  #store: NotificationStore | undefined;
  #settings: ConnectionSettings | undefined;

  constructor(
    private readonly host: ReactiveControllerHost & { readonly isConnected: boolean },
    private readonly onError: (error: unknown) => void,
  ) {
    host.addController(this);
  }

  /** Called after each update with the validated options; a no-op when nothing changed. */
  configure(store: NotificationStore, settings: ConnectionSettings): void {
    if (store === this.#store && this.#settings && sameSettings(settings, this.#settings)) return;
    this.hostDisconnected();
    this.#store = store;
    this.#settings = settings;
    if (this.host.isConnected) this.hostConnected();
  }

  /** The connection feeding this host's store, if any. */
  get connection(): BellConnection | undefined {
    return this.#store ? shared.get(this.#store)?.connection : undefined;
  }

  hostConnected(): void {
    const store = this.#store;
    const settings = this.#settings;
    if (!store || !settings) return;
    let entry = shared.get(store);
    if (entry && !sameSettings(entry.settings, settings)) {
      entry.connection.close();
      entry.connection = this.#open(store, settings);
      entry.settings = settings;
    }
    if (!entry) shared.set(store, (entry = { connection: this.#open(store, settings), settings, holders: new Set() }));
    entry.holders.add(this);
  }

  hostDisconnected(): void {
    const entry = this.#store && shared.get(this.#store);
    if (!entry?.holders.delete(this) || entry.holders.size > 0) return;
    entry.connection.close();
    shared.delete(this.#store as NotificationStore);
  }

  #open(store: NotificationStore, settings: ConnectionSettings): BellConnection {
    const connection = new BellConnection({ ...settings, store, onError: this.onError });
    connection.open();
    return connection;
  }
}
