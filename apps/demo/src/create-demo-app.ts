import { timingSafeEqual } from 'node:crypto';
import {
  DeliveryError,
  createNotificationManager,
  createNotificationsApi,
  createPgliteStore,
  createPusherBroadcaster,
} from '@org/notifications';
import type { Broadcaster, NotificationStorage } from '@org/notifications';
import { Hono } from 'hono';
import type { Context } from 'hono';
import { z } from 'zod';
import { ASSET_PREFIX, createAssets } from './assets.js';
import { DemoNotification } from './demo-notification.js';
import type { DemoOptions } from './options.js';
import { THEMES, bellPage, loginPage, targetPage } from './pages.js';
import type { BellMode } from './pages.js';
import { seedNotifications } from './seed.js';
import { parseSendForm } from './send-form.js';
import { DEMO_USER, createSessions } from './session.js';
import type { Session } from './session.js';

export interface DemoApp {
  app: Hono<DemoEnv>;
  store: NotificationStorage;
  broadcaster: Broadcaster;
  close(): Promise<void>;
}

type DemoEnv = { Variables: { session: Session | null } };

const pageQuery = z.object({
  theme: z.enum(THEMES).catch('auto'),
  polling: z.enum(['on', 'off']).catch('on'),
});

function sameToken(expected: string, given: unknown): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Form posts carry `_csrf`; fetch() calls carry the X-CSRF-Token header, like the bell. */
async function readBody(c: Context): Promise<Record<string, unknown>> {
  const type = c.req.header('content-type') ?? '';
  try {
    if (type.includes('application/json')) {
      const json: unknown = await c.req.json();
      return typeof json === 'object' && json !== null ? (json as Record<string, unknown>) : {};
    }
    if (type.includes('application/x-www-form-urlencoded') || type.includes('multipart/form-data')) {
      return (await c.req.parseBody()) as Record<string, unknown>;
    }
  } catch {
    // An unparsable body reads as empty; validation then names the missing field.
  }
  return {};
}

const wantsJson = (c: Context) => (c.req.header('accept') ?? '').includes('application/json') || (c.req.header('content-type') ?? '').includes('application/json');

/**
 * The demo host app: a fake login for one user, pages with the bell in both
 * modes, the bell's JSON API on embedded PGlite, channel auth, and a form that
 * sends a notification through the realtime daemon's HTTP API.
 */
export async function createDemoApp(options: DemoOptions): Promise<DemoApp> {
  const store = await createPgliteStore(options.dataDir ? { dataDir: options.dataDir } : {});
  const broadcaster = createPusherBroadcaster({
    appId: options.realtime.appId,
    key: options.realtime.key,
    secret: options.realtime.secret,
    host: options.realtime.host,
    port: options.realtime.port,
  });
  const manager = createNotificationManager({ store, broadcaster });
  const sessions = createSessions(options.secret);
  const assets = createAssets();

  // A persisted database keeps its notifications; a fresh one starts with samples.
  if ((await store.list(DEMO_USER.id, { page: 1, limit: 1, status: 'all' })).total === 0) {
    await seedNotifications(store, DEMO_USER.id, options.seedCount);
  }

  const app = new Hono<DemoEnv>();

  app.use('*', async (c, next) => {
    c.set('session', await sessions.read(c));
    await next();
  });

  app.get(`${ASSET_PREFIX}*`, async (c) => {
    const asset = await assets.read(c.req.path.slice(ASSET_PREFIX.length));
    if (!asset) return c.text('Not found', 404);
    return c.body(asset.body, 200, { 'content-type': asset.contentType, 'cache-control': 'no-cache' });
  });

  app.get('/login', (c) => (c.get('session') ? c.redirect('/', 303) : c.html(loginPage())));
  app.post('/login', async (c) => {
    await sessions.signIn(c);
    return c.redirect('/', 303);
  });
  app.post('/logout', (c) => {
    sessions.signOut(c);
    return c.redirect('/login', 303);
  });

  const showBell = (mode: BellMode) => (c: Context<DemoEnv>) => {
    const session = c.get('session');
    if (!session) return c.redirect('/login', 303);
    const query = pageQuery.parse(c.req.query());
    return c.html(
      bellPage({ session, mode, theme: query.theme, polling: query.polling === 'on', importMap: assets.importMap, realtime: options.realtime }),
    );
  };
  app.get('/', showBell('dropdown'));
  app.get('/panel', showBell('panel'));

  app.get('/inbox/:slug', (c) => c.html(targetPage(c.req.param('slug'), pageQuery.parse(c.req.query()).theme)));

  /** Demo mutations: signed in, and the session's CSRF token as header or form field. */
  const demoAction = async (c: Context<DemoEnv>): Promise<{ session: Session; body: Record<string, unknown> } | Response> => {
    const session = c.get('session');
    if (!session) return c.json({ error: 'Authentication required', code: 'UNAUTHENTICATED' }, 401);
    const body = await readBody(c);
    if (!sameToken(session.csrfToken, c.req.header('x-csrf-token') ?? body._csrf)) {
      return c.json({ error: 'Missing or invalid CSRF token', code: 'CSRF_MISMATCH' }, 403);
    }
    return { session, body };
  };

  app.post('/demo/notifications', async (c) => {
    const action = await demoAction(c);
    if (action instanceof Response) return action;
    const form = parseSendForm(action.body);
    if (!form.ok) return c.json({ error: form.error, code: 'INVALID_PARAMETER' }, 400);
    let deliveries;
    try {
      deliveries = await manager.notify(action.session.user, new DemoNotification(form.content));
    } catch (error) {
      // The row is stored even when the daemon is unreachable; polling will still show it.
      if (error instanceof DeliveryError) {
        return c.json({ error: `Stored, but the live push failed: ${error.message}`, code: 'DELIVERY_FAILED' }, 502);
      }
      throw error;
    }
    if (!wantsJson(c)) return c.redirect(c.req.header('referer')?.startsWith(new URL(c.req.url).origin) ? (c.req.header('referer') as string) : '/', 303);
    return c.json({ notification: await store.get(action.session.user.id, deliveries[0]?.id ?? '') }, 201);
  });

  app.post('/demo/reset', async (c) => {
    const action = await demoAction(c);
    if (action instanceof Response) return action;
    await seedNotifications(store, action.session.user.id, options.seedCount);
    return wantsJson(c) ? c.json({ seeded: options.seedCount }) : c.redirect('/', 303);
  });

  app.route(
    '/',
    createNotificationsApi({
      store,
      broadcaster,
      resolveUser: (c) => (c as Context<DemoEnv>).get('session')?.user ?? null,
      csrf: { token: (c) => (c as Context<DemoEnv>).get('session')?.csrfToken ?? '' },
    }),
  );

  return {
    app,
    store,
    broadcaster,
    close: () => store.close(),
  };
}
