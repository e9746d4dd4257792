import { freePort } from '@org/dev-kit';
import { createConnection, type Socket } from 'node:net';
import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { webhookUrl } from '../test/support/fixtures.js';
import { startProxyServer } from '../test/support/proxy-server.js';
import { startRawTcpServer, startWebhookServer, type RawTcpServer } from '../test/support/webhook-server.js';
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

/** A "proxy" on 127.0.0.1 that accepts TCP and then does what `onConnection` says; closed when the test ends. */
async function rawProxy(onConnection: (socket: Socket) => void): Promise<RawTcpServer & { url: string }> {
  const server = await startRawTcpServer(onConnection);
  cleanups.push(() => server.close());
  return { ...server, url: `http://127.0.0.1:${server.port}` };
}

async function timed<T>(run: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = Date.now();
  const value = await run();
  return { value, ms: Date.now() - started };
}

describe('a proxy that fails while the tunnel is being opened', () => {
  const webhook = webhookUrl('http://127.0.0.1:9');

  it('accepts and closes at once: CHAT_PROXY_UNREACHABLE at once, with one connection per attempt (undici used to reconnect without end)', async () => {
    const proxy = await rawProxy((socket) => socket.destroy());
    const { value: error, ms } = await timed(() => rejection(channel({ webhook, proxy: proxy.url, retry: false, timeout: 3 }).send(null, 'x')));
    expect(error).toBeInstanceOf(ChatProxyFailure);
    const failure = error as ChatProxyFailure;
    expect(failure.code).toBe('CHAT_PROXY_UNREACHABLE');
    expect(failure.proxy).toBe(`127.0.0.1:${proxy.port}`);
    expect(failure.message).toMatch(new RegExp(`^The proxy 127\\.0\\.0\\.1:${proxy.port} closed the connection before opening a tunnel \\(UND_ERR_SOCKET\\)`));
    expect(proxy.connections()).toBeLessThan(50);
    expect(proxy.connections()).toBe(1);
    expect(ms).toBeLessThan(3000 + 1000); // bounded wait: settles well within timeout + margin
  });

  it('accepts and closes at once: retried like a connection error, one connection per attempt', async () => {
    const proxy = await rawProxy((socket) => socket.destroy());
    const error = (await rejection(
      channel({ webhook, proxy: proxy.url, timeout: 3, retry: { retries: 2, min_delay: 0.01, jitter: false } }).send(null, 'x'),
    )) as ChatProxyFailure;
    expect(error.code).toBe('CHAT_PROXY_UNREACHABLE');
    expect(error.attempts).toBe(3);
    expect(proxy.connections()).toBe(3);
  });

  it("accepts and closes at once: the caller's AbortSignal is not needed, and close() returns", async () => {
    const proxy = await rawProxy((socket) => socket.destroy());
    const instance = new ChatChannel({ webhook, proxy: proxy.url, retry: false, timeout: 1 }, { env: {} });
    const error = (await rejection(instance.send(null, 'x', { signal: AbortSignal.timeout(500) }))) as ChatProxyFailure;
    expect(error.code).toBe('CHAT_PROXY_UNREACHABLE');
    await instance.close();
    expect(proxy.connections()).toBeLessThan(50);
  });

  it('never answers CONNECT: timeout ends the attempt with CHAT_PROXY_UNREACHABLE naming the proxy, and the connection is dropped', async () => {
    const proxy = await rawProxy((socket) => socket.resume()); // reads the CONNECT, never answers
    const { value: error, ms } = await timed(() =>
      rejection(channel({ webhook, proxy: proxy.url, retry: false, timeout: 0.3, connect_timeout: 60 }).send(null, 'x')),
    );
    expect(error).toBeInstanceOf(ChatProxyFailure);
    const failure = error as ChatProxyFailure;
    expect(failure.code).toBe('CHAT_PROXY_UNREACHABLE');
    expect(failure.message).toMatch(new RegExp(`^No tunnel through the proxy 127\\.0\\.0\\.1:${proxy.port} was open when the attempt ended \\(timed out after 0\\.3 s\\)`));
    expect(ms).toBeLessThan(300 + 1500);
    await expect.poll(() => proxy.open(), { timeout: 2000 }).toBe(0); // nothing keeps the CONNECT open
  });

  it("never answers CONNECT: the caller's AbortSignal ends the send with CHAT_ABORTED naming the proxy", async () => {
    const proxy = await rawProxy((socket) => socket.resume()); // reads the CONNECT, never answers
    const { value: error, ms } = await timed(() =>
      rejection(channel({ webhook, proxy: proxy.url, retry: false, timeout: 30, connect_timeout: 60 }).send(null, 'x', { signal: AbortSignal.timeout(200) })),
    );
    expect(error).toBeInstanceOf(CouldNotSendNotification);
    expect((error as CouldNotSendNotification).code).toBe('CHAT_ABORTED');
    expect((error as Error).message).toContain(`proxy 127.0.0.1:${proxy.port}`);
    expect(ms).toBeLessThan(200 + 1500);
    await expect.poll(() => proxy.open(), { timeout: 2000 }).toBe(0);
  });

  it('the channel still works after a stuck attempt (the pool was replaced, not left destroyed)', async () => {
    const server = await startWebhookServer();
    cleanups.push(() => server.close());
    let stall = true;
    const proxy = await startProxyServer();
    const gate = await rawProxy((socket) => {
      if (stall) return void socket.resume(); // the first connection never gets an answer
      const upstream = createConnection(proxy.port, '127.0.0.1');
      upstream.on('error', () => socket.destroy());
      socket.pipe(upstream).pipe(socket);
    });
    const instance = channel({ webhook: webhookUrl(server.origin), proxy: gate.url, retry: false, timeout: 0.3, connect_timeout: 60 });
    expect(await rejection(instance.send(null, 'first'))).toMatchObject({ code: 'CHAT_PROXY_UNREACHABLE' });
    stall = false;
    const result = await instance.send(null, 'second');
    expect(result.status).toBe(200);
    expect(server.requests).toHaveLength(1);
  });

  it('never answers CONNECT within connect_timeout: CHAT_PROXY_UNREACHABLE, retried', async () => {
    const proxy = await rawProxy((socket) => socket.resume()); // reads the CONNECT, never answers
    const error = (await rejection(
      channel({ webhook, proxy: proxy.url, timeout: 30, connect_timeout: 0.2, retry: { retries: 1, min_delay: 0.01, jitter: false } }).send(null, 'x'),
    )) as ChatProxyFailure;
    expect(error.code).toBe('CHAT_PROXY_UNREACHABLE');
    expect(error.message).toMatch(/did not open a tunnel within connect_timeout/);
    expect(error.attempts).toBe(2);
  });

  it('answers CONNECT with something that is not HTTP: CHAT_PROXY_UNREACHABLE, not retried', async () => {
    const proxy = await rawProxy((socket) => socket.once('data', () => socket.end('HELLO THIS IS NOT HTTP\r\n\r\n')));
    const error = (await rejection(
      channel({ webhook, proxy: proxy.url, retry: { retries: 2, min_delay: 0.01, jitter: false } }).send(null, 'x'),
    )) as ChatProxyFailure;
    expect(error).toBeInstanceOf(ChatProxyFailure);
    expect(error.code).toBe('CHAT_PROXY_UNREACHABLE');
    expect(error.attempts).toBe(1);
  });
});

