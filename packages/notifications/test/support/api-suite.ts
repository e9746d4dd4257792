import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import Pusher from 'pusher';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createPusherBroadcaster } from '../../src/broadcast/pusher-broadcaster.js';
import { startPusherApiTestServer } from './pusher-api-test-server.js';
import type { PusherApiTestServer } from './pusher-api-test-server.js';
import type { NotificationLiveEventName, NotificationLiveEvents } from '../../src/contract.js';
import type { NotificationStorage } from '../../src/store/notification-storage.js';
import { content } from '../../src/testing/store-conformance.js';
import { createNotificationsApi } from '../../src/api/create-notifications-api.js';

const creds = { appId: 'app-1', key: 'app-key', secret: 'app-secret' };

/** Every key of a NotificationResource (contract.test.ts checks this list against the type both ways). */
export const RESOURCE_KEYS = ['id', 'type', 'title', 'message', 'action_url', 'icon', 'icon_class', 'actions', 'data', 'read_at', 'archived_at', 'created_at'] as const;

/** The keys of each live event's data, typed against the contract. */
const EVENT_KEYS: { [E in NotificationLiveEventName]: readonly (keyof NotificationLiveEvents[E])[] } = {
  'notification.created': [...RESOURCE_KEYS, 'unread_count'],
  'notification.marked-read': ['notification_id', 'unread_count'],
  'notification.marked-unread': ['notification_id', 'unread_count'],
  'notification.archived': ['notification_id', 'unread_count'],
  'notification.unarchived': ['notification_id', 'unread_count'],
  'notification.marked-all-read': ['unread_count'],
  'notification.deleted': ['notification_id', 'unread_count'],
  'notification.all-deleted': ['deleted', 'unread_count'],
};

const keysOf = (value: object): string[] => Object.keys(value).sort();

/**
 * The bell's HTTP contract, exercised over a real loopback HTTP server, with the real Pusher
 * broadcaster talking to a real signature-checking HTTP server.
 */
