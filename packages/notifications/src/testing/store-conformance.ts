import { randomUUID } from 'node:crypto';
import type { NormalizedContent } from '../content-schema.js';
import type { ListQuery, NewNotification, NotificationStorage } from '../store/notification-storage.js';
import type { TestRunner } from './test-runner.js';

/** Content with every field defaulted, for tests. */
export function content(overrides: Partial<NormalizedContent> = {}): NormalizedContent {
  return {
    type: 'comment',
    title: 'New comment',
    message: null,
    action_url: null,
    icon: null,
    icon_class: null,
    actions: [],
    data: {},
    ...overrides,
  };
}

/** A schema name no other test run will use, so parallel runs never clash. */
export function uniqueSchema(prefix: string): string {
  return `notif_${prefix}_${process.pid}_${randomUUID().slice(0, 8)}`;
}

/**
 * The behaviour every NotificationStorage must have. This package runs it against PGlite always and
 * against PostgreSQL when DATABASE_URL is set; a store of your own runs it too.
 */
export function runStoreConformance(runner: TestRunner, name: string, open: () => Promise<NotificationStorage>, teardown: () => Promise<void> = async () => {}): void {
  const { afterAll, beforeAll, describe, expect, it } = runner;
  describe(`NotificationStorage conformance: ${name}`, () => {
    let store: NotificationStorage;
    const add = (userId: string, c: Partial<NewNotification> = {}) => store.create({ ...content(), userId, ...c });

    beforeAll(async () => {
      store = await open();
    });
    afterAll(async () => {
      await store?.close();
      await teardown();
    });

    it('creates a notification and returns the wire shape with a UUID id and ISO timestamps', async () => {
      const n = await add('create-u', {
        title: 'Hello',
        message: 'World',
        action_url: '/posts/1',
        icon: 'post',
        icon_class: 'fa fa-x',
        actions: [{ name: 'open', label: 'Open', url: '/posts/1', type: 'info' }],
        data: { post: 1, nested: { ok: true } },
      });
      expect(n.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(n).toMatchObject({
        type: 'comment',
        title: 'Hello',
        message: 'World',
        action_url: '/posts/1',
        icon: 'post',
        icon_class: 'fa fa-x',
        actions: [{ name: 'open', label: 'Open', url: '/posts/1', type: 'info' }],
        data: { post: 1, nested: { ok: true } },
        read_at: null,
        archived_at: null,
      });
      expect(new Date(n.created_at).toISOString()).toBe(n.created_at);
      expect(await store.get('create-u', n.id)).toEqual(n);
    });

    it('keeps a caller-chosen UUID id', async () => {
      const id = randomUUID();
      const n = await add('id-u', { id });
      expect(n.id).toBe(id);
    });

    it('lists newest first with page/limit and counts the total over all pages', async () => {
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) ids.push((await add('list-u', { title: `n${i}` })).id);
      const first = await store.list('list-u', { page: 1, limit: 2, status: 'all' });
      expect(first.total).toBe(5);
      expect(first.items.map((n) => n.title)).toEqual(['n4', 'n3']);
      const last = await store.list('list-u', { page: 3, limit: 2, status: 'all' });
      expect(last.items.map((n) => n.title)).toEqual(['n0']);
      const beyond = await store.list('list-u', { page: 9, limit: 2, status: 'all' });
      expect(beyond).toEqual({ items: [], total: 5, nextCursor: null, hasMore: false });
    });

    it('pages by cursor: the page after a cursor is unshifted by rows deleted or added meanwhile', async () => {
      for (let i = 0; i < 5; i++) await add('cursor-u', { title: `n${i}` });
      const first = await store.list('cursor-u', { page: 1, limit: 2, status: 'all' });
      expect(first.items.map((n) => n.title)).toEqual(['n4', 'n3']);
      expect(first.hasMore).toBe(true);
      // Offsets would now skip n2: page 2 of what is left starts at n1.
      await store.delete('cursor-u', first.items[0]!.id);
      await add('cursor-u', { title: 'n5' });
      const second = await store.list('cursor-u', { page: 2, limit: 2, status: 'all', before: first.nextCursor! });
      expect(second.items.map((n) => n.title)).toEqual(['n2', 'n1']);
      expect(second.hasMore).toBe(true);
      const third = await store.list('cursor-u', { page: 3, limit: 2, status: 'all', before: second.nextCursor! });
      expect(third.items.map((n) => n.title)).toEqual(['n0']);
      expect(third.hasMore).toBe(false);
      await expect(store.list('cursor-u', { page: 1, limit: 2, status: 'all', before: 'not-a-cursor' })).rejects.toMatchObject({ code: 'INVALID_PARAMETER' });
      for (const before of ['99999999999999999.9999999999999999999', '1.99999999999999999999', '-1234567890123456789.1']) {
        await expect(store.list('cursor-u', { page: 1, limit: 2, status: 'all', before })).rejects.toMatchObject({ code: 'INVALID_PARAMETER' });
      }
    });

    it('gives a usable cursor at the ends of the accepted createdAt range', async () => {
      const late = await add('range-u', { title: 'late', createdAt: '9999-12-31T23:59:59.999Z' });
      await add('range-u', { title: 'early', createdAt: '0001-01-01T00:00:00.000Z' });
      const first = await store.list('range-u', { page: 1, limit: 1, status: 'all' });
      expect(first.items.map((n) => n.id)).toEqual([late.id]);
      const rest = await store.list('range-u', { page: 2, limit: 1, status: 'all', before: first.nextCursor! });
      expect(rest.items.map((n) => n.title)).toEqual(['early']);
      expect((await store.list('range-u', { page: 3, limit: 1, status: 'all', before: rest.nextCursor! })).items).toEqual([]);
    });

    it('orders rows created in the same instant by insertion, and a cursor keeps that order', async () => {
      const at = '2026-01-01T00:00:00.000Z';
      for (let i = 0; i < 3; i++) await add('tie-u', { title: `t${i}`, createdAt: at });
      const first = await store.list('tie-u', { page: 1, limit: 1, status: 'all' });
      const rest = await store.list('tie-u', { page: 2, limit: 5, status: 'all', before: first.nextCursor! });
      expect([...first.items, ...rest.items].map((n) => n.title)).toEqual(['t2', 't1', 't0']);
    });

    it('filters by read status and type', async () => {
      const a = await add('filter-u', { type: 'a' });
      await add('filter-u', { type: 'b' });
      await add('filter-u', { type: 'a' });
      await store.markRead('filter-u', a.id);
      expect((await store.list('filter-u', { page: 1, limit: 10, status: 'read' })).items.map((n) => n.id)).toEqual([a.id]);
      expect((await store.list('filter-u', { page: 1, limit: 10, status: 'unread' })).total).toBe(2);
      expect((await store.list('filter-u', { page: 1, limit: 10, status: 'all', type: 'a' })).total).toBe(2);
      expect((await store.list('filter-u', { page: 1, limit: 10, status: 'unread', type: 'a' })).total).toBe(1);
    });

    it("never returns, marks or deletes another user's notification", async () => {
      const mine = await add('owner');
      expect(await store.get('intruder', mine.id)).toBeNull();
      expect(await store.markRead('intruder', mine.id)).toBeNull();
      expect(await store.markUnread('intruder', mine.id)).toBeNull();
      expect(await store.archive('intruder', mine.id)).toBeNull();
      expect(await store.unarchive('intruder', mine.id)).toBeNull();
      expect(await store.delete('intruder', mine.id)).toBe(false);
      expect(await store.markAllRead('intruder')).toBe(0);
      expect(await store.deleteAll('intruder')).toBe(0);
      expect(await store.get('owner', mine.id)).toMatchObject({ id: mine.id, read_at: null, archived_at: null });
    });

    it('treats a malformed id as not found instead of raising a database error', async () => {
      expect(await store.get('u', 'not-a-uuid')).toBeNull();
      expect(await store.markRead('u', "1' OR '1'='1")).toBeNull();
      for (const op of ['markUnread', 'archive', 'unarchive'] as const) expect(await store[op]('u', 'x')).toBeNull();
      expect(await store.delete('u', '')).toBe(false);
    });

    it('marks one read idempotently and reports whether it changed', async () => {
      const n = await add('read-u');
      const first = await store.markRead('read-u', n.id);
      expect(first?.changed).toBe(true);
      expect(first?.notification.read_at).not.toBeNull();
      const second = await store.markRead('read-u', n.id);
      expect(second?.changed).toBe(false);
      expect(second?.notification.read_at).toBe(first?.notification.read_at);
      expect(await store.unreadCount('read-u')).toBe(0);
    });

    it('marks all read and counts only those that were unread', async () => {
      const a = await add('all-u');
      await add('all-u');
      await add('all-u');
      await store.markRead('all-u', a.id);
      expect(await store.unreadCount('all-u')).toBe(2);
      expect(await store.markAllRead('all-u')).toBe(2);
      expect(await store.unreadCount('all-u')).toBe(0);
      expect(await store.markAllRead('all-u')).toBe(0);
    });

    it('deletes one and deletes all for the user only', async () => {
      const a = await add('del-u');
      await add('del-u');
      const other = await add('del-other');
      expect(await store.delete('del-u', a.id)).toBe(true);
      expect(await store.delete('del-u', a.id)).toBe(false);
      expect(await store.deleteAll('del-u')).toBe(1);
      expect((await store.list('del-u', { page: 1, limit: 10, status: 'all' })).total).toBe(0);
      expect(await store.get('del-other', other.id)).not.toBeNull();
    });

    it('marks one unread idempotently and counts it again', async () => {
      const n = await add('unread-u');
      await store.markRead('unread-u', n.id);
      expect(await store.unreadCount('unread-u')).toBe(0);
      const first = await store.markUnread('unread-u', n.id);
      expect(first).toEqual({ notification: { ...n, read_at: null }, changed: true });
      expect(await store.markUnread('unread-u', n.id)).toEqual({ notification: { ...n, read_at: null }, changed: false });
      expect(await store.unreadCount('unread-u')).toBe(1);
    });

    it('archives idempotently: out of default lists and of the unread count, still readable by id', async () => {
      const [a, b, c] = [await add('arch-u', { title: 'a' }), await add('arch-u', { title: 'b' }), await add('arch-u', { title: 'c' })];
      await store.markRead('arch-u', c.id);
      const archived = await store.archive('arch-u', a.id);
      expect(archived?.changed).toBe(true);
      expect(new Date(archived?.notification.archived_at ?? '').toISOString()).toBe(archived?.notification.archived_at);
      expect(archived?.notification.read_at).toBeNull();
      const again = await store.archive('arch-u', a.id);
      expect(again).toEqual({ notification: archived?.notification, changed: false });
      expect(await store.get('arch-u', a.id)).toEqual(archived?.notification);
      expect(await store.unreadCount('arch-u')).toBe(1);
      const titles = async (q: Partial<ListQuery>) => (await store.list('arch-u', { page: 1, limit: 10, status: 'all', ...q })).items.map((n) => n.title);
      expect(await titles({})).toEqual(['c', 'b']);
      expect(await titles({ archived: 'exclude' })).toEqual(['c', 'b']);
      expect(await titles({ archived: 'only' })).toEqual(['a']);
      expect(await titles({ archived: 'include' })).toEqual(['c', 'b', 'a']);
      expect(await titles({ status: 'unread' })).toEqual(['b']);
      expect(await titles({ status: 'unread', archived: 'include' })).toEqual(['b', 'a']);
      expect((await store.list('arch-u', { page: 1, limit: 10, status: 'all', archived: 'only' })).total).toBe(1);
      expect(b.archived_at).toBeNull();
    });

    it('leaves archived ones out of mark-all-read, and unarchiving an unread one counts it again', async () => {
      const a = await add('unarch-u');
      await add('unarch-u');
      await store.archive('unarch-u', a.id);
      expect(await store.markAllRead('unarch-u')).toBe(1);
      expect(await store.unreadCount('unarch-u')).toBe(0);
      const back = await store.unarchive('unarch-u', a.id);
      expect(back).toEqual({ notification: { ...a, archived_at: null }, changed: true });
      expect(await store.unarchive('unarch-u', a.id)).toMatchObject({ changed: false });
      expect(await store.unreadCount('unarch-u')).toBe(1);
      expect((await store.list('unarch-u', { page: 1, limit: 10, status: 'all' })).total).toBe(2);
    });

    it('deletes archived ones too when deleting all', async () => {
      const a = await add('delarch-u');
      await add('delarch-u');
      await store.archive('delarch-u', a.id);
      expect(await store.deleteAll('delarch-u')).toBe(2);
      expect(await store.get('delarch-u', a.id)).toBeNull();
    });

    it("keeps an action's color and an icon class list as given", async () => {
      const actions = [
        { name: 'ok', label: 'OK', color: 'success' as const, icon: 'fa fa-check' },
        { name: 'no', label: 'No', type: 'danger' as const, color: 'warning' as const, icon: 'check' },
      ];
      const n = await add('color-u', { actions });
      expect(n.actions).toEqual(actions);
      expect((await store.get('color-u', n.id))?.actions).toEqual(actions);
    });

    it.each([
      ['action_url', { action_url: 'javascript:alert(1)' }],
      ['action_url', { action_url: ' https://example.test/' }],
      ['actions.0.url', { actions: [{ name: 'x', label: 'X', url: 'JaVaScRiPt:alert(1)' }] }],
      ['actions.1.url', { actions: [{ name: 'x', label: 'X', url: '/ok' }, { name: 'y', label: 'Y', url: 'data:text/html,<script>alert(1)</script>' }] }],
      ['actions.0.icon', { actions: [{ name: 'x', label: 'X', icon: 'fa  fa-x' }] }],
      ['title', { title: 'nul\u0000' }],
    ] as const)('refuses a notification whose %s is unsafe or unstorable, naming it, and stores nothing', async (field, overrides) => {
      const error = await add('unsafe-u', overrides as Partial<NewNotification>).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'INVALID_NOTIFICATION', message: expect.stringContaining(`"${field}"`) });
      expect((await store.list('unsafe-u', { page: 1, limit: 10, status: 'all', archived: 'include' })).total).toBe(0);
    });

    it('keeps a given createdAt (imports, seeding) and refuses an invalid one', async () => {
      const n = await add('at-u', { createdAt: '2020-02-03T04:05:06.789Z' });
      expect(n.created_at).toBe('2020-02-03T04:05:06.789Z');
      const m = await add('at-u', { createdAt: new Date('2021-01-01T00:00:00Z') });
      expect((await store.list('at-u', { page: 1, limit: 10, status: 'all' })).items.map((x) => x.id)).toEqual([m.id, n.id]);
      for (const createdAt of ['yesterday', '+275760-09-13T00:00:00.000Z', new Date(Number.NaN)]) {
        await expect(add('at-u', { createdAt })).rejects.toMatchObject({ code: 'INVALID_NOTIFICATION', message: expect.stringContaining('"createdAt"') });
      }
    });

    it('stores text with quotes and unicode verbatim (parameterised queries)', async () => {
      const title = `Robert'); DROP TABLE notifications;-- ☃ "x"`;
      const n = await add('sql-u', { title, data: { s: "it's" } });
      expect((await store.get('sql-u', n.id))?.title).toBe(title);
      expect((await store.get('sql-u', n.id))?.data).toEqual({ s: "it's" });
    });
  });
}
