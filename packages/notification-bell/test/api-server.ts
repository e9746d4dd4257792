/**
 * The browser tests' backend: the REAL notifications API (`createNotificationsApi` from
 * @org/notifications) on an in-memory PGlite, behind a thin layer the tests steer (injected
 * failures, a mutation delay, signing out, request recording), plus the test page, static files
 * and a Mercure-style SSE hub fed by the API's own broadcasts. Test code only.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { createAdaptorServer } from '@hono/node-server';
import { createNotificationManager, createNotificationsApi, createPgliteStore } from '@org/notifications';
import type { Broadcaster, NotificationContent, NotificationStorage } from '@org/notifications';
import { Hono } from 'hono';
import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppNotification } from '../src/types.js';

export const CSRF_TOKEN = 'test-csrf-token';
/** The signed-in user; pages that use the SSE hub set `user-id="1"` to hear the API's broadcasts. */
export const USER_ID = '1';
export const HUB_PATH = '/hub';
/**
 * EventSource's reconnection delay the hub asks for (`retry:`), so a dropped hub connection
 * comes back in a quarter second instead of the browser's default 3 s.
 */
export const HUB_RETRY_MS = 250;

/** The hub topic a user's events go to: the bell's `sse-hub` default topic. */
export const hubTopic = (userId: string): string => `/users/${userId}/notifications`;

export interface RecordedRequest {
  method: string;
  /** Path and query string, e.g. `/notification/notifications.json?page=1&limit=20`. */
  path: string;
  /** The `X-CSRF-Token` header, if sent. */
  csrf: string | undefined;
}

/** One injected failure: the next request matching `method` and `path` (the pathname) gets `status` with `{ error, code }`. */
export interface Failure {
  method: string;
  path: RegExp;
  status: number;
  code: string;
}

/** An event that went out on the hub, by the API's broadcaster or `push()`. */
export interface HubEvent {
  /** Topics it went to; null for `push()` (every hub client). */
  topics: string[] | null;
  event: string;
  data: unknown;
}

/**
 * A notification to seed. Every field is optional: `title` defaults to `Notification <key>`
 * (`key` defaults to the 1-based index), `icon` to `'bell'`, `type` to `'default'`, and
 * `created_at` to 2025-01-01T12:00Z plus `index` minutes, so later rows are newer.
 * `key` is only a label for the default title; it is not stored.
 */
export type SeedRow = Partial<Omit<AppNotification, 'id'>> & { key?: string };

export interface SeedOptions {
  /**
   * Write the rows with SQL, past the store's validation, as an older server or another writer
   * could have stored them: for testing the bell's own defences (e.g. a `javascript:` URL).
   */
  unchecked?: boolean;
}

export interface TestServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** HTML served at `/` and `/page2`. */
  html: string;
  /**
   * Replaces user 1's notifications with `rows` through the real store and returns the stored rows
   * (real UUIDs) newest first. Also resets the per-test knobs: `requests`, `failures`,
   * `broadcasts`, `mutationDelay` (0) and `signedIn` (true).
   */
  seed(rows: SeedRow[], options?: SeedOptions): Promise<AppNotification[]>;
  /** Answered (JSON `{ error, code }`) before the API sees the request; each is used once. */
  failures: Failure[];
  /** Every request the server received, oldest first. */
  requests: RecordedRequest[];
  /** Milliseconds a PATCH, DELETE or POST waits before the API answers (to watch optimistic state). */
  mutationDelay: number;
  /** False: the API's own 401 for every notifications request. */
  signedIn: boolean;
  /** Sends `{ event, data }` to every hub client, whatever its topic (the API's broadcasts go to the user's topic). */
  push(event: string, data: unknown): void;
  close(): Promise<void>;

  // Additions beyond the shared contract.
  /** The real store behind the API (user `USER_ID`'s rows are the bell's). */
  store: NotificationStorage;
  /**
   * Sends a notification the way a backend does (database + broadcast channels): stored with
   * created_at = now, then `notification.created` with `unread_count` on the user's hub topic.
   * `{ broadcast: false }` only stores it, like a change made while the bell's live connection was down.
   */
  create(row: SeedRow, options?: { broadcast?: boolean }): Promise<AppNotification>;
  /** User 1's stored rows, newest first (read, unread and archived). */
  rows(): Promise<AppNotification[]>;
  /** User 1's unread count as the store computes it. */
  unreadCount(): Promise<number>;
  /** Shorthand for `failures.push({ method, path, status, code })`. */
  failNext(method: string, path: RegExp, status?: number, code?: string): void;
  /** Hub events sent so far (API broadcasts and pushes), oldest first. */
  broadcasts: HubEvent[];
  /** How many EventSource connections the hub holds. */
  readonly hubClients: number;
  /** Ends every hub connection (EventSource reconnects after `HUB_RETRY_MS`). */
  dropHubClients(): void;
}

