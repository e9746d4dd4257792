import type { ConnectionRecord } from './connection.js';
import { watchlistEventsFrame } from './frames.js';

/** A watched user's key in the engine's ordered delivery from the bus (channel names hold no NUL, so it is no channel's topic). */
export const watchedUserTopic = (appId: string, userId: string): string => `\u0000watchlist\u0000${appId}\u0000${userId}`;

interface Watch {
  readonly userIds: readonly string[];
  /**
   * Users an event went out about while the initial status was being read (undefined once it was
   * sent): that event is at least as new as the read, so the initial frame leaves them out.
   */
  told: Set<string> | undefined;
}

/**
 * This node's signed-in watchers (watchlist events): each watched user's watchers, so that a
 * user's change reaches exactly them, never a scan of the node's connections. A connection's
 * watchlist replaces its previous one at each sign-in and leaves with the connection. Apps
 * without watchlist events put nothing here.
 */
export class WatchlistIndex {
  /**
   * Watchers per app, then per watched user: nested rather than keyed by a joined string, so a
   * 100-id watchlist builds no key strings (measured: about a third of a sign-in's cost with joined keys).
   */
  readonly #watchers = new Map<string, Map<string, Set<ConnectionRecord>>>();
  readonly #watches = new Map<ConnectionRecord, Watch>();
  readonly #send: (connection: ConnectionRecord, frame: string) => void;

  constructor(send: (connection: ConnectionRecord, frame: string) => void) {
    this.#send = send;
  }

  /** The connection hears about these users from now on (only them). */
  watch(connection: ConnectionRecord, userIds: readonly string[]): void {
    this.forget(connection);
    if (userIds.length === 0) return;
    const appId = connection.app.id;
    this.#watches.set(connection, { userIds, told: new Set() });
    let users = this.#watchers.get(appId);
    if (!users) this.#watchers.set(appId, (users = new Map()));
    for (const userId of userIds) {
      let watchers = users.get(userId);
      if (!watchers) users.set(userId, (watchers = new Set()));
      watchers.add(connection);
    }
  }

  /** The connection no longer watches anyone (closed, or signed in again). */
  forget(connection: ConnectionRecord): void {
    const watch = this.#watches.get(connection);
    if (!watch) return;
    this.#watches.delete(connection);
    const appId = connection.app.id;
    const users = this.#watchers.get(appId);
    if (!users) return;
    for (const userId of watch.userIds) {
      const watchers = users.get(userId);
      if (watchers?.delete(connection) && watchers.size === 0) users.delete(userId);
    }
    if (users.size === 0) this.#watchers.delete(appId);
  }

  /**
   * The initial status of the connection's watchlist, `online` read after `watch`: one frame, the
   * users that are online and those that are not, leaving out any an event already told it about.
   * Nothing when the connection watches nobody (or no longer watches this list).
   */
  sendStatus(connection: ConnectionRecord, userIds: readonly string[], online: readonly string[]): void {
    const watch = this.#watches.get(connection);
    if (!watch || watch.userIds !== userIds || watch.told === undefined) return;
    const { told } = watch;
    watch.told = undefined;
    const onlineNow = new Set(online);
    const on: string[] = [];
    const off: string[] = [];
    for (const userId of userIds) if (!told.has(userId)) (onlineNow.has(userId) ? on : off).push(userId);
    if (on.length > 0 || off.length > 0) this.#send(connection, watchlistEventsFrame(on, off));
  }

  /** A user came online or went offline: their watchers on this node hear it; returns how many. */
  notify(appId: string, userId: string, online: boolean): number {
    const watchers = this.#watchers.get(appId)?.get(userId);
    if (!watchers) return 0;
    const frame = online ? watchlistEventsFrame([userId], []) : watchlistEventsFrame([], [userId]);
    for (const connection of watchers) {
      this.#watches.get(connection)?.told?.add(userId);
      this.#send(connection, frame);
    }
    return watchers.size;
  }

  /** True when some connection of this node watches the user. */
  isWatched(appId: string, userId: string): boolean {
    return this.#watchers.get(appId)?.has(userId) ?? false;
  }

  get watchers(): number {
    return this.#watches.size;
  }
}
