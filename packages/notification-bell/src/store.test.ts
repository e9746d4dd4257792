import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ContractServer, CSRF_TOKEN } from '../test/contract-server.js';
import { createHttpNotificationApi } from './api/http-api.js';
import { createMemoryNotificationApi } from './api/memory-api.js';
import { Notification } from './builder.js';
import { NotificationStore } from './store.js';
import type { NotificationErrorDetail } from './store.js';

let server: ContractServer;
beforeAll(async () => {
  server = await new ContractServer().listen();
});
afterAll(async () => {
  await server.close();
});

function recordEvents(target: EventTarget) {
  const events: Array<{ name: string; detail: unknown }> = [];
  for (const name of ['notification:marked-read', 'notification:all-marked-read', 'notification:received', 'notification:deleted', 'notification:all-deleted', 'notification:error']) {
    target.addEventListener(name, (event) => events.push({ name, detail: (event as CustomEvent).detail }));
  }
  return events;
}

function makeStore(perPage = 10) {
  const target = new EventTarget();
  const api = createHttpNotificationApi({ apiBase: server.url, csrfToken: () => CSRF_TOKEN });
  const store = new NotificationStore({ api, perPage, eventTarget: target });
  return { store, events: recordEvents(target) };
}

const ids = (store: NotificationStore) => store.items.map((item) => item.id);

