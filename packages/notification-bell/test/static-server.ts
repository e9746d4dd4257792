/**
 * A tiny static file server (node:http) for the embed tests: it serves plain
 * HTML pages and directories of real built files, the way a web server or a
 * CDN would, with no import map and no rewriting. Requests under a proxied
 * prefix (the notifications API) are forwarded to another server, so a page
 * and its API share an origin as they do in an application. Test code only.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, resolve, sep } from 'node:path';

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

export interface ServedRequest {
  method: string;
  /** Path and query string. */
  path: string;
  status: number;
}

export interface StaticServerOptions {
  /** URL path prefix (ending in `/`) → directory whose files are served below it. */
  directories?: Record<string, string>;
  /** Exact URL path → HTML. Also settable later through `pages`. */
  pages?: Record<string, string>;
  /** Requests whose path starts with `prefix` go to `target` (e.g. `http://127.0.0.1:4000`) unchanged. */
  proxy?: { prefix: string; target: string };
}

export interface StaticServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  pages: Record<string, string>;
  /** Every request answered, oldest first (proxied ones too). */
  requests: ServedRequest[];
  close(): Promise<void>;
}

export async function startStaticServer(options: StaticServerOptions = {}): Promise<StaticServer> {
  const pages: Record<string, string> = { ...options.pages };
  const requests: ServedRequest[] = [];
  const directories = Object.entries(options.directories ?? {}).map(([prefix, dir]) => [prefix, resolve(dir)] as const);

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const record = (status: number) => requests.push({ method: req.method ?? 'GET', path: `${url.pathname}${url.search}`, status });
    if (options.proxy && url.pathname.startsWith(options.proxy.prefix)) {
      forward(req, res, options.proxy.target, record);
      return;
    }
    const answer = (status: number, type: string, body: string | Buffer) => {
      record(status);
      // Like a CDN: any page may load these files as module scripts (CORS applies to them).
      res.writeHead(status, { 'content-type': type, 'access-control-allow-origin': '*', 'cache-control': 'no-store' });
      res.end(req.method === 'HEAD' ? undefined : body);
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') return answer(405, CONTENT_TYPES['.txt'] ?? '', 'method not allowed');
    const page = Object.hasOwn(pages, url.pathname) ? pages[url.pathname] : undefined;
    if (page !== undefined) return answer(200, CONTENT_TYPES['.html'] ?? '', page);
    const file = fileFor(directories, url.pathname);
    if (!file) return answer(404, CONTENT_TYPES['.txt'] ?? '', 'not found');
    answer(200, CONTENT_TYPES[extname(file)] ?? 'application/octet-stream', readFileSync(file));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    pages,
    requests,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

/** The file a path names inside one of the directories; never one outside them (`..`, encoded or not). */
function fileFor(directories: ReadonlyArray<readonly [string, string]>, pathname: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return undefined;
  }
  for (const [prefix, dir] of directories) {
    if (!decoded.startsWith(prefix)) continue;
    const file = resolve(dir, `.${sep}${decoded.slice(prefix.length)}`);
    if (!file.startsWith(`${dir}${sep}`)) return undefined;
    if (existsSync(file) && statSync(file).isFile()) return file;
  }
  return undefined;
}

function forward(req: IncomingMessage, res: ServerResponse, target: string, record: (status: number) => void): void {
  const { hostname, port } = new URL(target);
  const upstream = httpRequest({ hostname, port, method: req.method, path: req.url, headers: { ...req.headers, host: `${hostname}:${port}` } }, (answer) => {
    record(answer.statusCode ?? 502);
    res.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(res);
  });
  upstream.on('error', (error) => {
    record(502);
    if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
    res.end(String(error));
  });
  req.pipe(upstream);
}

/** The most recently modified file under `dir` (to tell whether dist/ is older than the sources it was built from). */
export function newestSourceChange(dir: string): { path: string; mtimeMs: number } {
  let newest = { path: dir, mtimeMs: 0 };
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || entry.name.endsWith('.test.ts')) continue;
    const path = join(entry.parentPath, entry.name);
    const { mtimeMs } = statSync(path);
    if (mtimeMs > newest.mtimeMs) newest = { path, mtimeMs };
  }
  return newest;
}
