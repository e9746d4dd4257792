import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemoApp } from './create-demo-app.js';
import type { DemoApp } from './create-demo-app.js';
import { demoOptionsFromEnv } from './options.js';
import { DEMO_USER } from './session.js';

/** A port nothing listens on: the daemon is "down" for these tests. */
function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

describe('the demo app over HTTP (no browser, no daemon)', () => {
  let demo: DemoApp;
  let cookie: string;
  let csrf: string;

  beforeAll(async () => {
    demo = await createDemoApp(demoOptionsFromEnv({ DEMO_SEED_COUNT: '3', REALTIME_PORT: String(await closedPort()) }));
    const login = await demo.app.request('/login', { method: 'POST' });
    expect(login.status).toBe(303);
    cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const page = await (await demo.app.request('/', { headers: { cookie } })).text();
    csrf = /<meta name="csrfToken" content="([^"]+)">/.exec(page)?.[1] ?? '';
  });
  afterAll(async () => {
    await demo?.close();
  });

  it('sends visitors without a session to the sign-in page, and signs them in as the demo user', async () => {
    const anonymous = await demo.app.request('/panel');
    expect([anonymous.status, anonymous.headers.get('location')]).toEqual([303, '/login']);
    expect(cookie).toMatch(/^demo_session=/);
    expect(csrf.length).toBeGreaterThan(20);
    const forged = await demo.app.request('/', { headers: { cookie: 'demo_session=someone-else' } });
    expect(forged.headers.get('location')).toBe('/login');
  });

  it('renders the bell with ws-channels settings, an import map and no CDN', async () => {
    const html = await (await demo.app.request('/panel?theme=dark&polling=off', { headers: { cookie } })).text();
    expect(html).toContain('<html lang="en" data-theme="dark">');
    expect(html).toContain('mode="panel"');
    expect(html).toContain('enable-polling="false"');
    expect(html).toContain('&#34;broadcaster&#34;:&#34;ws-channels&#34;');
    expect(html).toContain('<script type="importmap">');
    expect(html).not.toMatch(/https?:\/\/(?!127\.0\.0\.1)/);
  });

  it('serves the JSON API for the demo user, with CSRF required for changes', async () => {
    const list = await demo.app.request('/notification/notifications.json', { headers: { cookie } });
    expect(((await list.json()) as { meta: { total: number; unread_count: number } }).meta).toMatchObject({ total: 3, unread_count: 1 });
    const noCsrf = await demo.app.request('/notification/notifications/mark-all-read.json', { method: 'PATCH', headers: { cookie } });
    expect(noCsrf.status).toBe(403);
    expect((await demo.app.request('/notification/notifications.json')).status).toBe(401);
  });

  it('signs /broadcasting/auth only for the demo user\'s private channel', async () => {
    const auth = (channel: string) =>
      demo.app.request('/broadcasting/auth', {
        method: 'POST',
        headers: { cookie, 'X-CSRF-Token': csrf, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ socket_id: '123.456', channel_name: channel }).toString(),
      });
    const own = await auth(`private-App.Model.Entity.User.${DEMO_USER.id}`);
    expect(own.status).toBe(200);
    expect(((await own.json()) as { auth: string }).auth).toMatch(/^demo-key:[0-9a-f]{64}$/);
    expect((await auth('private-App.Model.Entity.User.2')).status).toBe(403);
  });

  it('refuses a send without the CSRF token or with invalid fields', async () => {
    const send = (headers: Record<string, string>, body: unknown) =>
      demo.app.request('/demo/notifications', { method: 'POST', headers: { cookie, 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
    expect((await send({}, { title: 'x' })).status).toBe(403);
    expect((await send({ 'X-CSRF-Token': 'wrong' }, { title: 'x' })).status).toBe(403);
    const invalid = await send({ 'X-CSRF-Token': csrf }, { title: '' });
    expect(invalid.status).toBe(400);
    expect(await invalid.json()).toEqual({ error: '"title" is required', code: 'INVALID_PARAMETER' });
  });

  it('stores a sent notification even when the daemon is down, and says the live push failed', async () => {
    const response = await demo.app.request('/demo/notifications', {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({ _csrf: csrf, title: 'Offline send' }).toString(),
    });
    expect(response.status).toBe(502);
    expect(await response.json()).toMatchObject({ code: 'DELIVERY_FAILED', error: expect.stringContaining('Stored, but the live push failed') });
    const newest = await demo.store.list(DEMO_USER.id, { page: 1, limit: 1, status: 'all' });
    expect(newest.items[0]?.title).toBe('Offline send');
  });

  it('resets the demo data with the form field token', async () => {
    const response = await demo.app.request('/demo/reset', {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ _csrf: csrf }).toString(),
    });
    expect([response.status, response.headers.get('location')]).toEqual([303, '/']);
    expect((await demo.store.list(DEMO_USER.id, { page: 1, limit: 10, status: 'all' })).total).toBe(3);
  });

  it('serves assets from node_modules and 404s anything else', async () => {
    const bell = await demo.app.request('/assets/notification-bell/define.js');
    expect([bell.status, bell.headers.get('content-type')]).toEqual([200, 'text/javascript; charset=utf-8']);
    expect((await demo.app.request('/assets/lit/../../../package.json')).status).toBe(404);
    expect((await demo.app.request('/assets/nothing-here.js')).status).toBe(404);
  });
});

describe('DEMO_DATA_DIR', () => {
  it('keeps notifications and their read state on disk across restarts, without reseeding', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'demo-data-'));
    const env = { DEMO_SEED_COUNT: '3', DEMO_DATA_DIR: dataDir, DEMO_SECRET: 'a-fixed-secret-for-this-test-0123456789', REALTIME_PORT: String(await closedPort()) };
    const signIn = async (app: DemoApp) => {
      const login = await app.app.request('/login', { method: 'POST' });
      const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
      const page = await (await app.app.request('/', { headers: { cookie } })).text();
      return { cookie, csrf: /<meta name="csrfToken" content="([^"]+)">/.exec(page)?.[1] ?? '' };
    };
    const meta = async (app: DemoApp, cookie: string) =>
      ((await (await app.app.request('/notification/notifications.json', { headers: { cookie } })).json()) as { meta: { total: number; unread_count: number } }).meta;
    try {
      const first = await createDemoApp(demoOptionsFromEnv(env));
      const { cookie, csrf } = await signIn(first);
      expect(await meta(first, cookie)).toMatchObject({ total: 3, unread_count: 1 });
      const marked = await first.app.request('/notification/notifications/mark-all-read.json', { method: 'PATCH', headers: { cookie, 'X-CSRF-Token': csrf } });
      expect(marked.status).toBe(200);
      await first.close();

      const second = await createDemoApp(demoOptionsFromEnv(env));
      const again = await signIn(second);
      expect(await meta(second, again.cookie)).toMatchObject({ total: 3, unread_count: 0 });
      await second.close();
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
