import { freePort } from '@org/dev-kit';
import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { webhookUrl } from '../test/support/fixtures.js';
import { startProxyServer } from '../test/support/proxy-server.js';
import { startWebhookServer } from '../test/support/webhook-server.js';
import { ChatChannel } from './chat-channel.js';
import type { ChatInstanceConfig } from './config.js';
import { ChatProxyFailure, CouldNotSendNotification, InvalidChatConfig } from './errors.js';

const PASSWORD = 'pr0xy-Pa55word';
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

function channel(config: ChatInstanceConfig): ChatChannel {
  const instance = new ChatChannel(config, { env: {} });
  cleanups.push(() => instance.close());
  return instance;
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.unreachable('expected the send to fail'),
    (error: unknown) => error,
  );
}

function everything(error: unknown): string {
  return [String(error), (error as Error).stack, inspect(error, { depth: Infinity, showHidden: true }), JSON.stringify(error)].join('\n');
}

describe('proxy failures are reported as the proxy’s, not Rocket.Chat’s', () => {
  it('a working proxy with credentials tunnels the request (the baseline)', async () => {
    const server = await startWebhookServer();
    const proxy = await startProxyServer({ auth: `user:${PASSWORD}` });
    cleanups.push(() => server.close(), () => proxy.close());
    const result = await channel({ webhook: webhookUrl(server.origin), proxy: proxy.urlWithAuth(`user:${PASSWORD}`) }).send(null, 'via proxy');
    expect(result.status).toBe(200);
    expect(proxy.targets).toEqual([`127.0.0.1:${server.port}`]);
    expect(server.requests).toHaveLength(1);
  });

  it('a proxy that is down: CHAT_PROXY_UNREACHABLE naming host:port, retried like a connection error, Rocket.Chat untouched', async () => {
    const server = await startWebhookServer();
    cleanups.push(() => server.close());
    const port = await freePort();
    const error = await rejection(
      channel({
        webhook: webhookUrl(server.origin),
        proxy: `http://user:${PASSWORD}@127.0.0.1:${port}`,
        retry: { retries: 1, min_delay: 0.01, jitter: false },
      }).send(null, 'x'),
    );
    expect(error).toBeInstanceOf(ChatProxyFailure);
    expect(error).toBeInstanceOf(CouldNotSendNotification); // existing handlers still catch it
    const failure = error as ChatProxyFailure;
    expect(failure.code).toBe('CHAT_PROXY_UNREACHABLE');
    expect(failure.proxy).toBe(`127.0.0.1:${port}`);
    expect(failure.attempts).toBe(2);
    expect(failure.message).toMatch(new RegExp(`^Could not connect to the proxy 127\\.0\\.0\\.1:${port} \\(ECONNREFUSED\\)`));
    expect(failure.message).toContain('the proxy failed, not Rocket.Chat');
    expect(failure.message).not.toMatch(/^The communication with Rocket\.Chat failed/);
    expect(everything(error)).not.toContain(PASSWORD);
    expect(server.requests).toHaveLength(0);
  });

  it('a proxy that wants credentials (407): CHAT_PROXY_REFUSED with proxyStatus 407, not retried', async () => {
    const server = await startWebhookServer();
    const proxy = await startProxyServer({ auth: `user:${PASSWORD}` });
    cleanups.push(() => server.close(), () => proxy.close());
    for (const url of [proxy.url, proxy.urlWithAuth('user:wrong-password')]) {
      const error = (await rejection(channel({ webhook: webhookUrl(server.origin), proxy: url }).send(null, 'x'))) as ChatProxyFailure;
      expect(error).toBeInstanceOf(ChatProxyFailure);
      expect(error.code).toBe('CHAT_PROXY_REFUSED');
      expect(error.proxyStatus).toBe(407);
      expect(error.attempts).toBe(1);
      expect(error.message).toMatch(new RegExp(`^The proxy 127\\.0\\.0\\.1:${proxy.port} refused to open a tunnel: .*407`));
      expect(everything(error)).not.toContain('wrong-password');
    }
    expect(server.requests).toHaveLength(0);
  });

  it('a proxy answering 5xx to CONNECT: CHAT_PROXY_REFUSED, retried (nothing reached Rocket.Chat)', async () => {
    const proxy = await startProxyServer({ mode: { status: 503 } });
    cleanups.push(() => proxy.close());
    const error = (await rejection(
      channel({ webhook: webhookUrl('http://127.0.0.1:9'), proxy: proxy.url, retry: { retries: 2, min_delay: 0.01, jitter: false } }).send(null, 'x'),
    )) as ChatProxyFailure;
    expect(error.code).toBe('CHAT_PROXY_REFUSED');
    expect(error.proxyStatus).toBe(503);
    expect(error.attempts).toBe(3);
    expect(proxy.targets).toHaveLength(3);
  });

  it('Rocket.Chat failing behind a working proxy is still a Rocket.Chat error', async () => {
    const server = await startWebhookServer([{ status: 400, body: '{"success":false}' }]);
    const proxy = await startProxyServer();
    cleanups.push(() => server.close(), () => proxy.close());
    const error = (await rejection(channel({ webhook: webhookUrl(server.origin), proxy: proxy.url }).send(null, 'x'))) as CouldNotSendNotification;
    expect(error).not.toBeInstanceOf(ChatProxyFailure);
    expect(error.code).toBe('CHAT_HTTP_ERROR');
  });

  it('a bad proxy option never echoes the password', () => {
    for (const proxy of [`socks5://user:${PASSWORD}@127.0.0.1:1080`, `http://user:${PASSWORD}@`, `user:${PASSWORD}@127.0.0.1:3128`, `http://user:${PASSWORD}/x@127.0.0.1:3128`]) {
      let error: unknown;
      try {
        new ChatChannel({ webhook: 'https://chat.example.com/hooks/a/b', proxy }, { env: {} });
      } catch (e) {
        error = e;
      }
      expect(error, proxy).toBeInstanceOf(InvalidChatConfig);
      expect((error as Error).message).toMatch(/^Invalid config for chat instance "chat": proxy: expected an http\(s\) proxy URL/);
      expect(everything(error)).not.toContain(PASSWORD);
    }
  });

  it('inspect and JSON of a proxied channel, its config and transport show the proxy masked', async () => {
    const seen: unknown[] = [];
    const instance = new ChatChannel(
      { webhook: 'https://chat.example.com/hooks/a/b', proxy: `http://user:${PASSWORD}@127.0.0.1:3128` },
      { env: {}, transport: (_name, config) => (seen.push(config), { post: () => Promise.reject(new Error('unused')) }) },
    );
    const { UndiciTransport } = await import('./undici-transport.js');
    const transport = new UndiciTransport({ timeout: 1, connect_timeout: 1, verify: true, proxy: `http://user:${PASSWORD}@127.0.0.1:3128` });
    cleanups.push(() => transport.close());
    const text = [inspect(instance), JSON.stringify(instance), inspect(seen[0]), JSON.stringify(seen[0]), inspect(transport), JSON.stringify(transport)].join('\n');
    expect(text).not.toContain(PASSWORD);
    expect(text).toContain('http://***@127.0.0.1:3128');
  });
});
