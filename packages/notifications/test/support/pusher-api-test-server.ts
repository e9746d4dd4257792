import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One accepted `POST /apps/{id}/events` call, with `data` decoded back from its JSON string. */
interface ReceivedTrigger {
  name: string;
  channels: string[];
  data: unknown;
  socket_id?: string;
}

export interface PusherApiTestServer {
  port: number;
  triggers: ReceivedTrigger[];
  /** Requests refused (bad signature, bad md5...), with the reason. */
  rejected: string[];
  /** Makes the next requests answer this status instead of 200. */
  failWith(status: number | null): void;
  close(): Promise<void>;
}

/**
 * A real loopback HTTP server that checks the Pusher request signature the way a Pusher
 * server does (written from the protocol notes, independent of the broadcaster under test).
 * The official `pusher` SDK is run against it too, to prove the checker is right.
 */
export async function startPusherApiTestServer(appId: string, key: string, secret: string): Promise<PusherApiTestServer> {
  const triggers: ReceivedTrigger[] = [];
  const rejected: string[] = [];
  let failStatus: number | null = null;

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const reject = (status: number, reason: string): void => {
        rejected.push(reason);
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ error: reason }));
      };
      if (req.method !== 'POST' || url.pathname !== `/apps/${appId}/events`) return reject(404, `unexpected ${req.method} ${url.pathname}`);
      const params = Object.fromEntries(url.searchParams.entries());
      const signature = params.auth_signature ?? '';
      delete params.auth_signature;
      if (params.auth_key !== key) return reject(401, 'wrong auth_key');
      if (Math.abs(Date.now() / 1000 - Number(params.auth_timestamp)) > 600) return reject(401, 'stale auth_timestamp');
      if (params.body_md5 !== createHash('md5').update(body).digest('hex')) return reject(401, 'body_md5 mismatch');
      const toSign = ['POST', url.pathname, Object.keys(params).sort().map((k) => `${k}=${params[k]}`).join('&')].join('\n');
      const expected = createHmac('sha256', secret).update(toSign).digest();
      const given = Buffer.from(signature, 'hex');
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return reject(401, 'auth_signature mismatch');
      if (failStatus !== null) return reject(failStatus, `forced ${failStatus}`);
      const parsed = JSON.parse(body) as { name: string; channels?: string[]; channel?: string; data: string; socket_id?: string };
      triggers.push({
        name: parsed.name,
        channels: parsed.channels ?? (parsed.channel ? [parsed.channel] : []),
        data: JSON.parse(parsed.data),
        ...(parsed.socket_id === undefined ? {} : { socket_id: parsed.socket_id }),
      });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    triggers,
    rejected,
    failWith(status) {
      failStatus = status;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
