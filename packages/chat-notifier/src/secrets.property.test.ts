import fc from 'fast-check';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startProxyServer, type ProxyServer } from '../test/support/proxy-server.js';
import { ChatChannel } from './chat-channel.js';
import { ChatChannelRegistry } from './chat-channel-registry.js';
import { resolveChatConfig } from './config.js';
import { ChatNotifierError } from './errors.js';
import { ChatFake } from './testing/chat-fake.js';

/*
 * For arbitrary tokens, every failure path must keep every form of the token
 * out of everything a user can print: String(err), err.stack, a deep inspect
 * with hidden properties, JSON.stringify, logger calls, and the inspect/JSON
 * of channels, registries, configs and results. The server echoes the token
 * back in its body and headers (Location, Set-Cookie, custom ones) as a
 * careless or hostile Rocket.Chat or proxy would.
 */

let server: Server;
let origin: string;
let goodProxy: ProxyServer;
let authProxy: ProxyServer;
let closedPort: number;

function echoHandler(req: IncomingMessage, res: ServerResponse): void {
  req.resume();
  req.on('end', () => {
    const path = req.url ?? '';
    const urlToken = path.replace(/^\/hooks\/[^/]+\//, '');
    let decoded = urlToken;
    let decodedPath = path;
    try {
      decoded = decodeURIComponent(urlToken);
      decodedPath = decodeURIComponent(path);
    } catch {
      /* keep the raw form */
    }
    const echoBody = JSON.stringify({
      success: false,
      error: `bad token ${decoded}`,
      raw: urlToken,
      b64: Buffer.from(decoded).toString('base64'),
      url: `http://127.0.0.1${path}`,
      // A router that drops the trailing slash and names the parts.
      router: `no integration ${path.split('/')[2]} with token ${path.split('/').slice(3).filter(Boolean).join('/')}`,
      // base64 of the whole request path, as a request id might be.
      request: Buffer.from(path).toString('base64'),
    });
    const plain = `token=${decoded} url=${origin}${path} b64=${Buffer.from(urlToken).toString('base64')}`;
    // PHP's json_encode escapes "/" as "\/"; an HTML error page escapes "/" as "&#x2F;".
    const php = JSON.stringify({ success: false, error: `bad token ${decoded}` }).replace(/\//g, '\\/');
    const html = `<p>Not found: ${decodedPath.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/\//g, '&#x2F;')}</p>`;
    const echoHeaders = {
      location: `${origin}${path}`,
      'content-location': `${origin}${path}?again=1`,
      'set-cookie': `session=${urlToken}; Path=/`,
      'x-echo': `${origin}${path}`,
      'x-echo-token': urlToken,
      'x-echo-b64': Buffer.from(decoded).toString('base64'),
      'www-authenticate': `Bearer realm="${urlToken}"`,
    };
    const scenario = String(req.headers['x-scenario'] ?? '');
    const reply = (status: number, headers: Record<string, string>, body: string) => {
      try {
        res.writeHead(status, { 'content-type': 'application/json', ...headers });
      } catch {
        res.writeHead(status, { 'content-type': 'application/json' }); // a header value Node refuses
      }
      res.end(body);
    };
    switch (scenario) {
      case '302':
        return reply(302, echoHeaders, plain);
      case '400':
        return reply(400, echoHeaders, echoBody);
      case '401':
        return reply(401, echoHeaders, plain);
      case '403':
        return reply(403, {}, php);
      case '404':
        return reply(404, { 'content-type': 'text/html' }, html);
      case '429':
        return reply(
          429,
          { ...echoHeaders, 'retry-after': '3600', 'x-ratelimit-reset': String(Date.now() + 3_600_000), 'x-ratelimit-remaining': '0' },
          `{"success":false,"error":"You must wait 3600 seconds ${decoded}"}`,
        );
      case '503':
        return reply(503, echoHeaders, echoBody);
      case 'slow':
        setTimeout(() => reply(200, {}, '{"success":true}'), 500).unref();
        return;
      default:
        return reply(200, echoHeaders, echoBody);
    }
  });
}

beforeAll(async () => {
  server = createServer(echoHandler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  goodProxy = await startProxyServer();
  authProxy = await startProxyServer({ auth: 'user:right-password' });
  // Port 1: nothing listens there, and no test server can be given it (they bind ephemeral ports),
  // so the connection is refused even while other test files run.
  closedPort = 1;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await goodProxy.close();
  await authProxy.close();
});

/** Tokens as they appear in the webhook URL: URL-safe with `/+=%2F`, percent-encoded unicode, very long, or very short. */
const longToken = fc
  .oneof(
    fc.stringMatching(/^[A-Za-z0-9/+=._~-]{0,40}$/),
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 }).map((s) => encodeURIComponent(s)),
    fc.string({ unit: 'binary', minLength: 1, maxLength: 12 }).map((s) => encodeURIComponent(s.replace(/[\ud800-\udfff]/g, 'x'))),
    fc.constantFrom('%2F%2B%3D', 'a%2Fb', '%25%32%46', "it's\"quoted\"", '<script>'.replace(/[<>"]/g, (c) => encodeURIComponent(c))),
    fc.stringMatching(/^[A-Za-z0-9]{400,1200}$/),
  )
  // A high-entropy core, as real tokens have, so a short or common token cannot
  // coincide with the package's own words; the arbitrary part explores escaping.
  .chain((t) => fc.stringMatching(/^[A-Za-z0-9]{10}$/).map((core) => `${t.replace(/^\/+|\/+$/g, '')}Zq${core}`.replace(/\/{2,}/g, '/')))
  .filter((t) => !t.includes('?') && !t.includes('#'));

/** Tokens of 1–5 characters (or with a part that short), which cannot be masked inside text: echoes holding them are dropped. */
const shortToken = fc.oneof(
  fc.stringMatching(/^[A-Za-z0-9+=._~-]{1,5}$/),
  fc.tuple(fc.stringMatching(/^[A-Za-z0-9]{1,5}$/), fc.stringMatching(/^[A-Za-z0-9]{8,16}$/)).map(([a, b]) => `${a}/${b}`),
);

/** The token, and whether the webhook ends with a "/" after it. */
const urlToken = fc.tuple(fc.oneof(longToken, shortToken), fc.boolean());

/** Every form of the token (and of its parts) the echo server may send back, at least 6 characters long. */
function forms(token: string, path: string): string[] {
  const parts = [token, ...token.split('/').filter(Boolean)];
  const out = new Set<string>([Buffer.from(path).toString('base64'), Buffer.from(path).toString('base64').replace(/=+$/, '')]);
  for (const part of parts) {
    let decoded = part;
    try {
      decoded = decodeURIComponent(part);
    } catch {
      /* raw only */
    }
    for (const s of [part, decoded, `hook-id/${part}`]) {
      out.add(s);
      out.add(encodeURIComponent(s));
      out.add(Buffer.from(s).toString('base64'));
      out.add(Buffer.from(s).toString('base64url'));
      out.add(JSON.stringify(s).slice(1, -1).replace(/\//g, '\\/'));
      out.add(s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/\//g, '&#x2F;'));
    }
  }
  return [...out].filter((form) => form.length >= 6);
}

/**
 * The token in the contexts the echo server puts it in. Checked for every token,
 * whatever its length: a short one cannot be masked, so the echo holding it must
 * have been dropped whole.
 */
function echoes(token: string, slash: string): string[] {
  const urlToken = `${token}${slash}`;
  let decoded = urlToken;
  try {
    decoded = decodeURIComponent(urlToken);
  } catch {
    /* raw only */
  }
  const json = (s: string) => JSON.stringify(s).slice(1, -1);
  return [
    `bad token ${json(decoded)}`,
    `bad token ${json(decoded).replace(/\//g, '\\/')}`,
    `token=${decoded}`,
    `"raw":"${json(urlToken)}`,
    `with token ${json(token.split('/').filter(Boolean).join('/'))}`,
    `no integration hook-id`,
    `&#x2F;${decoded.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/\//g, '&#x2F;')}`,
    `session=${urlToken}`,
    `realm="${urlToken}`,
    `3600 seconds ${json(decoded)}`,
  ];
}

function printed(value: unknown): string[] {
  const out = [inspect(value, { depth: Infinity, showHidden: true }), safeJson(value)];
  if (value instanceof Error) out.push(String(value), value.stack ?? '', value.message);
  return out;
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? '';
  } catch (error) {
    return `unserialisable: ${(error as Error).message}`;
  }
}

async function caught(run: () => unknown): Promise<unknown> {
  try {
    return await run();
  } catch (error) {
    return error;
  }
}

describe('no secret in anything printable', () => {
  it('holds for arbitrary tokens on every failure path', async () => {
    await fc.assert(
      fc.asyncProperty(urlToken, async ([token, trailingSlash]) => {
        const webhook = `${origin}/hooks/hook-id/${token}${trailingSlash ? '/' : ''}`;
        const logs: unknown[] = [];
        const logger = { warn: (message: string, data?: Record<string, unknown>) => logs.push(message, data) };
        const seen: unknown[] = [];
        const channels: ChatChannel[] = [];
        const make = (config: Record<string, unknown>) => {
          const c = new ChatChannel({ webhook, retry: false, ...config } as never, { logger, env: {} });
          channels.push(c);
          seen.push(c);
          return c;
        };
        const send = async (config: Record<string, unknown>) => {
          seen.push(await caught(() => make(config).send(null, 'hello')));
        };

        for (const scenario of ['302', '400', '401', '403', '404', '429']) await send({ headers: { 'x-scenario': scenario } });
        // 5xx with one retry, so the logger is called.
        await send({ headers: { 'x-scenario': '503' }, retry: { retries: 1, min_delay: 0.001, jitter: false } });
        // http_errors: false returns the answer instead: the result object must be clean too.
        await send({ headers: { 'x-scenario': '401' }, http_errors: false });
        await send({ headers: { 'x-scenario': 'slow' }, timeout: 0.05 });
        // A successful answer that echoes the token in body and headers.
        await send({ headers: { authorization: `Bearer ${token}` } });
        // Connection refused, a DNS failure, proxies that are down or refuse us, with the token as the proxy password.
        seen.push(await caught(() => new ChatChannel({ webhook: `http://127.0.0.1:${closedPort}/hooks/hook-id/${token}`, retry: false }).send(null, 'x')));
        seen.push(await caught(() => new ChatChannel({ webhook: `http://chat.invalid/hooks/hook-id/${token}`, retry: false }).send(null, 'x')));
        await send({ proxy: `http://user:${token}@127.0.0.1:${closedPort}` });
        await send({ proxy: authProxy.urlWithAuth(`user:${token}`) });
        await send({ proxy: goodProxy.url, headers: { 'x-scenario': '302' } });

        // Invalid configs: wrong scheme, a bad option, a proxy with the token as password, the URL passed as the config.
        seen.push(await caught(() => resolveChatConfig('chat', { webhook: webhook.replace('http:', 'ftp:') }, {})));
        seen.push(await caught(() => resolveChatConfig('chat', { webhook, timeout: webhook }, {})));
        seen.push(await caught(() => resolveChatConfig('chat', { webhook, proxy: `socks5://user:${token}@127.0.0.1:1` }, {})));
        seen.push(await caught(() => resolveChatConfig('chat', { webhook, proxy: `http://user:${token}@` }, {})));
        seen.push(await caught(() => resolveChatConfig('chat', { webhook, headers: { authorization: 42 } }, {})));
        seen.push(await caught(() => new ChatChannel(webhook as never, { env: {} })));
        seen.push(await caught(() => resolveChatConfig('chat', undefined, { CHAT_WEBHOOK: `${webhook} spaces` })));
        seen.push(await caught(() => resolveChatConfig('chat', { webhook, proxy: `http://user:${token}@127.0.0.1:3128`, headers: { authorization: `Bearer ${token}` } }, {})));

        // The registry and the fake, their notify() results and aggregate errors.
        const registry = new ChatChannelRegistry({
          instances: { chat: { webhook, retry: false, headers: { 'x-scenario': '400' } }, 'chat-ok': { webhook, retry: false } },
          env: {},
          logger,
        });
        const notification = { via: () => ['chat', 'chat-ok'], toChat: () => 'hi' };
        seen.push(registry, await caught(() => registry.notify([{}, {}], notification)));
        const fake = new ChatFake({ instances: { chat: { webhook } }, env: {} });
        seen.push(fake, await caught(() => fake.notify({}, notification)));
        await registry.close();
        for (const c of channels) await c.close();

        const everything = [...seen.flatMap(printed), ...logs.flatMap(printed)].join('\n');
        expect(seen.filter((s) => s instanceof ChatNotifierError).length).toBeGreaterThanOrEqual(15);
        const leaked = (form: string) => {
          const at = everything.indexOf(form);
          if (at >= 0) throw new Error(`leaked ${JSON.stringify(form)} in: …${everything.slice(Math.max(0, at - 300), at + form.length + 50)}…`);
        };
        const slash = trailingSlash ? '/' : '';
        for (const form of forms(token, `/hooks/hook-id/${token}${slash}`)) leaked(form);
        for (const echo of echoes(token, slash)) leaked(echo);
      }),
      { numRuns: 40 },
    );
  }, 120_000);
});