export function runApiSuite(name: string, openStore: () => Promise<NotificationStorage>, teardown: () => Promise<void> = async () => {}): void {
  describe(`notifications JSON API on ${name}`, () => {
    let store: NotificationStorage;
    let pusher: PusherApiTestServer;
    let base: string;
    let close: () => Promise<void>;
    const broadcastErrors: string[] = [];

    beforeAll(async () => {
      store = await openStore();
      pusher = await startPusherApiTestServer(creds.appId, creds.key, creds.secret);
      const host = new Hono();
      host.get('/health', (c) => c.text('ok'));
      host.route(
        '/',
        createNotificationsApi({
          store,
          // The host's own auth: here a header stands in for a session.
          resolveUser: (c) => {
            const id = c.req.header('X-Test-User');
            return id ? { id } : null;
          },
          csrf: { token: (c) => `csrf-${c.req.header('X-Test-User') ?? ''}` },
          broadcaster: createPusherBroadcaster({ ...creds, host: '127.0.0.1', port: pusher.port }),
          onBroadcastError: (error) => broadcastErrors.push((error as Error).message),
        }),
      );
      const server = serve({ fetch: host.fetch, port: 0, hostname: '127.0.0.1' });
      await new Promise<void>((resolve) => server.once('listening', () => resolve()));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      close = () => new Promise<void>((resolve) => server.close(() => resolve()));
    });

    afterAll(async () => {
      await close?.();
      await pusher?.close();
      await store?.close();
      await teardown();
    });

    beforeEach(async () => {
      for (const u of ['u1', 'u2', 'u3']) await store.deleteAll(u);
      pusher.triggers.length = 0;
      pusher.failWith(null);
      broadcastErrors.length = 0;
    });

    const call = async (method: string, path: string, user: string | null, init: { csrf?: string | false; headers?: Record<string, string>; body?: string } = {}) => {
      const headers: Record<string, string> = { ...init.headers };
      if (user) headers['X-Test-User'] = user;
      if (init.csrf !== false && user && method !== 'GET') headers['X-CSRF-Token'] = init.csrf ?? `csrf-${user}`;
      const res = await fetch(`${base}${path}`, { method, headers, ...(init.body === undefined ? {} : { body: init.body }) });
      return { status: res.status, type: res.headers.get('content-type'), // eslint-disable-next-line @typescript-eslint/no-explicit-any -- assertions walk arbitrary JSON
      body: (await res.json()) as Record<string, any> };
    };
    const seed = async (userId: string, count: number, overrides: Parameters<typeof content>[0] = {}) => {
      const created = [];
      for (let i = 0; i < count; i++) created.push(await store.create({ ...content({ title: `t${i}`, ...overrides }), userId }));
      return created;
    };

    it('answers 401 UNAUTHENTICATED as JSON when the host resolves no user', async () => {
      const r = await call('GET', '/notification/notifications.json', null);
      expect(r.status).toBe(401);
      expect(r.type).toContain('application/json');
      expect(r.body).toEqual({ error: 'Authentication required', code: 'UNAUTHENTICATED' });
    });

    it('lists newest first with the pagination envelope and the unread count', async () => {
      await seed('u1', 25);
      await seed('u2', 2);
      const first = await call('GET', '/notification/notifications.json', 'u1');
      expect(first.status).toBe(200);
      expect(first.body.notifications).toHaveLength(20);
      expect(first.body.notifications[0].title).toBe('t24');
      expect(first.body.meta).toEqual({ page: 1, limit: 20, total: 25, pages: 2, has_next_page: true, next_cursor: expect.any(String), unread_count: 25 });
      const second = await call('GET', '/notification/notifications.json?page=2', 'u1');
      expect(second.body.notifications.map((n: { title: string }) => n.title)).toEqual(['t4', 't3', 't2', 't1', 't0']);
      expect(second.body.meta).toMatchObject({ page: 2, has_next_page: false });
      // The same page by cursor, after a row of page 1 was deleted: nothing is skipped.
      await store.delete('u1', first.body.notifications[0].id);
      const after = await call('GET', `/notification/notifications.json?before=${encodeURIComponent(first.body.meta.next_cursor)}&limit=20`, 'u1');
      expect(after.body.notifications.map((n: { title: string }) => n.title)).toEqual(['t4', 't3', 't2', 't1', 't0']);
      expect(after.body.meta).toMatchObject({ has_next_page: false, total: 24 });
      for (const bad of ['x', '1.2.3', 'a'.repeat(65), '-'.repeat(3)]) {
        const refused = await call('GET', `/notification/notifications.json?before=${encodeURIComponent(bad)}`, 'u1');
        expect(refused.status).toBe(400);
        expect(refused.body).toMatchObject({ code: 'INVALID_PARAMETER', error: expect.stringContaining('"before"') });
      }
      expect(keysOf(first.body.notifications[0])).toEqual([...RESOURCE_KEYS].sort());
    });

    it('accepts limit up to 100 and rejects anything larger with 400 naming "limit"', async () => {
      await seed('u1', 3);
      expect((await call('GET', '/notification/notifications.json?limit=100', 'u1')).body.meta.limit).toBe(100);
      const r = await call('GET', '/notification/notifications.json?limit=101', 'u1');
      expect(r.status).toBe(400);
      expect(r.body.code).toBe('INVALID_PARAMETER');
      expect(r.body.error).toContain('"limit"');
    });

    it.each([
      ['page=0', '"page"'],
      ['page=abc', '"page"'],
      ['page=1.5', '"page"'],
      ['page=99999999', '"page"'],
      ['limit=0', '"limit"'],
      ['limit=-3', '"limit"'],
      ['status=archived', '"status"'],
      [`type=${'x'.repeat(300)}`, '"type"'],
    ])('rejects %s with 400 INVALID_PARAMETER naming the parameter', async (query, param) => {
      const r = await call('GET', `/notification/notifications.json?${query}`, 'u1');
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ error: expect.stringContaining(param), code: 'INVALID_PARAMETER' });
    });

    it('filters by status and type', async () => {
      const [a] = await seed('u1', 1, { type: 'comment' });
      await seed('u1', 2, { type: 'like' });
      await store.markRead('u1', a!.id);
      const read = await call('GET', '/notification/notifications.json?status=read', 'u1');
      expect(read.body.notifications.map((n: { id: string }) => n.id)).toEqual([a!.id]);
      expect(read.body.meta).toMatchObject({ total: 1, unread_count: 2 });
      const likes = await call('GET', '/notification/notifications.json?type=like&status=unread', 'u1');
      expect(likes.body.meta.total).toBe(2);
    });

    it('serves unread.json with meta.count equal to the unread total', async () => {
      const [a] = await seed('u1', 3);
      await store.markRead('u1', a!.id);
      const r = await call('GET', '/notification/notifications/unread.json?limit=1', 'u1');
      expect(r.status).toBe(200);
      expect(r.body.notifications).toHaveLength(1);
      expect(r.body.meta).toEqual({ page: 1, limit: 1, total: 2, pages: 2, has_next_page: true, next_cursor: expect.any(String), unread_count: 2, count: 2 });
      expect((await call('GET', '/notification/notifications/unread.json?limit=500', 'u1')).status).toBe(400);
    });

    it("returns one notification, and 404 for another user's, an unknown or a malformed id", async () => {
      const [mine] = await seed('u1', 1);
      const ok = await call('GET', `/notification/notifications/${mine!.id}.json`, 'u1');
      expect(ok.status).toBe(200);
      expect(ok.body).toEqual({ notification: mine, meta: { unread_count: 1 } });
      for (const path of [`${mine!.id}.json`, '00000000-0000-4000-8000-000000000000.json', 'nope.json']) {
        const r = await call('GET', `/notification/notifications/${path}`, path === 'nope.json' ? 'u1' : 'u2');
        expect(r.status).toBe(404);
        expect(r.body.code).toBe('NOT_FOUND');
      }
    });

    it('refuses mutations without the right CSRF header with 403 CSRF_MISMATCH', async () => {
      const [n] = await seed('u1', 1);
      for (const csrf of [false, 'wrong', 'csrf-u2'] as const) {
        const r = await call('PATCH', `/notification/notifications/${n!.id}/read.json`, 'u1', { csrf });
        expect(r.status).toBe(403);
        expect(r.body.code).toBe('CSRF_MISMATCH');
      }
      expect((await call('DELETE', '/notification/notifications.json', 'u1', { csrf: false })).status).toBe(403);
      expect((await call('PATCH', '/notification/notifications/mark-all-read.json', 'u1', { csrf: false })).status).toBe(403);
      expect(await store.unreadCount('u1')).toBe(1);
    });

    it('marks one read idempotently and broadcasts marked-read once, excluding the acting socket', async () => {
      const [n] = await seed('u1', 2);
      const path = `/notification/notifications/${n!.id}/read.json`;
      const first = await call('PATCH', path, 'u1', { headers: { 'X-Socket-ID': '1.2' } });
      expect(first.status).toBe(200);
      expect(first.body.notification.read_at).toEqual(expect.any(String));
      expect(first.body.meta).toEqual({ unread_count: 1 });
      const again = await call('PATCH', path, 'u1');
      expect(again.body).toEqual(first.body);
      expect(pusher.triggers).toEqual([
        { name: 'notification.marked-read', channels: ['private-App.Model.Entity.User.u1'], data: { notification_id: n!.id, unread_count: 1 }, socket_id: '1.2' },
      ]);
      expect((await call('PATCH', path, 'u2')).status).toBe(404);
    });

    it('marks all read and broadcasts marked-all-read', async () => {
      await seed('u1', 3);
      await seed('u2', 1);
      const r = await call('PATCH', '/notification/notifications/mark-all-read.json', 'u1');
      expect(r.body).toEqual({ marked: 3, meta: { unread_count: 0 } });
      expect(await store.unreadCount('u2')).toBe(1);
      expect(pusher.triggers).toEqual([{ name: 'notification.marked-all-read', channels: ['private-App.Model.Entity.User.u1'], data: { unread_count: 0 } }]);
    });

    it("deletes one (404 for another user's) and broadcasts notification.deleted", async () => {
      const [a] = await seed('u1', 2);
      expect((await call('DELETE', `/notification/notifications/${a!.id}.json`, 'u2')).status).toBe(404);
      const r = await call('DELETE', `/notification/notifications/${a!.id}.json`, 'u1');
      expect(r.body).toEqual({ deleted: 1, meta: { unread_count: 1 } });
      expect((await call('DELETE', `/notification/notifications/${a!.id}.json`, 'u1')).status).toBe(404);
      expect(pusher.triggers).toEqual([{ name: 'notification.deleted', channels: ['private-App.Model.Entity.User.u1'], data: { notification_id: a!.id, unread_count: 1 } }]);
    });

    it("deletes all of the user's notifications and no one else's, and broadcasts notification.all-deleted", async () => {
      await seed('u1', 4);
      await seed('u2', 1);
      const r = await call('DELETE', '/notification/notifications.json', 'u1');
      expect(r.body).toEqual({ deleted: 4, meta: { unread_count: 0 } });
      expect((await call('GET', '/notification/notifications.json', 'u2')).body.meta.total).toBe(1);
      expect(pusher.triggers).toEqual([{ name: 'notification.all-deleted', channels: ['private-App.Model.Entity.User.u1'], data: { deleted: 4, unread_count: 0 } }]);
      // Nothing left to delete: nothing to announce.
      expect((await call('DELETE', '/notification/notifications.json', 'u1')).body).toEqual({ deleted: 0, meta: { unread_count: 0 } });
      expect(pusher.triggers).toHaveLength(1);
    });

    it('marks one unread idempotently and broadcasts marked-unread once', async () => {
      const [n] = await seed('u1', 2);
      await store.markRead('u1', n!.id);
      const path = `/notification/notifications/${n!.id}/unread.json`;
      const first = await call('PATCH', path, 'u1', { headers: { 'X-Socket-ID': '3.4' } });
      expect(first.status).toBe(200);
      expect(first.body).toEqual({ notification: { ...n, read_at: null }, meta: { unread_count: 2 } });
      expect((await call('PATCH', path, 'u1')).body).toEqual(first.body);
      expect(pusher.triggers).toEqual([
        { name: 'notification.marked-unread', channels: ['private-App.Model.Entity.User.u1'], data: { notification_id: n!.id, unread_count: 2 }, socket_id: '3.4' },
      ]);
      expect((await call('PATCH', path, 'u2')).status).toBe(404);
      expect((await call('PATCH', '/notification/notifications/nope/unread.json', 'u1')).status).toBe(404);
    });

    it('archives: out of the default list and of unread_count, listed with archived=only|include; unarchives; each broadcast once', async () => {
      const [a, b] = await seed('u1', 2);
      const archive = await call('PATCH', `/notification/notifications/${a!.id}/archive.json`, 'u1');
      expect(archive.status).toBe(200);
      expect(archive.body.notification).toMatchObject({ id: a!.id, read_at: null, archived_at: expect.any(String) });
      expect(archive.body.meta).toEqual({ unread_count: 1 });
      expect((await call('PATCH', `/notification/notifications/${a!.id}/archive.json`, 'u1')).body).toEqual(archive.body);
      const ids = async (query: string) => (await call('GET', `/notification/notifications.json${query}`, 'u1')).body.notifications.map((n: { id: string }) => n.id);
      expect(await ids('')).toEqual([b!.id]);
      expect(await ids('?archived=exclude')).toEqual([b!.id]);
      expect(await ids('?archived=only')).toEqual([a!.id]);
      expect(await ids('?archived=include')).toEqual([b!.id, a!.id]);
      const list = await call('GET', '/notification/notifications.json?archived=include', 'u1');
      expect(list.body.meta).toMatchObject({ total: 2, unread_count: 1 });
      expect((await call('GET', '/notification/notifications/unread.json', 'u1')).body.meta).toMatchObject({ total: 1, count: 1, unread_count: 1 });
      expect((await call('GET', `/notification/notifications/${a!.id}.json`, 'u1')).body.notification).toEqual(archive.body.notification);
      const unarchive = await call('PATCH', `/notification/notifications/${a!.id}/unarchive.json`, 'u1');
      expect(unarchive.body).toEqual({ notification: { ...a, archived_at: null }, meta: { unread_count: 2 } });
      expect((await call('PATCH', `/notification/notifications/${a!.id}/unarchive.json`, 'u1')).body).toEqual(unarchive.body);
      const channels = ['private-App.Model.Entity.User.u1'];
      expect(pusher.triggers).toEqual([
        { name: 'notification.archived', channels, data: { notification_id: a!.id, unread_count: 1 } },
        { name: 'notification.unarchived', channels, data: { notification_id: a!.id, unread_count: 2 } },
      ]);
      for (const action of ['archive', 'unarchive']) expect((await call('PATCH', `/notification/notifications/${a!.id}/${action}.json`, 'u2')).status).toBe(404);
      expect((await call('GET', '/notification/notifications.json?archived=yes', 'u1')).body).toEqual({ error: expect.stringContaining('"archived"'), code: 'INVALID_PARAMETER' });
    });

    it('serves unread.json filtered by type, with the overall unread_count, refusing any status but unread', async () => {
      await seed('u1', 2, { type: 'like' });
      await seed('u1', 3, { type: 'comment' });
      const likes = await call('GET', '/notification/notifications/unread.json?type=like', 'u1');
      expect(likes.body.notifications.map((n: { type: string }) => n.type)).toEqual(['like', 'like']);
      expect(likes.body.meta).toEqual({ page: 1, limit: 20, total: 2, pages: 1, has_next_page: false, next_cursor: expect.any(String), unread_count: 5, count: 2 });
      expect((await call('GET', '/notification/notifications/unread.json?status=unread&unknown=1', 'u1')).body.meta.count).toBe(5);
      for (const status of ['read', 'all', 'archived']) {
        const r = await call('GET', `/notification/notifications/unread.json?status=${status}`, 'u1');
        expect(r.status).toBe(400);
        expect(r.body).toEqual({ error: expect.stringContaining('"status"'), code: 'INVALID_PARAMETER' });
      }
      const nul = await call('GET', '/notification/notifications/unread.json?type=%00', 'u1');
      expect(nul.body).toEqual({ error: expect.stringContaining('"type"'), code: 'INVALID_PARAMETER' });
    });

    it('answers a wrong method on a known path with 405 JSON and Allow, before authentication', async () => {
      const id = '00000000-0000-4000-8000-000000000000';
      const cases: [string, string, string][] = [
        ['PUT', '/notification/notifications.json', 'GET, DELETE, HEAD'],
        ['POST', '/notification/notifications.json', 'GET, DELETE, HEAD'],
        ['DELETE', '/notification/notifications/unread.json', 'GET, HEAD'],
        ['GET', '/notification/notifications/mark-all-read.json', 'PATCH'],
        ['DELETE', '/notification/notifications/mark-all-read.json', 'PATCH'],
        ['GET', `/notification/notifications/${id}/read.json`, 'PATCH'],
        ['POST', `/notification/notifications/${id}/unread.json`, 'PATCH'],
        ['DELETE', `/notification/notifications/${id}/archive.json`, 'PATCH'],
        ['GET', `/notification/notifications/${id}/unarchive.json`, 'PATCH'],
        ['PATCH', `/notification/notifications/${id}.json`, 'GET, DELETE, HEAD'],
        ['GET', '/broadcasting/auth', 'POST'],
      ];
      for (const [method, path, allow] of cases) {
        for (const user of ['u1', null]) {
          const res = await fetch(`${base}${path}`, { method, headers: user ? { 'X-Test-User': user, 'X-CSRF-Token': `csrf-${user}` } : {} });
          expect([method, path, res.status, res.headers.get('allow'), res.headers.get('content-type')]).toEqual([method, path, 405, allow, expect.stringContaining('application/json')]);
          expect(await res.json()).toEqual({ error: expect.stringContaining(method), code: 'METHOD_NOT_ALLOWED' });
        }
      }
      // HEAD is answered wherever GET is.
      const head = await fetch(`${base}/notification/notifications.json`, { method: 'HEAD', headers: { 'X-Test-User': 'u1' } });
      expect(head.status).toBe(200);
    });

    it('answers an unknown path under /notification/ with JSON 404', async () => {
      for (const path of ['/notification/nope', '/notification/notifications', '/notification/notifications/a/b/c.json', '/notification/notifications/x/bogus.json', '/notification/notifications.xml']) {
        for (const method of ['GET', 'PATCH']) {
          const r = await call(method, path, 'u1');
          expect([path, method, r.status, r.type]).toEqual([path, method, 404, expect.stringContaining('application/json')]);
          expect(r.body).toEqual({ error: expect.any(String), code: 'NOT_FOUND' });
        }
      }
      expect((await call('GET', '/notification/nope', null)).status).toBe(401);
    });

    it('answers and broadcasts exactly the keys the contract types name', async () => {
      const [a, b] = await seed('u1', 2);
      const item = ['meta', 'notification'];
      const cases: [string, string, string[], string[]][] = [
        ['GET', '.json', ['meta', 'notifications'], ['has_next_page', 'limit', 'next_cursor', 'page', 'pages', 'total', 'unread_count']],
        ['GET', '/unread.json', ['meta', 'notifications'], ['count', 'has_next_page', 'limit', 'next_cursor', 'page', 'pages', 'total', 'unread_count']],
        ['GET', `/${a!.id}.json`, item, ['unread_count']],
        ['PATCH', `/${a!.id}/read.json`, item, ['unread_count']],
        ['PATCH', `/${a!.id}/unread.json`, item, ['unread_count']],
        ['PATCH', `/${a!.id}/archive.json`, item, ['unread_count']],
        ['PATCH', `/${a!.id}/unarchive.json`, item, ['unread_count']],
        ['PATCH', '/mark-all-read.json', ['marked', 'meta'], ['unread_count']],
        ['DELETE', `/${b!.id}.json`, ['deleted', 'meta'], ['unread_count']],
        ['DELETE', '.json', ['deleted', 'meta'], ['unread_count']],
      ];
      for (const [method, path, keys, meta] of cases) {
        const r = await call(method, `/notification/notifications${path}`, 'u1');
        expect([method, path, r.status, keysOf(r.body), keysOf(r.body.meta)]).toEqual([method, path, 200, keys, meta]);
        const resources = r.body.notifications ?? (r.body.notification ? [r.body.notification] : []);
        for (const n of resources) expect(keysOf(n)).toEqual([...RESOURCE_KEYS].sort());
      }
      expect(pusher.triggers.map((t) => t.name)).toEqual(Object.keys(EVENT_KEYS).filter((e) => e !== 'notification.created'));
      for (const t of pusher.triggers) expect([t.name, keysOf(t.data as object)]).toEqual([t.name, [...EVENT_KEYS[t.name as NotificationLiveEventName]].sort()]);
    });

    it('still answers when broadcasting fails, and reports the failure', async () => {
      const [n] = await seed('u1', 1);
      pusher.failWith(500);
      const r = await call('PATCH', `/notification/notifications/${n!.id}/read.json`, 'u1');
      expect(r.status).toBe(200);
      expect(broadcastErrors).toEqual([expect.stringContaining('500')]);
    });

    it('signs only the user’s own private channel on POST /broadcasting/auth', async () => {
      const form = (socket: string, channel: string) => ({
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ socket_id: socket, channel_name: channel }).toString(),
      });
      const own = await call('POST', '/broadcasting/auth', 'u1', form('123.456', 'private-App.Model.Entity.User.u1'));
      expect(own.status).toBe(200);
      expect(own.body).toEqual(new Pusher({ ...creds, host: '127.0.0.1' }).authorizeChannel('123.456', 'private-App.Model.Entity.User.u1'));
      const other = await call('POST', '/broadcasting/auth', 'u1', form('123.456', 'private-App.Model.Entity.User.u2'));
      expect(other.status).toBe(403);
      expect(other.body.code).toBe('CHANNEL_FORBIDDEN');
      const badSocket = await call('POST', '/broadcasting/auth', 'u1', form('abc', 'private-App.Model.Entity.User.u1'));
      expect(badSocket.status).toBe(400);
      expect(badSocket.body.error).toContain('"socket_id"');
      expect((await call('POST', '/broadcasting/auth', 'u1', { ...form('1.2', 'private-App.Model.Entity.User.u1'), csrf: false })).status).toBe(403);
      expect((await call('POST', '/broadcasting/auth', null, form('1.2', 'private-App.Model.Entity.User.u1'))).status).toBe(401);
    });

    it('accepts a JSON auth body and refuses bodies over 8 KiB with 413', async () => {
      const json = await call('POST', '/broadcasting/auth', 'u1', {
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ socket_id: '1.2', channel_name: 'private-App.Model.Entity.User.u1' }),
      });
      expect(json.status).toBe(200);
      const big = await call('POST', '/broadcasting/auth', 'u1', {
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `socket_id=1.2&channel_name=${'a'.repeat(9000)}`,
      });
      expect(big.status).toBe(413);
      expect(big.body.code).toBe('PAYLOAD_TOO_LARGE');
      const broken = await call('POST', '/broadcasting/auth', 'u1', { headers: { 'content-type': 'application/json' }, body: '{not json' });
      expect(broken.status).toBe(400);
    });

    it("leaves the host's other routes alone", async () => {
      const res = await fetch(`${base}/health`);
      expect(await res.text()).toBe('ok');
    });
  });
}
