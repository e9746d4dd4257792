import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startApiServer } from '../../test/api-server.js';
import type { TestServer } from '../../test/api-server.js';
import { CSRF_TOKEN } from '../../test/api-server.js';
import { createHttpNotificationApi } from '../api/http-api.js';
import { createMemoryNotificationApi } from '../api/memory-api.js';
import { Notification } from '../builder.js';
import { NotificationBellError } from '../errors.js';
import type { AppNotification } from '../types.js';
import { GatedNetwork, settle } from './gated-network.js';
import { NotificationStore } from './notification-store.js';
import type { NotificationErrorDetail, StoreFailure } from './notification-store.js';

const EVENTS = [
  'notification:received',
  'notification:marked-read',
  'notification:marked-unread',
  'notification:archived',
  'notification:all-marked-read',
  'notification:deleted',
  'notification:all-deleted',
  'notification:error',
];

function recordEvents(target: EventTarget) {
  const events: Array<{ name: string; detail: unknown }> = [];
  for (const name of EVENTS) target.addEventListener(name, (event) => events.push({ name, detail: (event as CustomEvent).detail }));
  return events;
}

const ids = (items: readonly AppNotification[]) => items.map((item) => item.id);
const titles = (items: readonly AppNotification[]) => items.map((item) => item.title);

