/**
 * A small real HTTP server implementing the bell's JSON contract with
 * in-memory data, an SSE hub, and the static test page. Test code only.
 *
 * Superseded for browser tests by api-server.ts (the real API on PGlite, via harness.ts's
 * startServer()); kept only while src/store.test.ts still uses it. Delete it with that last import.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AppNotification } from '../src/types.js';

export const CSRF_TOKEN = 'test-csrf-token';

export interface RecordedRequest {
  method: string;
  path: string;
  csrf: string | undefined;
}

export interface Failure {
  method: string;
  path: RegExp;
  status: number;
  code: string;
}

export interface ContractServerOptions {
  /** Static files: path -> [content type, body]. */
  files?: Record<string, [string, string | Buffer]>;
}

export type SeedRow = Partial<AppNotification> & { id: string };

export function makeRow(seed: SeedRow, index = 0): AppNotification {
  // Not annotated: `archived_at` is only part of AppNotification once the archive API lands.
  const row = {
    type: 'default',
    title: `Notification ${seed.id}`,
    message: null,
    action_url: null,
    icon: 'bell' as const,
    icon_class: null,
    actions: [],
    data: {},
    read_at: null,
    archived_at: null,
    created_at: new Date(Date.UTC(2025, 0, 1, 12, 0, 0) + index * 60_000).toISOString(),
    ...seed,
  };
  return row;
}

export class ContractServer {
  rows: AppNotification[] = [];
  requests: RecordedRequest[] = [];
  failures: Failure[] = [];
  /** HTML served at `/` and `/page2`. */
  html = '<!doctype html><title>empty</title>';
  /** Delay (ms) applied to mutations, to observe optimistic state. */
  mutationDelay = 0;
  readonly sseClients = new Set<ServerResponse>();
  readonly #server: Server;
  readonly #files: Record<string, [string, string | Buffer]>;