describe('proxy failures are the proxy’s whatever the proxy is called', () => {
  it('a proxy configured as localhost that is down: CHAT_PROXY_UNREACHABLE naming localhost:port, credentials hidden', async () => {
    const port = await freePort();
    const server = await startWebhookServer();
    cleanups.push(() => server.close());
    for (const proxy of [`http://localhost:${port}`, `http://proxyuser:${PASSWORD}@localhost:${port}`]) {
      const error = await rejection(channel({ webhook: webhookUrl(server.origin), proxy, retry: false }).send(null, 'x'));
      expect(error, proxy).toBeInstanceOf(ChatProxyFailure);
      expect((error as ChatProxyFailure).code).toBe('CHAT_PROXY_UNREACHABLE');
      expect((error as ChatProxyFailure).proxy).toBe(`localhost:${port}`);
      expect((error as Error).message).toMatch(new RegExp(`^Could not connect to the proxy localhost:${port} \\(ECONNREFUSED\\)`));
      expect(everything(error)).not.toContain(PASSWORD);
    }
    expect(server.requests).toHaveLength(0);
  });

  it('an https:// proxy URL pointing at a plain-HTTP proxy: a TLS failure of the proxy, not of Rocket.Chat, and not retried', async () => {
    const proxy = await startProxyServer();
    cleanups.push(() => proxy.close());
    const error = await rejection(
      channel({ webhook: webhookUrl('http://127.0.0.1:9'), proxy: proxy.url.replace('http:', 'https:'), retry: { retries: 2, min_delay: 0.01 } }).send(null, 'x'),
    );
    expect(error).toBeInstanceOf(ChatProxyFailure);
    const failure = error as ChatProxyFailure;
    expect(failure.code).toBe('CHAT_PROXY_UNREACHABLE');
    expect(failure.proxy).toBe(`127.0.0.1:${proxy.port}`);
    expect(failure.message).toMatch(new RegExp(`^TLS with the proxy 127\\.0\\.0\\.1:${proxy.port} failed \\(ERR_SSL_WRONG_VERSION_NUMBER\\); is a plain-HTTP proxy configured with an https URL\\?`));
    expect(failure.attempts).toBe(1);
  });

  it('a proxy host that does not resolve: CHAT_PROXY_UNREACHABLE naming it', async () => {
    const error = (await rejection(
      channel({ webhook: webhookUrl('http://127.0.0.1:9'), proxy: 'http://proxy.invalid:3128', retry: false }).send(null, 'x'),
    )) as ChatProxyFailure;
    expect(error).toBeInstanceOf(ChatProxyFailure);
    expect(error.code).toBe('CHAT_PROXY_UNREACHABLE');
    expect(error.message).toMatch(/^Could not resolve the proxy host proxy\.invalid:3128 \((ENOTFOUND|EAI_AGAIN)\)/);
  });
});
