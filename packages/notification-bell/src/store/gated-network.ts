import { createMemoryNotificationApi } from '../api/memory-api.js';
import type { MemoryNotificationApi } from '../api/memory-api.js';
import type { MutationResult, NotificationApi, NotificationPage, PageRequest } from '../api/notification-api.js';
import type { LiveEvent } from '../types.js';

interface Call {
  name: string;
  run: () => Promise<unknown>;
  outcome?: Promise<{ ok: true; value: unknown } | { ok: false; error: unknown }>;
  settle: (outcome: { ok: true; value: unknown } | { ok: false; error: unknown }) => void;
}

/**
 * A real in-memory backend behind a network the test controls: each request
 * reaches the server (and changes it) when the test says, and its answer
 * reaches the store later, in any order. The server's live events queue up
 * the same way, in order, as a channel delivers them.
 */
export class GatedNetwork {
  readonly server: MemoryNotificationApi = createMemoryNotificationApi();
  readonly travelling: Call[] = [];
  readonly answered: Call[] = [];
  readonly live: LiveEvent[] = [];
  /** When true, requests reach the server and answer at once. */
  direct = false;
  /** Whether the server echoes this tab's own changes on its live channel (another tab's view of them). */
  echoOwnChanges = false;

  readonly api: NotificationApi = {
    list: (request: PageRequest) => this.#call<NotificationPage>('list', () => this.server.list(request)),
    markRead: (id) => this.#mutation('markRead', () => this.server.markRead(id), { event: 'notification.marked-read', data: { notification_id: id } }),
    markUnread: (id) => this.#mutation('markUnread', () => this.server.markUnread(id), { event: 'notification.marked-unread', data: { notification_id: id } }),
    archive: (id) => this.#mutation('archive', () => this.server.archive(id), { event: 'notification.archived', data: { notification_id: id } }),
    remove: (id) => this.#mutation('remove', () => this.server.remove(id), { event: 'notification.deleted', data: { notification_id: id } }),
    markAllRead: () => this.#mutation('markAllRead', () => this.server.markAllRead(), { event: 'notification.marked-all-read', data: {} }),
    removeAll: () => this.#mutation('removeAll', () => this.server.removeAll(), { event: 'notification.all-deleted', data: {} }),
  };

  #mutation(name: string, run: () => Promise<MutationResult>, echo: LiveEvent): Promise<MutationResult> {
    return this.#call(name, async () => {
      const result = await run();
      if (this.echoOwnChanges) this.live.push({ event: echo.event, data: { ...echo.data, unread_count: result.unreadCount } });
      return result;
    });
  }

  #call<T>(name: string, run: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const call: Call = {
        name,
        run,
        settle: (outcome) => (outcome.ok ? resolve(outcome.value as T) : reject(outcome.error)),
      };
      this.travelling.push(call);
      if (this.direct) void this.arrive(this.travelling.length - 1).then(() => this.answer(this.answered.indexOf(call)));
    });
  }

  /** Request `index` reaches the server, which acts on it now. */
  async arrive(index: number): Promise<void> {
    const [call] = this.travelling.splice(index, 1);
    if (!call) return;
    call.outcome = call.run().then(
      (value) => ({ ok: true as const, value }),
      (error: unknown) => ({ ok: false as const, error }),
    );
    await call.outcome;
    this.answered.push(call);
  }

  /** The answer to arrived request `index` reaches the store. */
  async answer(index: number): Promise<void> {
    const [call] = this.answered.splice(index, 1);
    if (!call?.outcome) return;
    call.settle(await call.outcome);
    await settle();
  }

  /** Another system changes the server and announces it on the live channel. */
  async elsewhere(event: LiveEvent['event'], act: () => Promise<MutationResult>, data: Record<string, unknown>, announce = true): Promise<void> {
    const result = await act();
    if (announce) this.live.push({ event, data: { ...data, unread_count: result.unreadCount } });
  }
}

/** Lets promise callbacks (the store's continuations) run. */
export function settle(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}
