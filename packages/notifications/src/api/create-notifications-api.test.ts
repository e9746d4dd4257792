import { PGlite } from '@electric-sql/pglite';
import { Hono } from 'hono';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryBroadcaster } from '../broadcast/memory-broadcaster.js';
import { createPgliteStore } from '../store/create-pglite-store.js';
import { createPostgresStore } from '../store/create-postgres-store.js';
import { uniqueSchema } from '../testing/store-conformance.js';
import { runApiSuite } from '../../test/support/api-suite.js';
import { runHostileInputSuite } from '../../test/support/hostile-input-suite.js';
import { createNotificationsApi } from './create-notifications-api.js';

runApiSuite('the embedded PGlite store', () => createPgliteStore());

const url = process.env.DATABASE_URL;
if (url) {
  const schema = uniqueSchema('api');
  runApiSuite('PostgreSQL', () => createPostgresStore({ connectionString: url, schema }), async () => {
    const pool = new pg.Pool({ connectionString: url });
    await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await pool.end();
  });
} else {
  describe('notifications JSON API on PostgreSQL', () => {
    it('needs DATABASE_URL', () => {
      if (process.env.CI === 'true') throw new Error('DATABASE_URL is not set, but CI=true requires the PostgreSQL API tests to run');
      console.warn('[notifications] DATABASE_URL not set: PostgreSQL API tests skipped outside CI');
      expect(process.env.CI).not.toBe('true');
    });
  });
}

// One embedded database for the cases below (each store gets its own schema): PGlite's start-up
// costs seconds of CPU, so this file starts it once.
let db: PGlite;
beforeAll(async () => {
  db = await PGlite.create();
});
afterAll(async () => {
  await db.close();
});

runHostileInputSuite(() => createPgliteStore({ db, schema: uniqueSchema('hostile') }));

describe('createNotificationsApi options', () => {
  const openStore = () => createPgliteStore({ db, schema: uniqueSchema('opts') });

  it('names the missing or wrong option', () => {
    expect(() => createNotificationsApi({} as never)).toThrow(/option "store"/);
  });

  it('rejects a csrf option that is neither token nor verify', async () => {
    const store = await openStore();
    expect(() => createNotificationsApi({ store, resolveUser: () => null, csrf: {} as never })).toThrow(/option "csrf"/);
    expect(() => createNotificationsApi({ store, resolveUser: () => null, csrf: { verify: () => true }, defaultLimit: 200 })).toThrow(/"defaultLimit"/);
  });

  it('uses a host verify() for CSRF and answers 503 on /broadcasting/auth without broadcaster credentials', async () => {
    const store = await openStore();
    const app = createNotificationsApi({
      store,
      resolveUser: () => ({ id: 7 }),
      csrf: { verify: (_c, token) => token === 'good', headerName: 'X-XSRF-Token' },
      broadcaster: createMemoryBroadcaster(),
    });
    const body = new URLSearchParams({ socket_id: '1.2', channel_name: 'private-App.Model.Entity.User.7' });
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const refused = await app.request('/broadcasting/auth', { method: 'POST', headers: { ...form, 'X-XSRF-Token': 'bad' }, body });
    expect(refused.status).toBe(403);
    const disabled = await app.request('/broadcasting/auth', { method: 'POST', headers: { ...form, 'X-XSRF-Token': 'good' }, body });
    expect(disabled.status).toBe(503);
    expect(await disabled.json()).toMatchObject({ code: 'BROADCASTING_DISABLED' });
  });

  it('keeps 405 and JSON 404 answers when mounted under a prefix, and leaves the host its other paths', async () => {
    const store = await openStore();
    const host = new Hono();
    host.route('/api', createNotificationsApi({ store, resolveUser: () => ({ id: 'u' }), csrf: { token: () => 't' } }));
    host.get('/notification/mine', (c) => c.text('host'));
    const wrong = await host.request('/api/notification/notifications/mark-all-read.json');
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('PATCH');
    const marked = await host.request('/api/notification/notifications/mark-all-read.json', { method: 'PATCH', headers: { 'X-CSRF-Token': 't' } });
    expect(await marked.json()).toEqual({ marked: 0, meta: { unread_count: 0 } });
    const unknown = await host.request('/api/notification/nope');
    expect([unknown.status, await unknown.json()]).toEqual([404, { error: 'No such endpoint', code: 'NOT_FOUND' }]);
    expect(await (await host.request('/notification/mine')).text()).toBe('host');
  });

  it('answers 500 INTERNAL_ERROR as JSON, without details, when the store fails', async () => {
    const store = await openStore();
    await store.close();
    const app = createNotificationsApi({ store, resolveUser: () => ({ id: 'u' }), csrf: { token: () => 't' } });
    const res = await app.request('/notification/notifications.json');
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ error: 'Internal server error', code: 'INTERNAL_ERROR' });
  });
});