export interface ApiServerOptions {
  /** Static files: path -> [content type, body]. */
  files?: Record<string, [string, string]>;
}

interface HubClient {
  topic: string;
  send(frame: string): void;
  close(): void;
}

/** Mercure-style hub: `GET /hub?topic=...` streams `data: {"event","data"}` frames for that topic. */
class SseHub {
  readonly clients = new Set<HubClient>();
  readonly log: HubEvent[] = [];

  publish(topics: readonly string[] | null, event: string, data: unknown): void {
    this.log.push({ topics: topics && [...topics], event, data });
    const frame = `data: ${JSON.stringify({ event, data })}\n\n`;
    for (const client of this.clients) {
      if (topics === null || topics.includes(client.topic)) client.send(frame);
    }
  }

  /** Lets the API's broadcasts reach the hub: the API's `channelFor` names hub topics. */
  broadcaster(): Broadcaster {
    return {
      trigger: async (channels, event, data) => this.publish(channels, event, data),
    };
  }

  respond(c: Context): Response {
    const topic = c.req.query('topic') ?? '';
    return streamSSE(c, async (stream) => {
      await new Promise<void>((resolve) => {
        const client: HubClient = {
          topic,
          send: (frame) => void stream.write(frame),
          close: () => {
            this.clients.delete(client);
            resolve();
          },
        };
        stream.onAbort(client.close);
        this.clients.add(client);
        // The first bytes flush the headers, so the browser's `open` fires now.
        void stream.write(`retry: ${HUB_RETRY_MS}\n: connected\n\n`);
      });
    });
  }

  closeAll(): void {
    for (const client of [...this.clients]) client.close();
  }
}

const SEED_EPOCH = Date.UTC(2025, 0, 1, 12, 0, 0);

function content(row: SeedRow, index: number): Required<Omit<NotificationContent, 'type'>> & { type: string } {
  return {
    type: row.type ?? 'default',
    title: row.title ?? `Notification ${row.key ?? index + 1}`,
    message: row.message ?? null,
    action_url: row.action_url ?? null,
    icon: row.icon === undefined ? 'bell' : row.icon,
    icon_class: row.icon_class ?? null,
    actions: (row.actions ?? []) as NotificationContent['actions'] & {},
    data: row.data ?? {},
  };
}

/** Newest first, then the later insert first: the API's own order (`created_at DESC, seq DESC`). */
function newestFirst(rows: readonly { row: AppNotification; index: number }[]): AppNotification[] {
  return [...rows].sort((a, b) => Date.parse(b.row.created_at) - Date.parse(a.row.created_at) || b.index - a.index).map(({ row }) => row);
}

const require = createRequire(import.meta.url);
const cacheDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'node_modules', '.cache', 'pglite');

/**
 * A fresh in-memory database. PGlite's initdb takes about 5 s of CPU; restoring its result takes
 * under 1 s, so the first run keeps an empty, just-initialised data directory (no tables: the store
 * migrates each copy itself) in node_modules/.cache, keyed by the PGlite version.
 */
async function freshDatabase(): Promise<PGlite> {
  const pgliteEntry = require.resolve('@electric-sql/pglite');
  const { version } = JSON.parse(await readFile(join(dirname(pgliteEntry), '..', 'package.json'), 'utf8')) as { version: string };
  const cached = join(cacheDir, `initdb-${version}.tar`);
  const dump = await readFile(cached).catch(() => null);
  if (dump) {
    try {
      return await PGlite.create({ loadDataDir: new Blob([dump]) });
    } catch {
      // A damaged cache file: initialise again and replace it.
    }
  }
  const db = await PGlite.create();
  const tarball = await db.dumpDataDir('none');
  await mkdir(cacheDir, { recursive: true });
  // Test files start together: each writes its own temporary file and the rename is atomic.
  const temporary = `${cached}.${process.pid}.${randomUUID()}.tmp`;
  await writeFile(temporary, new Uint8Array(await tarball.arrayBuffer()));
  await rename(temporary, cached);
  return db;
}