describe('NotificationStore over the HTTP contract', () => {
  beforeEach(() => {
    server.reset([{ id: 'a' }, { id: 'b' }, { id: 'c', read_at: '2025-01-02T00:00:00Z' }, { id: 'd' }]);
  });

  it('loads page 1 newest first with the server count', async () => {
    const { store } = makeStore();
    await store.refresh();
    expect(ids(store)).toEqual(['d', 'c', 'b', 'a']);
    expect(store.unreadCount).toBe(3);
    expect(store.hasMore).toBe(false);
    expect(server.requests.at(-1)?.path).toBe('/notification/notifications.json?page=1&limit=10&status=all');
  });

  it('marks read optimistically, sends the CSRF header, takes the server count and fires marked-read', async () => {
    const { store, events } = makeStore();
    await store.refresh();
    server.mutationDelay = 100;
    const pending = store.markAsRead('b');
    // Optimistic: already read and counted down before the server answers.
    expect(store.items.find((item) => item.id === 'b')?.read_at).not.toBeNull();
    expect(store.unreadCount).toBe(2);
    await expect(pending).resolves.toBe(true);
    const patch = server.requests.find((request) => request.method === 'PATCH');
    expect(patch).toMatchObject({ path: '/notification/notifications/b/read.json', csrf: CSRF_TOKEN });
    expect(events).toContainEqual({ name: 'notification:marked-read', detail: { notificationId: 'b' } });
  });

  it('rolls a failed mark-read back and emits an error event with the server code', async () => {
    const { store, events } = makeStore();
    await store.refresh();
    server.failNext('PATCH', /\/b\/read\.json$/, 500, 'INTERNAL');
    await expect(store.markAsRead('b')).resolves.toBe(false);
    expect(store.items.find((item) => item.id === 'b')?.read_at).toBeNull();
    expect(store.unreadCount).toBe(3);
    const error = events.find((event) => event.name === 'notification:error')?.detail as NotificationErrorDetail;
    expect(error).toMatchObject({ operation: 'markAsRead', code: 'HTTP_ERROR', notificationId: 'b' });
    expect(events.some((event) => event.name === 'notification:marked-read')).toBe(false);
  });

  it('reports a missing CSRF token as the server CSRF_MISMATCH and rolls back', async () => {
    const target = new EventTarget();
    const events = recordEvents(target);
    const store = new NotificationStore({ api: createHttpNotificationApi({ apiBase: server.url, csrfToken: () => undefined }), eventTarget: target });
    await store.refresh();
    await store.markAllAsRead();
    expect(store.unreadCount).toBe(3);
    const error = events.find((event) => event.name === 'notification:error')?.detail as NotificationErrorDetail;
    expect(error.operation).toBe('markAllAsRead');
    expect((error.error as { serverCode?: string; status?: number }).serverCode).toBe('CSRF_MISMATCH');
    expect(store.items.filter((item) => item.read_at === null)).toHaveLength(3);
  });

  it('rolls back a failed delete to the same place', async () => {
    const { store } = makeStore();
    await store.refresh();
    server.failNext('DELETE', /\/b\.json$/, 503, 'UNAVAILABLE');
    await expect(store.deleteNotification('b')).resolves.toBe(false);
    expect(ids(store)).toEqual(['d', 'c', 'b', 'a']);
    expect(store.unreadCount).toBe(3);
  });

  it('deletes, marks all read and fires the matching events', async () => {
    const { store, events } = makeStore();
    await store.refresh();
    await store.deleteNotification('d');
    expect(ids(store)).toEqual(['c', 'b', 'a']);
    expect(store.unreadCount).toBe(2);
    await store.markAllAsRead();
    expect(store.unreadCount).toBe(0);
    expect(store.items.every((item) => item.read_at !== null)).toBe(true);
    expect(events.map((event) => event.name)).toEqual(['notification:deleted', 'notification:all-marked-read']);
    expect(server.unread()).toBe(0);
  });

  it('treats the server count as authoritative over local arithmetic', async () => {
    const { store } = makeStore();
    await store.refresh();
    // Someone else read two items on the server: the next poll corrects us.
    for (const row of server.rows) if (row.id !== 'a') row.read_at = '2025-02-01T00:00:00Z';
    await store.refresh();
    expect(store.unreadCount).toBe(1);
    // A pushed count wins too, even when it disagrees with what we hold.
    store.applyLiveEvent({ event: 'notification.marked-read', data: { notification_id: 'zzz', unread_count: 7 } });
    expect(store.unreadCount).toBe(7);
  });

  it('deduplicates by id across poll, push and local adds, and announces each arrival once', async () => {
    const { store, events } = makeStore();
    const arrivals: number[] = [];
    store.subscribe('arrivals', (count) => arrivals.push(count));
    await store.refresh();
    expect(arrivals).toEqual([]); // the first load is not "new"
    const row = server.create({ id: 'e', title: 'Pushed' });
    store.applyLiveEvent({ event: 'notification.created', data: { ...row, unread_count: 4 } });
    store.applyLiveEvent({ event: 'notification.created', data: { ...row, unread_count: 4 } });
    store.addNotification({ id: 'e', title: 'Pushed again locally' });
    await store.refresh();
    expect(ids(store).filter((id) => id === 'e')).toHaveLength(1);
    expect(store.unreadCount).toBe(4);
    expect(arrivals).toEqual([1]);
    expect(events.filter((event) => event.name === 'notification:received')).toHaveLength(1);
  });

  it('counts new rows found by a poll as arrivals', async () => {
    const { store } = makeStore();
    const arrivals: number[] = [];
    store.subscribe('arrivals', (count) => arrivals.push(count));
    await store.refresh();
    server.create({ id: 'p1' });
    server.create({ id: 'p2' });
    await store.refresh();
    expect(arrivals).toEqual([2]);
    expect(store.unreadCount).toBe(5);
  });

  it('loads more pages until has_next_page is false', async () => {
    server.reset(Array.from({ length: 25 }, (_, index) => ({ id: `n${index}` })));
    const { store } = makeStore(10);
    await store.refresh();
    expect(store.items).toHaveLength(10);
    expect(store.hasMore).toBe(true);
    await expect(store.loadMore()).resolves.toBe(10);
    await expect(store.loadMore()).resolves.toBe(5);
    expect(store.hasMore).toBe(false);
    expect(store.currentPage).toBe(3);
    await expect(store.loadMore()).resolves.toBe(0);
    expect(new Set(ids(store)).size).toBe(25);
  });

  it('keeps an item pushed while a page-1 request was in flight, and its count, when the older response lacks it', async () => {
    const api = createMemoryNotificationApi([{ id: 'old', title: 'Old', created_at: '2025-01-01T00:00:00Z' }]);
    let release = () => {};
    const list = api.list.bind(api);
    // The response is computed at once (before the push) but delivered only when released.
    api.list = async (query) => {
      const page = await list(query);
      await new Promise<void>((resolve) => (release = resolve));
      return page;
    };
    const store = new NotificationStore({ api, eventTarget: new EventTarget() });
    const refreshing = store.refresh();
    await new Promise((resolve) => setTimeout(resolve, 0));
    const pushed = api.insert({ id: 'new', title: 'New', created_at: '2025-02-01T00:00:00Z' });
    store.applyLiveEvent({ event: 'notification.created', data: { ...pushed, unread_count: 2 } });
    release();
    await refreshing;
    expect(ids(store)).toEqual(['new', 'old']);
    expect(store.unreadCount).toBe(2);
    // The next refresh, sent after the push, is the authority again.
    api.list = list;
    await store.refresh();
    expect(ids(store)).toEqual(['new', 'old']);
    expect(store.unreadCount).toBe(2);
  });

  /** A memory API whose list answers are computed at once but delivered only when released. */
  function gatedApi(seed: Parameters<typeof createMemoryNotificationApi>[0]) {
    const api = createMemoryNotificationApi(seed);
    const list = api.list.bind(api);
    const gate = { release: () => {}, gated: true };
    api.list = async (query) => {
      const page = await list(query);
      if (gate.gated) await new Promise<void>((resolve) => (gate.release = resolve));
      return page;
    };
    return { api, gate };
  }
  const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

  it('adds a count-less push that arrived during a page-1 request to the count that page reports', async () => {
    const { api, gate } = gatedApi(Array.from({ length: 8 }, (_, index) => ({ id: `u${index}`, title: 'Unread', created_at: `2025-01-0${index + 1}T00:00:00Z` })));
    const store = new NotificationStore({ api, perPage: 10, eventTarget: new EventTarget() });
    const refreshing = store.refresh();
    await tick();
    const pushed = api.insert({ id: 'pushed', title: 'New', created_at: '2025-02-01T00:00:00Z' });
    store.applyLiveEvent({ event: 'notification.created', data: { ...pushed } });
    gate.release();
    await refreshing;
    expect(store.unreadCount).toBe(9);
    expect(ids(store)[0]).toBe('pushed');
  });

  it('keeps a pushed count that arrived while a later page was loading', async () => {
    const { api, gate } = gatedApi(Array.from({ length: 15 }, (_, index) => ({ id: `n${index}`, title: 'Unread', created_at: new Date(Date.UTC(2025, 0, index + 1)).toISOString() })));
    gate.gated = false;
    const store = new NotificationStore({ api, perPage: 10, eventTarget: new EventTarget() });
    await store.refresh();
    expect(store.unreadCount).toBe(15);
    gate.gated = true;
    const loading = store.loadMore();
    await tick();
    const pushed = api.insert({ id: 'pushed', title: 'New', created_at: '2025-03-01T00:00:00Z' });
    store.applyLiveEvent({ event: 'notification.created', data: { ...pushed, unread_count: 16 } });
    gate.release();
    await loading;
    expect(store.unreadCount).toBe(16);
    expect(store.items).toHaveLength(16);
  });

  it('drops rows deleted elsewhere on resync but keeps local-only items', async () => {
    const { store } = makeStore();
    await store.refresh();
    store.addNotification({ id: 'local-1', title: 'Only here', created_at: '2030-01-01T00:00:00Z' });
    server.rows = server.rows.filter((row) => row.id !== 'b');
    await store.refresh();
    expect(ids(store)).toEqual(['local-1', 'd', 'c', 'a']);
  });

  it('reports a load failure as an error state and event, and recovers on the next refresh', async () => {
    const { store, events } = makeStore();
    server.failNext('GET', /notifications\.json$/, 500);
    await store.refresh();
    expect(store.error?.code).toBe('HTTP_ERROR');
    expect(events.find((event) => event.name === 'notification:error')?.detail).toMatchObject({ operation: 'load' });
    await store.refresh();
    expect(store.error).toBeNull();
    expect(store.items).toHaveLength(4);
  });

  it('applies pushed marked-read / deleted / marked-all-read once, ignoring echoes of its own actions', async () => {
    const { store, events } = makeStore();
    await store.refresh();
    await store.markAsRead('a');
    store.applyLiveEvent({ event: 'notification.marked-read', data: { notification_id: 'a', unread_count: 2 } });
    expect(events.filter((event) => event.name === 'notification:marked-read')).toHaveLength(1);
    store.applyLiveEvent({ event: 'notification.deleted', data: { notification_id: 'd', unread_count: 1 } });
    expect(ids(store)).toEqual(['c', 'b', 'a']);
    store.applyLiveEvent({ event: 'notification.marked-all-read', data: { unread_count: 0 } });
    expect(store.unreadCount).toBe(0);
    expect(store.items.every((item) => item.read_at !== null)).toBe(true);
  });

  it('applies a pushed all-deleted: server items go, page-local ones stay, count from the event, event fired once', async () => {
    const { store, events } = makeStore(2);
    await store.refresh();
    expect(store.hasMore).toBe(true);
    store.addNotification({ id: 'local', title: 'Only in this page' });
    store.applyLiveEvent({ event: 'notification.all-deleted', data: { deleted: 4, unread_count: 0 } });
    expect(ids(store)).toEqual(['local']);
    expect(store.unreadCount).toBe(0);
    expect(store.hasMore).toBe(false);
    store.applyLiveEvent({ event: 'notification.all-deleted', data: { deleted: 0, unread_count: 0 } });
    expect(events.filter((event) => event.name === 'notification:all-deleted')).toEqual([{ name: 'notification:all-deleted', detail: {} }]);
  });

  it('notifies unreadCount and items subscribers, and unsubscribes', async () => {
    const { store } = makeStore();
    const counts: number[] = [];
    let itemUpdates = 0;
    const stop = store.subscribe('unreadCount', (count) => counts.push(count));
    store.subscribe('items', () => itemUpdates++);
    await store.refresh();
    await store.markAsRead('a');
    stop();
    await store.markAsRead('b');
    expect(counts).toEqual([3, 2]);
    expect(itemUpdates).toBeGreaterThanOrEqual(3);
  });

  it('refuses invalid notifications with a typed error instead of corrupting state', () => {
    const { store } = makeStore();
    expect(() => store.addNotification({ title: 'no id' })).toThrowError(expect.objectContaining({ code: 'INVALID_NOTIFICATION' }));
    expect(() => store.addNotification('nope')).toThrowError(/must be an object/);
    // Pushed garbage is ignored, not thrown into the socket handler.
    store.applyLiveEvent({ event: 'notification.created', data: { nonsense: true } });
    expect(store.items).toHaveLength(0);
  });
});

