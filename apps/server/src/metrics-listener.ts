import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface MetricsListenerOptions {
  host: string;
  port: number;
  render: () => Promise<{ contentType: string; body: string }>;
  /** How long to keep trying a port that is in use: a restarting daemon hands it over. Default 2,000 ms. */
  retryInUseMs?: number;
}

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
 * not expose process and per-app figures.
 */
export async function listenForMetrics(options: MetricsListenerOptions): Promise<MetricsListener> {
  const server = createServer((request, response) => void answer(request, response, options.render));
  // Scrapers are few and local: no reason to keep idle connections for long.
  server.keepAliveTimeout = 5_000;
  const deadline = Date.now() + (options.retryInUseMs ?? 2_000);
  for (;;) {
    try {
      await listenOnce(server, options.host, options.port);
      break;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // During a restart the previous daemon is still releasing this port.
      if (code === 'EADDRINUSE' && options.port !== 0 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        continue;
      }
      throw new Error(`metrics.port: cannot listen on ${options.host}:${options.port}: ${code ?? (error as Error).message}`, { cause: error });
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