export async function startApiServer(options: ApiServerOptions = {}): Promise<TestServer> {
  const db = await freshDatabase();
  const store = await createPgliteStore({ db });
  const hub = new SseHub();
  const broadcaster = hub.broadcaster();
  const manager = createNotificationManager({ store, broadcaster, channelFor: hubTopic });
  const files = options.files ?? {};

  const api = createNotificationsApi({
    store,
    resolveUser: () => (testServer.signedIn ? { id: USER_ID } : null),
    csrf: { token: () => CSRF_TOKEN },
    broadcaster,
    channelFor: hubTopic,
  });

  const app = new Hono();
  app.use(async (c, next) => {
    const url = new URL(c.req.url);
    testServer.requests.push({ method: c.req.method, path: `${url.pathname}${url.search}`, csrf: c.req.header('x-csrf-token') });
    const index = testServer.failures.findIndex((failure) => failure.method === c.req.method && failure.path.test(url.pathname));
    if (index >= 0) {
      const [failure] = testServer.failures.splice(index, 1) as [Failure];
      return c.json({ error: `Injected failure ${failure.status}`, code: failure.code }, failure.status as ContentfulStatusCode);
    }
    if (c.req.method !== 'GET' && testServer.mutationDelay > 0 && url.pathname.startsWith('/notification/')) {
      await new Promise((resolve) => setTimeout(resolve, testServer.mutationDelay));
    }
    await next();
    return undefined;
  });
  const page = (c: Context) => c.html(testServer.html);
  app.get('/', page);
  app.get('/page2', page);
  app.get('/target/*', (c) => c.html(`<!doctype html><title>Target ${c.req.path}</title><h1>Target</h1>`));
  app.get(HUB_PATH, (c) => hub.respond(c));
  for (const [path, [type, body]] of Object.entries(files)) {
    app.get(path, (c) => c.body(body, 200, { 'content-type': type, 'cache-control': 'no-store' }));
  }
  app.route('/', api);
  app.notFound((c) => c.json({ error: 'Not found', code: 'NOT_FOUND' }, 404));

  const server = createAdaptorServer({ fetch: app.fetch }) as Server;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const get = async (id: string): Promise<AppNotification> => {
    const row = await store.get(USER_ID, id);
    if (!row) throw new Error(`seeded notification ${id} is not in the store`);
    return row as AppNotification;
  };

  const insertUnchecked = async (row: SeedRow, index: number): Promise<string> => {
    const c = content(row, index);
    const id = randomUUID();
    await db.query(
      `INSERT INTO notifications (id, user_id, type, title, message, action_url, icon, icon_class, actions, data)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb, $10::jsonb)`,
      [id, USER_ID, c.type, c.title, c.message, c.action_url, c.icon, c.icon_class, JSON.stringify(c.actions), JSON.stringify(c.data)],
    );
    return id;
  };

  // The handlers above read the knobs from this object when a request comes, so tests set them directly.
  const testServer: TestServer = {
    url,
    html: '<!doctype html><title>empty</title>',
    failures: [],
    requests: [],
    mutationDelay: 0,
    signedIn: true,
    store,
    broadcasts: hub.log,
    get hubClients() {
      return hub.clients.size;
    },

    async seed(rows, seedOptions = {}) {
      testServer.failures.splice(0);
      testServer.requests.splice(0);
      hub.log.splice(0);
      testServer.mutationDelay = 0;
      testServer.signedIn = true;
      await store.deleteAll(USER_ID);
      const ids: string[] = [];
      for (const [index, row] of rows.entries()) {
        ids.push(seedOptions.unchecked ? await insertUnchecked(row, index) : (await store.create({ ...content(row, index), userId: USER_ID })).id);
      }
      // The store stamps created_at with now() and has no way to set read_at or archived_at to a given
      // time; the seed's timeline is written in one statement.
      const archived = rows.some((row) => (row as { archived_at?: string | null }).archived_at != null);
      await db.query(
        `UPDATE notifications AS n SET created_at = v.created_at, read_at = v.read_at${archived ? ', archived_at = v.archived_at' : ''}
         FROM unnest($1::uuid[], $2::timestamptz[], $3::timestamptz[], $4::timestamptz[]) AS v(id, created_at, read_at, archived_at)
         WHERE n.id = v.id`,
        [
          ids,
          rows.map((row, index) => row.created_at ?? new Date(SEED_EPOCH + index * 60_000).toISOString()),
          rows.map((row) => row.read_at ?? null),
          rows.map((row) => (row as { archived_at?: string | null }).archived_at ?? null),
        ],
      );
      const stored = await Promise.all(ids.map(async (id, index) => ({ row: await get(id), index })));
      return newestFirst(stored);
    },

    push(event, data) {
      hub.publish(null, event, data);
    },

    async create(row, createOptions = {}) {
      const c = content(row, 0);
      const channels = createOptions.broadcast === false ? ['database'] : ['database', 'broadcast'];
      const notification = { type: c.type, via: () => channels, toDatabase: () => c };
      const deliveries = await manager.notify({ id: USER_ID }, notification);
      return get(deliveries[0]?.id ?? '');
    },

    async rows() {
      const result = await db.query<{ id: string }>('SELECT id FROM notifications WHERE user_id = $1 ORDER BY created_at DESC, seq DESC', [USER_ID]);
      return Promise.all(result.rows.map((row) => get(row.id)));
    },

    unreadCount() {
      return store.unreadCount(USER_ID);
    },

    failNext(method, path, status = 500, code = 'INTERNAL') {
      testServer.failures.push({ method, path, status, code });
    },

    dropHubClients() {
      hub.closeAll();
    },

    async close() {
      hub.closeAll();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await store.close();
      await db.close();
    },
  };
  return testServer;
}
