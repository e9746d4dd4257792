import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { MetricsError } from './errors.js';
import type { Exposition } from './exposition.js';
import { isFunction, parseOptions } from './options.js';

export interface MetricsListenerOptions {
  /** The address to listen on, e.g. `127.0.0.1` (only local scrapers) or a private one. */
  host: string;
  /** The port; 0 picks a free one (see `MetricsListener.port`). */
  port: number;
  /** The body of each scrape, e.g. `metrics.render` (a rejection is answered 500). */
  render: () => Promise<Exposition>;
  /** How long to keep trying a port that is in use: a restarting daemon hands it over. Default 2,000 ms. */
  retryInUseMs?: number;
}

const optionsSchema = z.object({
  host: z.string({ error: 'host must be an address such as "127.0.0.1"' }).min(1, { error: 'host must be an address such as "127.0.0.1"' }),
  port: z.number({ error: 'port must be a number' }).int({ error: 'port must be an integer' }).min(0, { error: 'port must be 0 to 65535' }).max(65_535, { error: 'port must be 0 to 65535' }),
  render: z.custom<MetricsListenerOptions['render']>(isFunction, { error: 'render must be a function' }),
  retryInUseMs: z.number({ error: 'retryInUseMs must be a number of milliseconds' }).int({ error: 'retryInUseMs must be an integer number of milliseconds' }).min(0, { error: 'retryInUseMs must be at least 0' }).default(2_000),
});

export interface MetricsListener {
  readonly port: number;
  /** Stops accepting and closes open (keep-alive) scrape connections. */
  close(): Promise<void>;
}

async function answer(request: IncomingMessage, response: ServerResponse, render: MetricsListenerOptions['render']): Promise<void> {
  const path = (request.url ?? '/').split('?', 1)[0];
  if (path !== '/metrics') {
    response.writeHead(404, { 'content-type': 'text/plain' }).end('not found; metrics are at /metrics\n');
    return;
  }
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    response.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain' }).end('method not allowed\n');
    return;
  }
  try {
    const { contentType, body } = await render();
    response.writeHead(200, { 'content-type': contentType, 'content-length': Buffer.byteLength(body) });
    response.end(request.method === 'HEAD' ? undefined : body);
  } catch {
    response.writeHead(500, { 'content-type': 'text/plain' }).end('metrics unavailable\n');
  }
}

function listenOnce(server: Server, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error) => {
      server.off('listening', onListening);
      reject(error);
    };
    const onListening = () => {
      server.off('error', onError);
      resolve();
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, host);
  });
}

/**
 * `GET /metrics` on a port of its own (plain HTTP, nothing else served), so
 * Prometheus can scrape on a private interface while the public port does
 * not expose process and per-app figures. Other paths are 404, other methods
 * 405 (`Allow: GET, HEAD`), a failed `render` 500; all in plain text.
 * Throws `MetricsError('LISTEN_FAILED')` when it cannot listen.
 */
export async function listenForMetrics(options: MetricsListenerOptions): Promise<MetricsListener> {
  const { host, port: wanted, render, retryInUseMs } = parseOptions(optionsSchema, options, 'listenForMetrics');
  const server = createServer((request, response) => void answer(request, response, render));
  // Scrapers are few and local: no reason to keep idle connections for long.
  server.keepAliveTimeout = 5_000;
  const deadline = Date.now() + retryInUseMs;
  for (;;) {
    try {
      await listenOnce(server, host, wanted);
      break;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // During a restart the previous daemon is still releasing this port.
      if (code === 'EADDRINUSE' && wanted !== 0 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        continue;
      }
      throw new MetricsError('LISTEN_FAILED', `cannot listen on ${host}:${wanted}: ${code ?? (error as Error).message}`, { cause: error });
    }
  }
  const { port } = server.address() as AddressInfo;
  let closing: Promise<void> | undefined;
  return {
    port,
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