describe('NotificationStore against the real notifications API (PGlite)', () => {
  let server: TestServer;
  let rows: AppNotification[];

  beforeAll(async () => {
    server = await startApiServer();
  });
  afterAll(async () => {
    await server?.close();
  });
  beforeEach(async () => {
    // Newest first: d, c (read), b, a.
    rows = await server.seed([{ key: 'a' }, { key: 'b' }, { key: 'c', read_at: '2025-01-02T00:00:00.000Z' }, { key: 'd' }]);
  });

  function makeStore(perPage = 10, csrf = CSRF_TOKEN) {
    const target = new EventTarget();
    const failures: StoreFailure[] = [];
    const store = new NotificationStore({ api: createHttpNotificationApi({ apiBase: server.url, csrfToken: () => csrf || undefined }), perPage, eventTarget: target });
    store.subscribe('failure', (failure) => failures.push(failure));
    return { store, events: recordEvents(target), failures };
  }
  const row = (key: string) => rows.find((candidate) => candidate.title === `Notification ${key}`)!;

  it('loads page 1 newest first with the server count', async () => {
    const { store } = makeStore();
    await store.refresh();
    expect(titles(store.items)).toEqual(['Notification d', 'Notification c', 'Notification b', 'Notification a']);
    expect(store.unreadCount).toBe(3);
    expect(store.hasMore).toBe(false);
    expect(server.requests.at(-1)?.path).toMatch(/^\/notification\/notifications\.json\?page=1&limit=10&status=all$/);
  });

  it('marks read at once, sends the CSRF header, keeps the server count and fires marked-read', async () => {
    const { store, events } = makeStore();
    await store.refresh();
    server.mutationDelay = 100;
    const pending = store.markAsRead(row('b').id);
    expect(store.items.find((item) => item.id === row('b').id)?.read_at).not.toBeNull();
    expect(store.unreadCount).toBe(2);
    await expect(pending).resolves.toBe(true);
    expect(server.requests.find((request) => request.method === 'PATCH')).toMatchObject({ path: `/notification/notifications/${row('b').id}/read.json`, csrf: CSRF_TOKEN });
    expect(events).toContainEqual({ name: 'notification:marked-read', detail: { notificationId: row('b').id } });
    expect(await server.unreadCount()).toBe(2);
  });

  it('undoes a failed mark-read and reports it on the failure channel and as notification:error', async () => {
    const { store, events, failures } = makeStore();
    await store.refresh();
    server.failNext('PATCH', /read\.json$/, 500, 'INTERNAL_ERROR');
    await expect(store.markAsRead(row('a').id)).resolves.toBe(false);
    expect(store.items.find((item) => item.id === row('a').id)?.read_at).toBeNull();
    expect(store.unreadCount).toBe(3);
    expect(failures).toMatchObject([{ operation: 'markAsRead', notificationId: row('a').id, error: { status: 500, serverCode: 'INTERNAL_ERROR' } }]);
    expect(events.find((event) => event.name === 'notification:error')?.detail).toMatchObject({ operation: 'markAsRead', code: 'HTTP_ERROR', status: 500, notificationId: row('a').id });
  });

  it('fails a request that outlasts timeoutMs as NETWORK_ERROR and undoes it, so changes queued behind it are not held for good', async () => {
    const failures: StoreFailure[] = [];
    const store = new NotificationStore({ api: createHttpNotificationApi({ apiBase: server.url, csrfToken: () => CSRF_TOKEN, timeoutMs: 200 }), eventTarget: new EventTarget() });
    store.subscribe('failure', (failure) => failures.push(failure));
    await store.refresh();
    server.mutationDelay = 1_500;
    const marking = store.markAsRead(row('a').id);
    const deleting = store.deleteNotification(row('a').id);
    await expect(marking).resolves.toBe(false);
    expect(failures[0]).toMatchObject({ operation: 'markAsRead', error: { code: 'NETWORK_ERROR' } });
    expect(failures[0]?.error.message).toMatch(/timed out after 200 ms/);
    // The delete behind it was sent once the mark failed (and, as slow, times out as well).
    await expect(deleting).resolves.toBe(false);
    expect(server.requests.filter((request) => request.method !== 'GET').map((request) => request.method)).toEqual(['PATCH', 'DELETE']);
    // The server still acts on both, later; wait for it so the next test's seed is not disturbed.
    await expect.poll(async () => (await server.rows()).length, { timeout: 10_000 }).toBe(3);
  });

  it('refuses a timeoutMs that is not a positive number, naming it', () => {
    for (const timeoutMs of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => createHttpNotificationApi({ timeoutMs })).toThrow(expect.objectContaining({ code: 'INVALID_OPTION', message: expect.stringContaining('timeoutMs') }));
    }
  });

  it('reports a missing CSRF token as the server CSRF_MISMATCH and undoes the change', async () => {
    const { store, failures } = makeStore(10, '');
    await store.refresh();
    await expect(store.deleteNotification(row('a').id)).resolves.toBe(false);
    expect(ids(store.items)).toContain(row('a').id);
    expect(failures[0]?.error.serverCode).toBe('CSRF_MISMATCH');
    expect(await server.rows()).toHaveLength(4);
  });

  it('puts a failed delete back in the same place', async () => {
    const { store } = makeStore();
    await store.refresh();
    const before = ids(store.items);
    server.failNext('DELETE', /\.json$/, 503, 'UNAVAILABLE');
    await store.deleteNotification(row('b').id);
    expect(ids(store.items)).toEqual(before);
  });

  it('marks unread, archives and deletes all through the API, with the matching events and counts', async () => {
    const { store, events } = makeStore();
    await store.refresh();
    await expect(store.markAsUnread(row('c').id)).resolves.toBe(true);
    expect(store.unreadCount).toBe(4);
    expect(server.requests.at(-1)?.path).toBe(`/notification/notifications/${row('c').id}/unread.json`);
    await expect(store.archive(row('d').id)).resolves.toBe(true);
    expect(ids(store.items)).not.toContain(row('d').id);
    expect(store.unreadCount).toBe(3);
    expect((await server.rows()).find((stored) => stored.id === row('d').id)?.archived_at).not.toBeNull();
    await expect(store.deleteAll()).resolves.toBe(true);
    expect(store.items).toEqual([]);
    expect(store.unreadCount).toBe(0);
    expect(await server.rows()).toEqual([]);
    expect(events.map((event) => event.name)).toEqual(['notification:marked-unread', 'notification:archived', 'notification:all-deleted']);
  });

  it('lists Unread from unread.json, and an item read in "All" leaves "Unread" at once', async () => {
    const { store } = makeStore();
    await store.refresh('unread');
    expect(server.requests.at(-1)?.path).toMatch(/^\/notification\/notifications\/unread\.json\?page=1&limit=10$/);
    expect(titles(store.view('unread').items)).toEqual(['Notification d', 'Notification b', 'Notification a']);
    await store.refresh('all');
    void store.markAsRead(row('d').id);
    expect(titles(store.view('unread').items)).toEqual(['Notification b', 'Notification a']);
    expect(titles(store.view('all').items)).toContain('Notification d');
  });

  it('marks all read and fires all-marked-read once', async () => {
    const { store, events } = makeStore();
    await store.refresh();
    await expect(store.markAllAsRead()).resolves.toBe(true);
    expect(store.items.every((item) => item.read_at !== null)).toBe(true);
    expect(store.unreadCount).toBe(0);
    expect(events.filter((event) => event.name === 'notification:all-marked-read')).toHaveLength(1);
  });

  it('loads more pages until there are no more, without skipping items deleted meanwhile', async () => {
    const { store } = makeStore(2);
    await store.refresh();
    expect(titles(store.items)).toEqual(['Notification d', 'Notification c']);
    expect(store.hasMore).toBe(true);
    // Deleting a loaded item shifts the server's offsets; the next page must still start after "c".
    await store.deleteNotification(row('d').id);
    await expect(store.loadMore()).resolves.toBe(2);
    expect(titles(store.items)).toEqual(['Notification c', 'Notification b', 'Notification a']);
    expect(store.hasMore).toBe(false);
  });

  it('re-checks everything shown on refresh without lengthening the list', async () => {
    const { store } = makeStore(2);
    await store.refresh();
    expect(titles(store.items)).toEqual(['Notification d', 'Notification c']);
    await store.refresh();
    // The refresh asked for 4 rows (shown + a page) but the list still ends where it did.
    expect(server.requests.at(-1)?.path).toContain('limit=4');
    expect(titles(store.items)).toEqual(['Notification d', 'Notification c']);
    expect(store.hasMore).toBe(true);
    await expect(store.loadMore()).resolves.toBe(2);
    expect(titles(store.items)).toEqual(['Notification d', 'Notification c', 'Notification b', 'Notification a']);
    expect(store.hasMore).toBe(false);
  });

  it('finds new items by polling: notification:received for each and an arrivals count', async () => {
    const { store, events } = makeStore();
    const arrivals: number[] = [];
    store.subscribe('arrivals', (count) => arrivals.push(count));
    await store.refresh();
    const created = await server.create({ key: 'e' }, { broadcast: false });
    await store.refresh();
    expect(ids(store.items)[0]).toBe(created.id);
    expect(events.filter((event) => event.name === 'notification:received').map((event) => (event.detail as AppNotification).id)).toEqual([created.id]);
    expect(arrivals).toEqual([1]);
    // The first load is not an arrival.
    expect(store.unreadCount).toBe(4);
  });

  it('keeps the list and says it is stale when a poll fails, and clears that on the next success', async () => {
    const { store } = makeStore();
    await store.refresh();
    server.failNext('GET', /notifications\.json/, 502, 'BAD_GATEWAY');
    await store.refresh();
    expect(store.items).toHaveLength(4);
    expect(store.syncError?.status).toBe(502);
    expect(store.error).toBeNull();
    await store.refresh();
    expect(store.syncError).toBeNull();
  });

  it('tells a 401 apart: signedOut until a load succeeds', async () => {
    const { store } = makeStore();
    server.signedIn = false;
    await store.refresh();
    expect(store.signedOut).toBe(true);
    expect(store.error?.status).toBe(401);
    server.signedIn = true;
    await store.refresh();
    expect(store.signedOut).toBe(false);
    expect(store.items).toHaveLength(4);
  });

  it('drops rows deleted elsewhere on resync but keeps page-local items', async () => {
    const { store } = makeStore();
    await store.refresh();
    store.addNotification({ id: 'local-1', title: 'Local', created_at: '2020-01-01T00:00:00.000Z' });
    await server.store.delete('1', row('a').id);
    await store.refresh();
    expect(ids(store.items)).not.toContain(row('a').id);
    expect(ids(store.items)).toContain('local-1');
  });
});

