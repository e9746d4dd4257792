import { readFileSync } from 'node:fs';
import { Agent, type Dispatcher } from 'undici';
import type { ResolvedChatConfig } from './config.js';
import { InvalidChatConfig } from './errors.js';
import { createProxyDispatcher, ProxyConnectError, proxyEndpoint, type ProxyEndpoint } from './proxy-dispatcher.js';
import { MAX_RESPONSE_BODY_BYTES, type ChatHttpRequest, type ChatHttpResponse, type ChatTransport } from './transport.js';

export { ProxyConnectError } from './proxy-dispatcher.js';

type TransportOptions = Pick<ResolvedChatConfig, 'timeout' | 'connect_timeout' | 'verify' | 'proxy'>;

/**
 * How long undici gets to act on an aborted signal before the transport treats
 * the request as stuck. undici acts at once on a request that has a connection;
 * one still waiting for a connection ignores the signal.
 */
const ABORT_GRACE_MS = 50;

/**
 * The real transport: undici with one connection pool per instance, so each
 * instance's TLS, proxy and timeout settings apply only to its own requests.
 */
export class UndiciTransport implements ChatTransport {
  #dispatcher: Dispatcher;
  readonly #build: () => Dispatcher;
  readonly #timeoutMs: number;
  readonly #proxy: ProxyEndpoint | undefined;

  constructor(options: TransportOptions, instance = 'chat') {
    this.#timeoutMs = Math.round(options.timeout * 1000);
    const tls = tlsOptions(options.verify, instance);
    const connect = { timeout: Math.round(options.connect_timeout * 1000), ...tls };
    const common = { headersTimeout: this.#timeoutMs, bodyTimeout: this.#timeoutMs };
    const proxy = options.proxy;
    this.#proxy = proxy ? proxyEndpoint(proxy) : undefined;
    const endpoint = this.#proxy;
    this.#build =
      proxy && endpoint
        ? () => createProxyDispatcher({ uri: proxy, endpoint, ...common, connect })
        : () => new Agent({ ...common, connect });
    this.#dispatcher = this.#build();
  }

  /**
   * Settles when undici answers or fails, or, at the latest, shortly after
   * `request.signal` aborts. A request that undici still holds after the abort
   * is waiting for a connection that cannot be made (undici only honours the
   * signal once a request has one); the pool is then destroyed so nothing keeps
   * reconnecting on its behalf, and replaced for later sends.
   */
  async post(request: ChatHttpRequest): Promise<ChatHttpResponse> {
    const dispatcher = this.#dispatcher;
    const pending = this.#post(dispatcher, request);
    const stuck = await settledOrStuck(pending, request.signal);
    if (!stuck) return pending;
    pending.catch(() => {}); // it rejects once the pool is destroyed
    if (this.#dispatcher === dispatcher) this.#dispatcher = this.#build();
    void dispatcher.destroy().catch(() => {});
    const reason: unknown = request.signal.reason;
    if (!this.#proxy) throw reason;
    const why = reason instanceof Error ? reason.message : 'aborted';
    throw new ProxyConnectError(
      'CHAT_PROXY_UNREACHABLE',
      this.#proxy.name,
      `No tunnel through the proxy ${this.#proxy.name} was open when the attempt ended (${why})`,
      { retryable: true, cause: reason },
    );
  }

  async #post(dispatcher: Dispatcher, request: ChatHttpRequest): Promise<ChatHttpResponse> {
    const { origin, path } = splitUrl(request.url);
    const response = await dispatcher.request({
      origin,
      // The path goes out byte for byte: tokens may hold "/", "+", "=" or "%2F",
      // which re-encoding would change (Rocket.Chat#2524, #2680).
      path,
      method: 'POST',
      headers: request.headers,
      body: request.body,
      signal: request.signal,
      headersTimeout: this.#timeoutMs,
      bodyTimeout: this.#timeoutMs,
    });
    return {
      status: response.statusCode,
      headers: flattenHeaders(response.headers),
      body: await readCapped(response.body),
    };
  }

  async close(): Promise<void> {
    await this.#dispatcher.close();
  }

  /** The proxy URL is masked; the transport holds nothing else worth printing. */
  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `UndiciTransport { proxy: ${this.#proxy ? `'${this.#proxy.url}'` : 'none'} }`;
  }

  toJSON(): { proxy: string | null } {
    return { proxy: this.#proxy?.url ?? null };
  }
}

/**
 * Resolves false once `pending` settles (either way), or true when `signal`
 * aborted and `pending` had not settled ABORT_GRACE_MS later.
 */
function settledOrStuck(pending: Promise<unknown>, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    let timer: NodeJS.Timeout | undefined;
    const onAbort = () => {
      timer = setTimeout(() => resolve(true), ABORT_GRACE_MS);
    };
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      resolve(false);
    };
    pending.then(done, done);
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
}

export function splitUrl(url: string): { origin: string; path: string } {
  const match = /^(https?:\/\/[^/?#]+)(\/.*)?$/i.exec(url);
  if (!match?.[1]) throw new TypeError('expected an absolute http(s) URL');
  return { origin: match[1], path: match[2] ?? '/' };
}

function tlsOptions(verify: boolean | string, instance: string): { rejectUnauthorized: boolean; ca?: string } {
  if (verify === true) return { rejectUnauthorized: true };
  if (verify === false) return { rejectUnauthorized: false };
  try {
    return { rejectUnauthorized: true, ca: readFileSync(verify, 'utf8') };
  } catch (error) {
    throw new InvalidChatConfig(
      // Neither the path nor Node's message (which quotes it): the config check before names it, masked.
      `Invalid config for chat instance "${instance}": verify: cannot read the CA bundle (${(error as NodeJS.ErrnoException).code ?? 'unreadable'})`,
    );
  }
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

async function readCapped(body: AsyncIterable<Buffer | Uint8Array> & { destroy?(): unknown }): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const buffer = Buffer.from(chunk);
    const room = MAX_RESPONSE_BODY_BYTES - size;
    chunks.push(buffer.subarray(0, Math.max(0, room)));
    size += Math.min(buffer.length, room);
    if (size >= MAX_RESPONSE_BODY_BYTES) break; // leaving the loop destroys the stream
  }
  return Buffer.concat(chunks).toString('utf8');
}
