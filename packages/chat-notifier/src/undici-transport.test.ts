import { freePort } from '@org/dev-kit';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { webhookUrl } from '../test/support/fixtures.js';
import { startProxyServer } from '../test/support/proxy-server.js';
import { makeSelfSignedCert, startSilentServer, startWebhookServer } from '../test/support/webhook-server.js';
import { ChatChannel } from './chat-channel.js';
import type { ChatInstanceConfig } from './config.js';
import { CouldNotSendNotification, InvalidChatConfig } from './errors.js';
import { splitUrl } from './undici-transport.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

function channel(config: ChatInstanceConfig): ChatChannel {
  const instance = new ChatChannel(config);
  cleanups.push(() => instance.close());
  return instance;
}

async function failure(promise: Promise<unknown>): Promise<CouldNotSendNotification> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CouldNotSendNotification);
  return error as CouldNotSendNotification;
}

describe('HTTP options on undici', () => {
  it('timeout: a slow server fails with CHAT_TIMEOUT and is not retried by default', async () => {
    const server = await startWebhookServer([{ delayMs: 2000 }]);
    cleanups.push(() => server.close());
    const started = Date.now();
    const error = await failure(channel({ webhook: webhookUrl(server.origin), timeout: 0.3 }).send(null, 'slow'));
    expect(error.code).toBe('CHAT_TIMEOUT');
    expect(error.message).toMatch(/no answer within timeout \(0.3 s\)/);
    expect(Date.now() - started).toBeLessThan(1500);
    expect(server.requests).toHaveLength(1);
  });

  it('timeout: retried when the policy opts in', async () => {
    const server = await startWebhookServer([{ delayMs: 2000 }]);
    cleanups.push(() => server.close());
    const result = await channel({
      webhook: webhookUrl(server.origin),
      timeout: 0.3,
      retry: { on_timeout: true, min_delay: 0.05, jitter: false },
    }).send(null, 'slow then fast');
    expect(result).toMatchObject({ ok: true, attempts: 2 });
    expect(server.requests).toHaveLength(2);
  });

  it('connect_timeout: a TLS server that never completes the handshake fails fast with UND_ERR_CONNECT_TIMEOUT', async () => {
    const silent = await startSilentServer();
    cleanups.push(() => silent.close());
    const started = Date.now();
    const error = await failure(
      channel({ webhook: webhookUrl(silent.origin), connect_timeout: 0.3, timeout: 20, retry: false }).send(null, 'x'),
    );
    expect(error.code).toBe('CHAT_CONNECTION_FAILED');
    expect(error.message).toMatch(/UND_ERR_CONNECT_TIMEOUT/);
    expect(Date.now() - started).toBeLessThan(3000);
    expect(silent.connections()).toBe(1);
  });

  it('connect_timeout counts as a connection error, so it is retried (the request was never sent)', async () => {
    const silent = await startSilentServer();
    cleanups.push(() => silent.close());
    const error = await failure(
      channel({ webhook: webhookUrl(silent.origin), connect_timeout: 0.2, retry: { retries: 1, min_delay: 0.05, jitter: false } }).send(null, 'x'),
    );
    expect(error.attempts).toBe(2);
    expect(silent.connections()).toBe(2);
  });

  it('retries a refused connection, then reports CHAT_CONNECTION_FAILED with the cause', async () => {
    const port = await freePort();
    const error = await failure(
      channel({ webhook: webhookUrl(`http://127.0.0.1:${port}`), retry: { retries: 2, min_delay: 0.02, jitter: false } }).send(null, 'x'),
    );
    expect(error.code).toBe('CHAT_CONNECTION_FAILED');
    expect(error.attempts).toBe(3);
    expect(error.message).toMatch(/ECONNREFUSED/);
    expect(error.cause).toBeInstanceOf(Error);
  });

  describe('verify', () => {
    let tls: ReturnType<typeof makeSelfSignedCert>;
    beforeAll(() => {
      tls = makeSelfSignedCert();
    });
    afterAll(() => tls.cleanup());

    it('true (default): a self-signed certificate is refused and not retried', async () => {
      const server = await startWebhookServer([], tls);
      cleanups.push(() => server.close());
      const error = await failure(channel({ webhook: webhookUrl(server.origin) }).send(null, 'x'));
      expect(error.code).toBe('CHAT_CONNECTION_FAILED');
      expect(error.message).toMatch(/TLS verification failed/);
      expect(error.attempts).toBe(1);
      expect(server.requests).toHaveLength(0);
    });

    it('false: the self-signed server receives the message', async () => {
      const server = await startWebhookServer([], tls);
      cleanups.push(() => server.close());
      await channel({ webhook: webhookUrl(server.origin), verify: false }).send(null, 'insecure ok');
      expect(server.requests.map((r) => r.json)).toEqual([{ text: 'insecure ok' }]);
    });

    it('a CA bundle path: verification passes against that CA', async () => {
      const server = await startWebhookServer([], tls);
      cleanups.push(() => server.close());
      await channel({ webhook: webhookUrl(server.origin), verify: tls.certPath }).send(null, 'trusted');
      expect(server.requests).toHaveLength(1);
    });

    it('an unreadable CA bundle path is a config error at construction', () => {
      expect(() => new ChatChannel({ webhook: 'https://x.example/hooks/a/b', verify: '/nonexistent/ca.pem' })).toThrowError(InvalidChatConfig);
    });
  });

  it('proxy: the request goes through the proxy (CONNECT to the webhook host)', async () => {
    const server = await startWebhookServer();
    const proxy = await startProxyServer();
    cleanups.push(() => server.close(), () => proxy.close());
    await channel({ webhook: webhookUrl(server.origin), proxy: proxy.url, headers: { 'x-via': 'proxy-test' } }).send('#p', 'proxied');
    expect(proxy.targets).toEqual([`127.0.0.1:${server.port}`]);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.json).toEqual({ text: 'proxied', channel: '#p' });
    expect(server.requests[0]!.headers['x-via']).toBe('proxy-test');
  });

  it('proxy: without it, no request touches the proxy', async () => {
    const server = await startWebhookServer();
    const proxy = await startProxyServer();
    cleanups.push(() => server.close(), () => proxy.close());
    await channel({ webhook: webhookUrl(server.origin) }).send(null, 'direct');
    expect(proxy.targets).toEqual([]);
    expect(server.requests).toHaveLength(1);
  });
});

describe('splitUrl', () => {
  it('keeps the path byte for byte', () => {
    expect(splitUrl('https://Chat.Example.com:8443/hooks/id/a%2Fb+c=/d')).toEqual({
      origin: 'https://Chat.Example.com:8443',
      path: '/hooks/id/a%2Fb+c=/d',
    });
  });
});