describe('Notification builder and the in-memory API', () => {
  it('adds a local notification through the fluent builder', async () => {
    const store = new NotificationStore({ api: createMemoryNotificationApi(), eventTarget: new EventTarget() });
    const sent = Notification.make().title('Saved').message('Your draft is safe').actionUrl('/drafts/1').icon('check').send(store);
    expect(sent).toMatchObject({ title: 'Saved', message: 'Your draft is safe', action_url: '/drafts/1', icon: 'check', read_at: null });
    expect(store.items).toHaveLength(1);
    expect(store.unreadCount).toBe(1);
    // Local-only items are marked read without a server round trip.
    await expect(store.markAsRead(sent.id)).resolves.toBe(true);
    expect(store.unreadCount).toBe(0);
  });

  it('serves pages and authoritative counts from memory', async () => {
    const api = createMemoryNotificationApi([
      { id: '1', title: 'one', created_at: '2025-01-01T00:00:00Z' },
      { id: '2', title: 'two', created_at: '2025-01-02T00:00:00Z' },
    ]);
    const store = new NotificationStore({ api, perPage: 1, eventTarget: new EventTarget() });
    await store.refresh();
    expect(ids(store)).toEqual(['2']);
    expect(store.hasMore).toBe(true);
    await store.loadMore();
    expect(ids(store)).toEqual(['2', '1']);
    await store.markAsRead('1');
    expect(store.unreadCount).toBe(1);
    await expect(api.markRead('missing')).rejects.toMatchObject({ code: 'HTTP_ERROR', serverCode: 'NOT_FOUND', status: 404 });
  });

  it('toggles open state', () => {
    const store = new NotificationStore({ api: createMemoryNotificationApi(), eventTarget: new EventTarget() });
    store.toggle();
    expect(store.isOpen).toBe(true);
    store.toggle();
    expect(store.isOpen).toBe(false);
  });
});
