import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface ReceivedRequest {
  method: string;
  /** The raw request target, byte for byte. */
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
  json: unknown;
}

export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  body?: string;
  /** Wait this long before answering. */
  delayMs?: number;
}

export type ReplyPlan = Reply | ((request: ReceivedRequest, index: number) => Reply);

/** A Rocket.Chat stand-in on 127.0.0.1: records every request and answers from `plan` (then 200 `{"success":true}`). */
export interface WebhookServer {
  readonly origin: string;
  readonly port: number;
  readonly requests: ReceivedRequest[];
  close(): Promise<void>;
}

export async function startWebhookServer(
  plan: ReplyPlan[] = [],
  tls?: { key: string; cert: string },
): Promise<WebhookServer> {
  const requests: ReceivedRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch {
        json = undefined;
      }
      const received: ReceivedRequest = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body, json };
      const index = requests.push(received) - 1;
      const step = plan[index];
      const reply = typeof step === 'function' ? step(received, index) : (step ?? {});
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
        res.end(reply.body ?? '{"success":true}');
      };
      if (reply.delayMs) {
        const timer = setTimeout(() => {
          timers.delete(timer);
          send();
        }, reply.delayMs);
        timers.add(timer);
      } else send();
    });
  };
  const server: Server = tls ? createHttpsServer(tls, handler) : createHttpServer(handler);
  await listen(server);
  const port = (server.address() as AddressInfo).port;
  return {
    origin: `${tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    port,
    requests,
    close: async () => {
      for (const t of timers) clearTimeout(t);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A TCP server on 127.0.0.1 that hands each connection to `onConnection`; counts them and destroys them on close. */
export interface RawTcpServer {
  readonly port: number;
  /** Connections accepted so far. */
  connections(): number;
  /** Connections still open. */
  open(): number;
  close(): Promise<void>;
}

export async function startRawTcpServer(onConnection: (socket: Socket) => void): Promise<RawTcpServer> {
  const sockets = new Set<Socket>();
  let count = 0;
  const server = createNetServer((socket) => {
    count++;
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
    onConnection(socket);
  });
  await listen(server);
  return {
    port: (server.address() as AddressInfo).port,
    connections: () => count,
    open: () => sockets.size,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Accepts TCP connections and never speaks: a TLS handshake against it never completes. */
export async function startSilentServer(): Promise<RawTcpServer & { origin: string }> {
  const server = await startRawTcpServer(() => {});
  return { ...server, origin: `https://127.0.0.1:${server.port}` };
}

/** A throwaway self-signed certificate for 127.0.0.1, made with the system openssl. */
export function makeSelfSignedCert(): { key: string; cert: string; certPath: string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'chat-notifier-tls-'));
  const keyPath = join(dir, 'key.pem');
  const certPath = join(dir, 'cert.pem');
  const openssl = ['/usr/bin/openssl', '/usr/local/bin/openssl'].find((p) => existsSync(p)) ?? 'openssl';
  try {
    execFileSync(
      openssl,
      ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', keyPath, '-out', certPath, '-days', '1',
        '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost'],
      { stdio: 'ignore' },
    );
  } catch (error) {
    throw new Error(`The TLS tests need the openssl binary to make a test certificate (apt-get install openssl): ${(error as Error).message}`);
  }
  return {
    key: readFileSync(keyPath, 'utf8'),
    cert: readFileSync(certPath, 'utf8'),
    certPath,
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

function listen(server: { listen(port: number, host: string, cb: () => void): unknown; once(e: 'error', cb: (err: Error) => void): unknown }): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
}
