import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import PusherServer from 'pusher';
import { ConformanceError } from './errors.js';
import type { AppCredentials } from './target.js';

/** One event of a webhook body (`events[]`). */
export interface WebhookEvent {
  readonly name: string;
  readonly channel?: string;
  readonly [field: string]: unknown;
}

/** One request the receiver got. */
export interface ReceivedWebhook {
  readonly receivedAt: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  /** The `pusher` SDK's `webhook().isValid()`: `X-Pusher-Key` is the app's and `X-Pusher-Signature` signs the body. */
  readonly valid: boolean;
  /** `events` of the body; empty when it was not JSON with an events array. */
  readonly events: readonly WebhookEvent[];
  readonly timeMs: unknown;
}

export interface WebhookInbox {
  readonly requests: readonly ReceivedWebhook[];
}

export interface WebhookReceiver extends WebhookInbox {
  readonly url: string;
  close(): Promise<void>;
}

/** Webhook bodies are small; anything past this is cut off (and then fails the JSON parse). */
const maxBodyBytes = 1024 * 1024;

export function parseEvents(body: string): { events: WebhookEvent[]; timeMs: unknown } {
  try {
    const parsed = JSON.parse(body) as { events?: unknown; time_ms?: unknown };
    const events = Array.isArray(parsed.events) ? parsed.events.filter((event): event is WebhookEvent => typeof event === 'object' && event !== null) : [];
    return { events, timeMs: parsed.time_ms };
  } catch {
    return { events: [], timeMs: undefined };
  }
}

/**
 * Listens on `host:port` for the app's webhooks, answers each 200 and keeps it, with whether the
 * official SDK accepts its signature. Cases look for events of their own (uniquely named) channels.
 */
export async function startWebhookReceiver(options: { host: string; port: number; app: AppCredentials }): Promise<WebhookReceiver> {
  const verifier = new PusherServer({ appId: options.app.id, key: options.app.key, secret: options.app.secret, host: options.host });
  const requests: ReceivedWebhook[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBodyBytes) chunks.push(chunk);
    });
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let valid = false;
      try {
        valid = verifier.webhook({ headers: request.headers as Record<string, string>, rawBody: body }).isValid();
      } catch {
        valid = false;
      }
      requests.push({ receivedAt: Date.now(), headers: request.headers, body, valid, ...parseEvents(body) });
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{}');
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error) => reject(new ConformanceError('RECEIVER_FAILED', `the webhook receiver cannot listen on ${options.host}:${options.port}: ${error.message}`, { cause: error })));
    server.listen(options.port, options.host, () => resolve());
  });
  return {
    url: `http://${options.host}:${options.port}/`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The events of every request so far whose channel is `channel`, each with its request. */
export function eventsFor(inbox: WebhookInbox, channel: string): { event: WebhookEvent; request: ReceivedWebhook }[] {
  return inbox.requests.flatMap((request) => request.events.filter((event) => event.channel === channel).map((event) => ({ event, request })));
}