describe('NotificationStore with changes from elsewhere', () => {
  function setup(seed = 3) {
    const network = new GatedNetwork();
    network.direct = true;
    for (let index = 1; index <= seed; index += 1) network.server.insert({ id: `s${index}`, title: `n${index}`, created_at: new Date(Date.UTC(2026, 0, 1, 0, index)).toISOString() });
    const target = new EventTarget();
    const store = new NotificationStore({ api: network.api, eventTarget: target });
    return { network, store, events: recordEvents(target) };
  }

  it('keeps an item pushed while a page-1 request was in flight, and its count, when the older answer lacks it', async () => {
    const { network, store } = setup();
    network.direct = false;
    const refresh = store.refresh();
    await network.arrive(0);
    store.applyLiveEvent({ event: 'notification.created', data: { id: 'pushed', title: 'pushed', created_at: new Date(Date.UTC(2026, 0, 2)).toISOString(), unread_count: 4 } });
    await network.answer(0);
    await refresh;
    expect(ids(store.items)).toEqual(['pushed', 's3', 's2', 's1']);
    expect(store.unreadCount).toBe(4);
  });

  it('does not let an older page undo a delete or a count that changed after it was asked for', async () => {
    const { network, store } = setup();
    await store.refresh();
    network.direct = false;
    const poll = store.refresh();
    await network.arrive(0); // the poll's answer still lists s3
    store.applyLiveEvent({ event: 'notification.deleted', data: { notification_id: 's3', unread_count: 2 } });
    await network.answer(0);
    await poll;
    expect(ids(store.items)).toEqual(['s2', 's1']);
    expect(store.unreadCount).toBe(2);
  });

  it('applies pushed changes once and keeps echoes of its own changes silent', async () => {
    const { store, events } = setup();
    await store.refresh();
    await store.markAsRead('s2');
    store.applyLiveEvent({ event: 'notification.marked-read', data: { notification_id: 's2', unread_count: 2 } });
    store.applyLiveEvent({ event: 'notification.marked-read', data: { notification_id: 's1', unread_count: 1 } });
    store.applyLiveEvent({ event: 'notification.marked-read', data: { notification_id: 's1', unread_count: 1 } });
    store.applyLiveEvent({ event: 'notification.deleted', data: { notification_id: 's3', unread_count: 0 } });
    expect(events.map((event) => [event.name, (event.detail as { notificationId?: string }).notificationId])).toEqual([
      ['notification:marked-read', 's2'],
      ['notification:marked-read', 's1'],
      ['notification:deleted', 's3'],
    ]);
    expect(store.unreadCount).toBe(0);
  });

  it('applies a pushed all-deleted: server items go, page-local ones stay (and count), one event', async () => {
    const { store, events } = setup();
    await store.refresh();
    store.addNotification({ id: 'local', title: 'local' });
    store.applyLiveEvent({ event: 'notification.all-deleted', data: { unread_count: 0 } });
    store.applyLiveEvent({ event: 'notification.all-deleted', data: { unread_count: 0 } });
    expect(ids(store.items)).toEqual(['local']);
    // The server's count does not know the page-local item; the badge does.
    expect(store.unreadCount).toBe(1);
    expect(events.filter((event) => event.name === 'notification:all-deleted')).toHaveLength(1);
  });

  it('deduplicates by id across poll, push and local adds, and announces each arrival once', async () => {
    const { network, store } = setup(1);
    const arrivals: number[] = [];
    store.subscribe('arrivals', (count) => arrivals.push(count));
    await store.refresh();
    const fresh = { id: 's9', title: 'new', created_at: new Date(Date.UTC(2026, 0, 3)).toISOString() };
    network.server.insert(fresh);
    store.applyLiveEvent({ event: 'notification.created', data: { ...fresh, unread_count: 2 } });
    store.addNotification(fresh);
    await store.refresh();
    expect(ids(store.items)).toEqual(['s9', 's1']);
    expect(arrivals).toEqual([1]);
    expect(store.unreadCount).toBe(2);
  });

  it('treats a delete of something already gone (404) as done, and a mark-read of it as gone', async () => {
    const { network, store, events } = setup();
    await store.refresh();
    await network.server.remove('s3');
    await network.server.remove('s2');
    await expect(store.deleteNotification('s3')).resolves.toBe(true);
    await expect(store.markAsRead('s2')).resolves.toBe(false);
    expect(ids(store.items)).toEqual(['s1']);
    expect(events.filter((event) => event.name === 'notification:error').map((event) => (event.detail as NotificationErrorDetail).operation)).toEqual(['markAsRead']);
  });

  it('asks again after a live event when the refresh in flight may predate it (review R2)', async () => {
    const { network, store } = setup();
    await store.archive('s3');
    network.direct = false;
    const poll = store.refresh();
    await network.arrive(0); // answered while s3 is still archived
    network.server.rows.find((row) => row.id === 's3')!.archived_at = null;
    store.applyLiveEvent({ event: 'notification.unarchived', data: { notification_id: 's3', unread_count: 3 } });
    await network.answer(0);
    await poll;
    expect(network.travelling).toHaveLength(1); // the resync, sent once the older refresh ended
    await network.arrive(0);
    await network.answer(0);
    expect(ids(store.items)).toEqual(['s3', 's2', 's1']);
  });

  it('does not announce old items as new after the user emptied the list, and fills it again (review R3)', async () => {
    const network = new GatedNetwork();
    network.direct = true;
    for (let index = 1; index <= 15; index += 1) network.server.insert({ id: `s${index}`, title: `n${index}`, created_at: new Date(Date.UTC(2026, 0, 1, 0, index)).toISOString() });
    const target = new EventTarget();
    const events = recordEvents(target);
    const store = new NotificationStore({ api: network.api, eventTarget: target, perPage: 10 });
    const arrivals: number[] = [];
    store.subscribe('arrivals', (count) => arrivals.push(count));
    await store.refresh();
    for (const item of [...store.items]) await store.deleteNotification(item.id);
    await store.refresh();
    expect(ids(store.items)).toEqual(['s5', 's4', 's3', 's2', 's1']);
    expect(arrivals).toEqual([]);
    expect(events.filter((event) => event.name === 'notification:received')).toEqual([]);
  });

  describe('a change to an item whose change is in flight', () => {
    function setupWatched() {
      const setUp = setup();
      const failures: StoreFailure[] = [];
      setUp.store.subscribe('failure', (failure) => failures.push(failure));
      return { ...setUp, failures };
    }
    const errors = (events: Array<{ name: string }>) => events.filter((event) => event.name === 'notification:error');
    const listed = (network: GatedNetwork) => network.server.rows.filter((row) => row.archived_at === null).map((row) => row.id);

    it.each(['delete', 'archive'] as const)('a %s is shown at once and sent once the mark-read is answered, whatever the answers say', async (removal) => {
      const { network, store, events, failures } = setupWatched();
      await store.refresh();
      network.direct = false;
      const marking = store.markAsRead('s2');
      const removing = removal === 'delete' ? store.deleteNotification('s2') : store.archive('s2');
      expect(ids(store.items)).toEqual(['s3', 's1']);
      expect(store.unreadCount).toBe(2);
      expect(network.travelling.map((call) => call.name)).toEqual(['markRead']);
      await network.arrive(0);
      await network.answer(0);
      await expect(marking).resolves.toBe(true);
      // The mark's answer (s2 read and listed) does not bring the item back while its removal is in flight.
      expect(ids(store.items)).toEqual(['s3', 's1']);
      expect(network.travelling.map((call) => call.name)).toEqual([removal === 'delete' ? 'remove' : 'archive']);
      await network.arrive(0);
      await network.answer(0);
      await expect(removing).resolves.toBe(true);
      expect(ids(store.items)).toEqual(['s3', 's1']);
      expect(store.unreadCount).toBe(2);
      expect(listed(network)).toEqual(['s3', 's1']);
      expect(failures).toEqual([]);
      expect(errors(events)).toEqual([]);
      network.direct = true;
      await store.refresh();
      expect(ids(store.items)).toEqual(['s3', 's1']);
      expect(store.unreadCount).toBe(2);
    });

    it('read, unread, read in quick succession: each shown at once, the server sees them in order', async () => {
      const { network, store, failures } = setupWatched();
      await store.refresh();
      network.direct = false;
      const presses = [store.markAsRead('s2'), store.markAsUnread('s2'), store.markAsRead('s2')];
      expect(store.items.find((item) => item.id === 's2')?.read_at).not.toBeNull();
      expect(store.unreadCount).toBe(2);
      for (const expected of ['markRead', 'markUnread', 'markRead']) {
        expect(network.travelling.map((call) => call.name)).toEqual([expected]);
        await network.arrive(0);
        await network.answer(0);
      }
      expect(await Promise.all(presses)).toEqual([true, true, true]);
      expect(network.server.rows.find((row) => row.id === 's2')?.read_at).not.toBeNull();
      expect(store.items.find((item) => item.id === 's2')?.read_at).not.toBeNull();
      expect(store.unreadCount).toBe(2);
      expect(failures).toEqual([]);
    });

    it('a delete waiting behind a mark-read of an item deleted elsewhere: no failure is reported, the delete counts as done', async () => {
      const { network, store, events, failures } = setupWatched();
      await store.refresh();
      network.direct = false;
      const marking = store.markAsRead('s2');
      const removing = store.deleteNotification('s2');
      await network.server.remove('s2');
      await network.arrive(0);
      await network.answer(0); // 404: the item is gone, as the user already sees
      await expect(marking).resolves.toBe(false);
      await network.arrive(0);
      await network.answer(0); // 404 again: deleting what is gone is done
      await expect(removing).resolves.toBe(true);
      expect(ids(store.items)).toEqual(['s3', 's1']);
      expect(store.unreadCount).toBe(2);
      expect(failures).toEqual([]);
      expect(errors(events)).toEqual([]);
    });

    /** Lets every request reach the server and answer, one at a time, in the order sent; the names in that order. */
    async function drainInOrder(network: GatedNetwork): Promise<string[]> {
      const sent: string[] = [];
      for (let step = 0; step < 20 && (network.travelling.length > 0 || network.answered.length > 0); step += 1) {
        if (network.travelling.length > 0) {
          sent.push(network.travelling[0]!.name);
          await network.arrive(0);
        } else await network.answer(0);
      }
      return sent;
    }
    const unreadOnServer = (network: GatedNetwork) => network.server.rows.filter((row) => row.read_at === null).map((row) => row.id);

    it('read, unread, then mark all as read: the mark-all waits for the queued unread, so all ends read (review R1)', async () => {
      const { network, store, failures } = setupWatched();
      await store.refresh();
      network.direct = false;
      const presses = [store.markAsRead('s2'), store.markAsUnread('s2'), store.markAllAsRead()];
      expect(store.unreadCount).toBe(0);
      expect(await drainInOrder(network)).toEqual(['markRead', 'markUnread', 'markAllRead']);
      expect(await Promise.all(presses)).toEqual([true, true, true]);
      expect(unreadOnServer(network)).toEqual([]);
      expect(store.unreadCount).toBe(0);
      expect(store.items.every((item) => item.read_at !== null)).toBe(true);
      expect(failures).toEqual([]);
    });

    it('mark read, then delete all: the earlier answer does not keep the item on screen (review P1)', async () => {
      const { network, store, failures } = setupWatched();
      await store.refresh();
      network.direct = false;
      const presses = [store.markAsRead('s1'), store.deleteAll()];
      expect(store.items).toEqual([]);
      expect(await drainInOrder(network)).toEqual(['markRead', 'removeAll']);
      expect(await Promise.all(presses)).toEqual([true, true]);
      expect(store.items).toEqual([]);
      expect(store.unreadCount).toBe(0);
      expect(network.server.rows).toEqual([]);
      expect(failures).toEqual([]);
    });

    it.each(['deleteAll', 'markAllAsRead'] as const)('a page-local item added while a %s waits its turn is left as it is (review N1)', async (bulk) => {
      const { network, store } = setupWatched();
      await store.refresh();
      network.direct = false;
      const presses = [store.markAsRead('s1'), store[bulk]()];
      store.addNotification({ id: 'local', title: 'Added in the page', created_at: new Date(Date.UTC(2026, 0, 5)).toISOString() });
      expect(await drainInOrder(network)).toEqual(['markRead', bulk === 'deleteAll' ? 'removeAll' : 'markAllRead']);
      await Promise.all(presses);
      const local = store.items.find((item) => item.id === 'local');
      expect(local?.read_at).toBeNull();
      expect(ids(store.items)).toEqual(bulk === 'deleteAll' ? ['local'] : ['local', 's3', 's2', 's1']);
      expect(store.unreadCount).toBe(1);
    });

    it('a change to an item made after a mark-all is sent after it', async () => {
      const { network, store } = setupWatched();
      await store.refresh();
      network.direct = false;
      const presses = [store.markAllAsRead(), store.markAsUnread('s2')];
      expect(store.unreadCount).toBe(1);
      expect(network.travelling.map((call) => call.name)).toEqual(['markAllRead']);
      expect(await drainInOrder(network)).toEqual(['markAllRead', 'markUnread']);
      expect(await Promise.all(presses)).toEqual([true, true]);
      expect(unreadOnServer(network)).toEqual(['s2']);
      expect(store.unreadCount).toBe(1);
    });

    it('a change waiting behind one that failed is still sent', async () => {
      const { network, store, failures } = setupWatched();
      await store.refresh();
      network.direct = false;
      // Another item's change is not held up by this one.
      const other = store.markAsRead('s1');
      const marking = store.markAsRead('s2');
      const removing = store.deleteNotification('s2');
      expect(network.travelling.map((call) => call.name)).toEqual(['markRead', 'markRead']);
      // The mark-read fails on the way (not a 404): it is undone, and the delete behind it is sent.
      const [mark] = network.travelling.splice(1, 1);
      mark!.settle({ ok: false, error: new NotificationBellError('HTTP_ERROR', 'Service unavailable.', { status: 503 }) });
      await expect(marking).resolves.toBe(false);
      expect(ids(store.items)).toEqual(['s3', 's1']);
      expect(network.travelling.map((call) => call.name)).toEqual(['markRead', 'remove']);
      await network.arrive(1);
      await network.answer(0);
      await expect(removing).resolves.toBe(true);
      await network.arrive(0);
      await network.answer(0);
      await expect(other).resolves.toBe(true);
      expect(listed(network)).toEqual(['s3', 's1']);
      expect(store.unreadCount).toBe(1);
      expect(failures.map((failure) => failure.operation)).toEqual(['markAsRead']);
    });
  });

  it('keeps an item another device marked unread while our mark-read was in flight unread (review R6)', async () => {
    const { network, store } = setup(1);
    await store.refresh();
    network.direct = false;
    const marking = store.markAsRead('s1');
    await network.arrive(0); // ours reaches the server first
    const theirs = await network.server.markUnread('s1');
    store.applyLiveEvent({ event: 'notification.marked-unread', data: { notification_id: 's1', unread_count: theirs.unreadCount } });
    await network.answer(0);
    await marking;
    expect(store.items[0]?.read_at).toBeNull();
    expect(store.unreadCount).toBe(1);
  });

  it('counts unread page-local items on top of the server count, and deletes them with delete all (review R4, R5)', async () => {
    const { store } = setup(2);
    await store.refresh();
    store.addNotification({ id: 'local', title: 'local', created_at: new Date(Date.UTC(2026, 0, 5)).toISOString() });
    await store.refresh();
    expect(store.unreadCount).toBe(3);
    await store.markAsRead('local');
    expect(store.unreadCount).toBe(2);
    await store.markAsUnread('local');
    await store.deleteAll();
    expect(store.items).toEqual([]);
    expect(store.unreadCount).toBe(0);
  });

  it('stays signed out through a network failure; only a success clears it (review R7)', async () => {
    const { network, store } = setup();
    const list = network.api.list;
    let answer: 'ok' | 401 | 'offline' = 401;
    network.api.list = async (request) => {
      if (answer === 401) throw new NotificationBellError('HTTP_ERROR', 'signed out', { status: 401 });
      if (answer === 'offline') throw new NotificationBellError('NETWORK_ERROR', 'offline');
      return list(request);
    };
    await store.refresh();
    expect(store.signedOut).toBe(true);
    answer = 'offline';
    await store.refresh();
    expect(store.signedOut).toBe(true);
    answer = 'ok';
    await store.refresh();
    expect(store.signedOut).toBe(false);
  });

  it('refuses invalid notifications with a typed error instead of corrupting state', () => {
    const { store } = setup(0);
    for (const bad of [null, 'x', { title: 'no id' }, { id: '', title: 't' }, { id: 'x', title: 5 }]) {
      expect(() => store.addNotification(bad)).toThrow(expect.objectContaining({ code: 'INVALID_NOTIFICATION' }) as Error);
    }
    store.applyLiveEvent({ event: 'notification.created', data: { id: 7 } });
    expect(store.items).toEqual([]);
  });

  it('never keeps an unsafe URL from data, whatever the source', async () => {
    const { store } = setup(0);
    store.addNotification({ id: 'x', title: 't', action_url: 'javascript:alert(1)', actions: [{ name: 'a', label: 'A', url: ' JaVaScRiPt:alert(1)', event: 'go' }] });
    expect(store.items[0]?.action_url).toBeNull();
    expect(store.items[0]?.actions[0]).toEqual({ name: 'a', label: 'A', event: 'go' });
  });

  it('adds a local notification through the fluent builder', () => {
    const { store } = setup(0);
    new Notification().title('Built').message('by the builder').actionUrl('/x').send(store);
    expect(store.items[0]).toMatchObject({ title: 'Built', message: 'by the builder', action_url: '/x' });
  });

  it('notifies subscribers and stops after unsubscribing', async () => {
    const { store } = setup();
    const counts: number[] = [];
    const unsubscribe = store.subscribe('unreadCount', (count) => counts.push(count));
    await store.refresh();
    unsubscribe();
    await store.markAsRead('s1');
    expect(counts).toEqual([3]);
  });

  it('serves pages, cursors and authoritative counts from memory', async () => {
    const api = createMemoryNotificationApi([
      { id: '1', title: 'one', created_at: '2026-01-01T00:00:00Z' },
      { id: '2', title: 'two', created_at: '2026-01-02T00:00:00Z' },
      { id: '3', title: 'three', created_at: '2026-01-03T00:00:00Z', read_at: '2026-01-04T00:00:00Z' },
    ]);
    const first = await api.list({ page: 1, limit: 2 });
    expect(ids(first.notifications)).toEqual(['3', '2']);
    expect(first.unreadCount).toBe(2);
    const next = await api.list({ page: 2, limit: 2, before: first.nextCursor! });
    expect(ids(next.notifications)).toEqual(['1']);
    expect(ids((await api.list({ page: 1, limit: 5, filter: 'unread' })).notifications)).toEqual(['2', '1']);
    await api.archive('2');
    expect((await api.list({ page: 1, limit: 5 })).unreadCount).toBe(1);
  });

  it('shows one list while its first load is in flight without inventing an error', async () => {
    const { network, store } = setup();
    network.direct = false;
    void store.refresh();
    expect(store.view('all')).toMatchObject({ isLoading: true, hasLoaded: false, error: null });
    await network.arrive(0);
    await network.answer(0);
    await settle();
    expect(store.view('all')).toMatchObject({ isLoading: false, hasLoaded: true });
  });
});
