import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import PusherServer from 'pusher';

export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  rawBody: string;
  /** What the answer was. */
  status: number;
  /** The `pusher` SDK's verdict (`webhook().isValid()`) with the app's key and secret. */
  valid: boolean;
  /** The SDK's `getEvents()` for valid webhooks, else `[]`. */
  events: Record<string, unknown>[];
  path: string;
}

export interface WebhookReceiver {
  /** `http://127.0.0.1:{port}/webhook`. */
  readonly url: string;
  readonly received: ReceivedWebhook[];
  /** Events of the requests answered 2xx, in arrival order. */
  accepted(): Record<string, unknown>[];
  /** Resolves once `count` events were accepted in total. */
  waitForAccepted(count: number, timeoutMs?: number): Promise<Record<string, unknown>[]>;
  close(): Promise<void>;
}

/**
 * A real HTTP server on 127.0.0.1 that receives webhooks the way a host app
 * does: it checks each with the official SDK. `answer(n)` decides the status
 * of the n-th request (1-based); default 200.
 */
export async function startWebhookReceiver(app: { id: string; key: string; secret: string }, answer: (n: number) => number = () => 200): Promise<WebhookReceiver> {
  const sdk = new PusherServer({ appId: app.id, key: app.key, secret: app.secret, host: '127.0.0.1' });
  const received: ReceivedWebhook[] = [];
  const waiters = new Set<() => void>();
  const accepted = () => received.filter((r) => r.status >= 200 && r.status < 300).flatMap((r) => r.events);

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks).toString('utf8');
      const webhook = sdk.webhook({ headers: req.headers as Record<string, string>, rawBody });
      const valid = webhook.isValid();
      const status = answer(received.length + 1);
      received.push({ headers: req.headers, rawBody, status, valid, events: valid ? (webhook.getEvents() as unknown as Record<string, unknown>[]) : [], path: req.url ?? '' });
      res.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? 'ok' : 'nope');
      for (const waiter of waiters) waiter();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/webhook`,
    received,
    accepted,
    waitForAccepted(count, timeoutMs = 10_000) {
      if (accepted().length >= count) return Promise.resolve(accepted());
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`expected ${count} accepted webhook events within ${timeoutMs} ms, got ${JSON.stringify(accepted())}`));
        }, timeoutMs);
        const check = () => {
          if (accepted().length < count) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(accepted());
        };
        waiters.add(check);
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