  constructor(options: ContractServerOptions = {}) {
    this.#files = options.files ?? {};
    this.#server = createServer((req, res) => {
      this.#handle(req, res).catch((error: unknown) => {
        res.statusCode = 500;
        res.end(JSON.stringify({ error: String(error), code: 'INTERNAL' }));
      });
    });
  }

  get url(): string {
    const address = this.#server.address() as AddressInfo;
    return `http://127.0.0.1:${address.port}`;
  }

  async listen(): Promise<this> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    return this;
  }

  async close(): Promise<void> {
    for (const client of this.sseClients) client.end();
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  /** Rows with later `created_at` for higher indexes; stored newest first. */
  reset(seeds: SeedRow[]): void {
    this.rows = seeds.map((seed, index) => makeRow(seed, index)).sort((a, b) => Date.parse(b.created_at) - Date.parse(a.created_at));
    this.requests = [];
    this.failures = [];
    this.mutationDelay = 0;
  }

  unread(): number {
    return this.rows.filter((row) => row.read_at === null).length;
  }

  failNext(method: string, path: RegExp, status = 500, code = 'INTERNAL'): void {
    this.failures.push({ method, path, status, code });
  }

  /** Sends one SSE message `{event, data}` to every connected hub client. */
  push(event: string, data: unknown): void {
    const frame = `data: ${JSON.stringify({ event, data })}\n\n`;
    for (const client of this.sseClients) client.write(frame);
  }

  /** Stores a new row and pushes `notification.created`, like the real backend. */
  create(seed: SeedRow): AppNotification {
    const row = makeRow({ created_at: new Date().toISOString(), ...seed });
    this.rows.unshift(row);
    this.push('notification.created', { ...row, unread_count: this.unread() });
    return row;
  }

  #json(res: ServerResponse, status: number, body: unknown): void {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const method = req.method ?? 'GET';
    const path = url.pathname;
    const csrfHeader = req.headers['x-csrf-token'];
    this.requests.push({ method, path: `${path}${url.search}`, csrf: typeof csrfHeader === 'string' ? csrfHeader : undefined });

    if (path === '/' || path === '/page2') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(this.html);
      return;
    }
    if (path.startsWith('/target/')) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><title>Target ${path}</title><h1>Target</h1>`);
      return;
    }
    const file = this.#files[path];
    if (file) {
      res.writeHead(200, { 'content-type': file[0], 'cache-control': 'no-store' });
      res.end(file[1]);
      return;
    }
    if (path === '/hub') {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' });
      res.write(': connected\n\n');
      this.sseClients.add(res);
      req.on('close', () => this.sseClients.delete(res));
      return;
    }
    if (!path.startsWith('/notification/notifications')) {
      this.#json(res, 404, { error: 'Not found', code: 'NOT_FOUND' });
      return;
    }

    const failure = this.failures.findIndex((candidate) => candidate.method === method && candidate.path.test(path));
    if (failure >= 0) {
      const [{ status, code }] = this.failures.splice(failure, 1) as [Failure];
      this.#json(res, status, { error: `Injected failure ${status}`, code });
      return;
    }
    if (method !== 'GET') {
      if (csrfHeader !== CSRF_TOKEN) {
        this.#json(res, 403, { error: 'Missing or invalid CSRF token', code: 'CSRF_MISMATCH' });
        return;
      }
      if (this.mutationDelay > 0) await new Promise((resolve) => setTimeout(resolve, this.mutationDelay));
    }
    this.#api(method, path, url, res);
  }

  #api(method: string, path: string, url: URL, res: ServerResponse): void {
    const base = '/notification/notifications';
    const idMatch = /^\/notification\/notifications\/([^/]+?)(\/read)?\.json$/.exec(path);
    if (method === 'GET' && (path === `${base}.json` || path === `${base}/unread.json`)) {
      const page = Number(url.searchParams.get('page') ?? '1');
      const limit = Number(url.searchParams.get('limit') ?? '20');
      const status = url.searchParams.get('status') ?? 'all';
      if (!Number.isInteger(page) || page < 1 || !Number.isInteger(limit) || limit < 1 || limit > 100 || !['all', 'read', 'unread'].includes(status)) {
        this.#json(res, 400, { error: 'Bad page, limit or status', code: 'INVALID_PARAMETER' });
        return;
      }
      const unreadOnly = path.endsWith('unread.json') || status === 'unread';
      const rows = this.rows.filter((row) => (unreadOnly ? row.read_at === null : status === 'read' ? row.read_at !== null : true));
      const pages = Math.max(1, Math.ceil(rows.length / limit));
      this.#json(res, 200, {
        notifications: rows.slice((page - 1) * limit, page * limit),
        meta: { page, limit, total: rows.length, pages, has_next_page: page < pages, unread_count: this.unread(), count: this.unread() },
      });
      return;
    }
    if (method === 'PATCH' && path === `${base}/mark-all-read.json`) {
      const now = new Date().toISOString();
      let marked = 0;
      for (const row of this.rows) {
        if (row.read_at === null) {
          row.read_at = now;
          marked += 1;
        }
      }
      this.#json(res, 200, { marked, meta: { unread_count: 0 } });
      this.push('notification.marked-all-read', { unread_count: 0 });
      return;
    }
    if (method === 'DELETE' && path === `${base}.json`) {
      const deleted = this.rows.length;
      this.rows = [];
      this.#json(res, 200, { deleted, meta: { unread_count: 0 } });
      return;
    }
    if (idMatch) {
      const id = decodeURIComponent(idMatch[1] ?? '');
      const row = this.rows.find((candidate) => candidate.id === id);
      if (!row) {
        this.#json(res, 404, { error: `Notification ${id} not found`, code: 'NOT_FOUND' });
        return;
      }
      if (method === 'PATCH' && idMatch[2]) {
        row.read_at ??= new Date().toISOString();
        this.#json(res, 200, { notification: row, meta: { unread_count: this.unread() } });
        this.push('notification.marked-read', { notification_id: id, unread_count: this.unread() });
        return;
      }
      if (method === 'DELETE' && !idMatch[2]) {
        this.rows = this.rows.filter((candidate) => candidate.id !== id);
        this.#json(res, 200, { deleted: 1, meta: { unread_count: this.unread() } });
        this.push('notification.deleted', { notification_id: id, unread_count: this.unread() });
        return;
      }
      if (method === 'GET' && !idMatch[2]) {
        this.#json(res, 200, { notification: row, meta: { unread_count: this.unread() } });
        return;
      }
    }
    this.#json(res, 404, { error: 'Not found', code: 'NOT_FOUND' });
  }
}
