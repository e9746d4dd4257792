import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { TOKEN, webhookUrl } from '../test/support/fixtures.js';
import { startWebhookServer, type ReplyPlan, type WebhookServer } from '../test/support/webhook-server.js';
import { ChatChannel, type ChatChannelOptions } from './chat-channel.js';
import { ChatMessage } from './chat-message.js';
import type { ChatInstanceConfig } from './config.js';
import { CouldNotSendNotification, InvalidChatPayload, InvalidChatTarget } from './errors.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function setup(plan: ReplyPlan[] = [], config: Partial<ChatInstanceConfig> = {}, options: ChatChannelOptions = {}) {
  const server = await startWebhookServer(plan);
  cleanups.push(() => server.close());
  const channel = new ChatChannel({ webhook: webhookUrl(server.origin), retry: { jitter: false, min_delay: 0.05 }, ...config }, options);
  cleanups.push(() => channel.close());
  return { server, channel };
}

async function failure(promise: Promise<unknown>): Promise<CouldNotSendNotification> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof CouldNotSendNotification) return error;
    throw error;
  }
  throw new Error('expected the send to fail');
}

function onlyRequest(server: WebhookServer) {
  expect(server.requests).toHaveLength(1);
  return server.requests[0]!;
}

describe('ChatChannel against a real HTTP server', () => {
  it('posts the exact JSON to the webhook path exactly as configured', async () => {
    const { server, channel } = await setup();
    const result = await channel.send('#deploys', ChatMessage.create('hello').username('Bot').attachment((a) => a.title('T').field('A', 'b', true)));
    const request = onlyRequest(server);
    expect(request.method).toBe('POST');
    // "/", "+", "=" and "%2F" in the token arrive untouched.
    expect(request.url).toBe(`/hooks/hook-id-1/${TOKEN}`);
    expect(request.body).toBe(
      '{"text":"hello","alias":"Bot","attachments":[{"title":"T","fields":[{"short":true,"title":"A","value":"b"}]}],"channel":"#deploys"}',
    );
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['user-agent']).toBe('@org/chat-notifier');
    expect(result).toMatchObject({ ok: true, status: 200, body: '{"success":true}', attempts: 1 });
  });

  it('sends a string as text and a plain object as the payload', async () => {
    const { server, channel } = await setup();
    await channel.send('@jane', 'just text');
    await channel.send(null, { text: 'raw', emoji: ':fire:', attachments: [{ title: 'x', color: '#000' }] });
    expect(server.requests.map((r) => r.json)).toEqual([
      { text: 'just text', channel: '@jane' },
      { text: 'raw', emoji: ':fire:', attachments: [{ title: 'x', color: '#000' }] },
    ]);
  });

  it("omits channel when the target is null or equals the instance's default", async () => {
    const { server, channel } = await setup([], { channel: '#general' });
    await channel.send(null, 'a');
    await channel.send('#general', 'b');
    await channel.send(['#general'], 'c');
    await channel.send('#random', 'd');
    expect(server.requests.map((r) => r.json)).toEqual([{ text: 'a' }, { text: 'b' }, { text: 'c' }, { text: 'd', channel: '#random' }]);
  });

  it('refuses a non-default target when override_channel is false, before any request', async () => {
    const { server, channel } = await setup([], { channel: '#general', override_channel: false });
    await expect(channel.send('#random', 'x')).rejects.toThrowError(InvalidChatTarget);
    await channel.send('#general', 'ok');
    expect(server.requests.map((r) => r.json)).toEqual([{ text: 'ok' }]);
  });

  it('adds the configured headers to every request', async () => {
    const { server, channel } = await setup([], { headers: { 'X-Tenant': 'acme', Authorization: 'Bearer abc' } });
    await channel.send(null, 'one');
    await channel.send(null, 'two');
    for (const request of server.requests) {
      expect(request.headers['x-tenant']).toBe('acme');
      expect(request.headers.authorization).toBe('Bearer abc');
      expect(request.headers['content-type']).toBe('application/json');
    }
    expect(server.requests).toHaveLength(2);
  });

  it('validates before sending: an invalid payload never reaches the server', async () => {
    const { server, channel } = await setup();
    await expect(channel.send(null, { text: 'x', attachments: [{ image_url: 'graph.png' }] })).rejects.toThrowError(
      'Invalid chat payload: attachments[0].image_url: expected an absolute http(s) URL, got "graph.png"',
    );
    await expect(channel.send(null, '')).rejects.toThrowError(InvalidChatPayload);
    expect(server.requests).toHaveLength(0);
  });

  it('enforces max_payload_bytes', async () => {
    const { server, channel } = await setup([], { max_payload_bytes: 100 });
    await expect(channel.send(null, 'x'.repeat(200))).rejects.toThrowError(/over the limit of 100 \(max_payload_bytes of instance "chat"\)/);
    await channel.send(null, 'short');
    expect(server.requests).toHaveLength(1);
  });

  it('treats 400 as final: one request, CouldNotSendNotification with status, headers and body', async () => {
    const body = '{"success":false,"error":"invalid-channel"}';
    const { server, channel } = await setup([{ status: 400, body, headers: { 'x-request-id': 'r1' } }]);
    const error = await failure(channel.send('#nope', 'x'));
    expect(server.requests).toHaveLength(1);
    expect(error.code).toBe('CHAT_HTTP_ERROR');
    expect(error.channel).toBe('chat');
    expect(error.attempts).toBe(1);
    expect(error.response).toMatchObject({ status: 400, body, headers: { 'x-request-id': 'r1' } });
    expect(error.message).toBe(
      `Rocket.Chat responded with an error \`400 - ${body}\` (instance "chat", ${server.origin}/hooks/***, 1 attempt)`,
    );
  });

  it.each([401, 403, 404])('treats %i as final', async (status) => {
    const { server, channel } = await setup([{ status }]);
    expect((await failure(channel.send(null, 'x'))).response?.status).toBe(status);
    expect(server.requests).toHaveLength(1);
  });

  it('does not retry a 500 by default (the message may have been stored)', async () => {
    const { server, channel } = await setup([{ status: 500 }]);
    expect((await failure(channel.send(null, 'x'))).response?.status).toBe(500);
    expect(server.requests).toHaveLength(1);
  });

  it('retries a 500 then succeeds when the policy lists 500', async () => {
    const { server, channel } = await setup([{ status: 500 }], { retry: { statuses: [500], min_delay: 0.05, jitter: false } });
    const result = await channel.send(null, 'x');
    expect(result).toMatchObject({ ok: true, attempts: 2 });
    expect(server.requests).toHaveLength(2);
  });

  it.each([502, 503, 504])('retries %i with backoff then succeeds', async (status) => {
    const { server, channel } = await setup([{ status }, { status }]);
    const started = Date.now();
    const result = await channel.send(null, 'x');
    expect(result.attempts).toBe(3);
    expect(server.requests).toHaveLength(3);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140); // 0.05 s + 0.1 s of backoff
  });

  it('waits until X-RateLimit-Reset (epoch ms) after a 429, then delivers the message once', async () => {
    let resetAt = 0;
    const { server, channel } = await setup([
      () => {
        resetAt = Date.now() + 400;
        return {
          status: 429,
          headers: { 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(resetAt) },
          body: '{"success":false,"error":"Error, too many requests. Please slow down. You must wait 1 seconds before trying this endpoint again. [error-too-many-requests]"}',
        };
      },
    ]);
    const result = await channel.send('#alerts', 'once');
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]!.json).toEqual({ text: 'once', channel: '#alerts' });
    expect(Date.now()).toBeGreaterThanOrEqual(resetAt - 5);
    expect(result).toMatchObject({ ok: true, attempts: 2, status: 200 });
  });

  it('honours Retry-After in seconds', async () => {
    const { server, channel } = await setup([{ status: 429, headers: { 'retry-after': '1' } }]);
    const started = Date.now();
    await channel.send(null, 'x');
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(server.requests).toHaveLength(2);
  });

  it('gives up at once with CHAT_RATE_LIMITED and retryAfter when the server asks for longer than max_delay', async () => {
    const { server, channel } = await setup([{ status: 429, headers: { 'retry-after': '120' } }]);
    const error = await failure(channel.send(null, 'x'));
    expect(server.requests).toHaveLength(1);
    expect(error.code).toBe('CHAT_RATE_LIMITED');
    expect(error.retryAfter).toBe(120);
    expect(error.message).toMatch(/the server asked to wait 120 s/);
  });

  it('stops after retries + 1 attempts and reports how many were made', async () => {
    const { server, channel } = await setup([{ status: 503 }, { status: 503 }, { status: 503 }], {
      retry: { retries: 2, min_delay: 0.02, jitter: false },
    });
    const error = await failure(channel.send(null, 'x'));
    expect(server.requests).toHaveLength(3);
    expect(error.attempts).toBe(3);
    expect(error.message).toMatch(/3 attempts/);
  });

  it('makes one attempt only with retry: false', async () => {
    const { server, channel } = await setup([{ status: 503 }], { retry: false });
    await failure(channel.send(null, 'x'));
    expect(server.requests).toHaveLength(1);
  });

  it('returns a non-2xx answer instead of throwing with http_errors: false', async () => {
    const { server, channel } = await setup([{ status: 400, body: '{"success":false}' }], { http_errors: false });
    const result = await channel.send(null, 'x');
    expect(result).toMatchObject({ ok: false, status: 400, body: '{"success":false}', attempts: 1 });
    expect(server.requests).toHaveLength(1);
  });

  it('keeps at most 64 KiB of an error body', async () => {
    const { channel } = await setup([{ status: 400, body: 'e'.repeat(200_000) }]);
    const error = await failure(channel.send(null, 'x'));
    expect(error.response?.body.length).toBe(64 * 1024);
    expect(error.message.length).toBeLessThan(1000);
  });

  it('never puts the webhook token in errors, logs or inspection output', async () => {
    const logs: string[] = [];
    const echo = `{"success":false,"error":"bad token ${TOKEN}"}`;
    const { channel } = await setup([{ status: 503 }, { status: 401, body: echo }], {}, { logger: { warn: (m, d) => logs.push(m + JSON.stringify(d)) } });
    const error = await failure(channel.send(null, 'x'));
    const everything = [error.message, String(error), inspect(error, { depth: 10 }), JSON.stringify(error), JSON.stringify(error.response), logs.join('\n'), inspect(channel), JSON.stringify(channel)].join('\n');
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatch(/instance "chat" got HTTP 503 from http:\/\/127\.0\.0\.1:\d+\/hooks\/\*\*\*; retrying in 0\.05 s \(attempt 2 of 4\)/);
    for (const secret of [TOKEN, 'tok3n', decodeURIComponent(TOKEN)]) expect(everything).not.toContain(secret);
  });

  it('cancels with the caller signal, also while waiting to retry', async () => {
    const { server, channel } = await setup([{ status: 503 }], { retry: { min_delay: 5, jitter: false } });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('shutting down')), 100);
    const error = await failure(channel.send(null, 'x', { signal: controller.signal }));
    expect(error.code).toBe('CHAT_ABORTED');
    expect(server.requests).toHaveLength(1);
  });
});

describe('the package enforces its own deadline', () => {
  // A transport that never settles and ignores its signal, as a buggy or custom one might.
  const hanging = { post: () => new Promise<never>(() => {}) };

  it('timeout ends an attempt whose transport ignores the signal', async () => {
    const channel = new ChatChannel({ webhook: 'https://chat.example.com/hooks/id/tok3n-value-x', timeout: 0.2, retry: false }, { env: {}, transport: hanging });
    const started = Date.now();
    const error = await failure(channel.send(null, 'x'));
    expect(error.code).toBe('CHAT_TIMEOUT');
    expect(Date.now() - started).toBeLessThan(200 + 1500);
  });

  it("the caller's AbortSignal ends it too", async () => {
    const channel = new ChatChannel({ webhook: 'https://chat.example.com/hooks/id/tok3n-value-x', timeout: 30, retry: false }, { env: {}, transport: hanging });
    const started = Date.now();
    const error = await failure(channel.send(null, 'x', { signal: AbortSignal.timeout(100) }));
    expect(error.code).toBe('CHAT_ABORTED');
    expect(Date.now() - started).toBeLessThan(100 + 1500);
  });
});
