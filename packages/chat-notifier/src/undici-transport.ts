import { readFileSync } from 'node:fs';
import { Agent, ProxyAgent, type Dispatcher } from 'undici';
import type { ResolvedChatConfig } from './config.js';
import { InvalidChatConfig } from './errors.js';
import { maskUrl } from './redact.js';
import { MAX_RESPONSE_BODY_BYTES, type ChatHttpRequest, type ChatHttpResponse, type ChatTransport } from './transport.js';

type TransportOptions = Pick<ResolvedChatConfig, 'timeout' | 'connect_timeout' | 'verify' | 'proxy'>;

/**
 * The real transport: undici with one connection pool per instance, so each
 * instance's TLS, proxy and timeout settings apply only to its own requests.
 */
export class UndiciTransport implements ChatTransport {
  readonly #dispatcher: Dispatcher;
  readonly #timeoutMs: number;
  readonly #proxy: { readonly url: string; readonly hostname: string; readonly port: number } | undefined;

  constructor(options: TransportOptions, instance = 'chat') {
    this.#timeoutMs = Math.round(options.timeout * 1000);
    const tls = tlsOptions(options.verify, instance);
    const connect = { timeout: Math.round(options.connect_timeout * 1000), ...tls };
    const common = { headersTimeout: this.#timeoutMs, bodyTimeout: this.#timeoutMs };
    this.#proxy = options.proxy ? proxyEndpoint(options.proxy) : undefined;
    this.#dispatcher = options.proxy
      ? new ProxyAgent({ uri: options.proxy, ...common, connect, requestTls: connect, proxyTls: { timeout: connect.timeout } })
      : new Agent({ ...common, connect });
  }

  async post(request: ChatHttpRequest): Promise<ChatHttpResponse> {
    try {
      return await this.#post(request);
    } catch (error) {
      throw this.#proxy ? (proxyFailure(error, this.#proxy) ?? error) : error;
    }
  }

  async #post(request: ChatHttpRequest): Promise<ChatHttpResponse> {
    const { origin, path } = splitUrl(request.url);
    const response = await this.#dispatcher.request({
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
 * Thrown by UndiciTransport when the proxy, not the webhook server, failed.
 * `proxy` is `host:port`; the message never holds the proxy's credentials.
 */
export class ProxyConnectError extends Error {
  readonly code: 'CHAT_PROXY_UNREACHABLE' | 'CHAT_PROXY_REFUSED';
  readonly proxy: string;
  readonly status: number | undefined;

  constructor(code: ProxyConnectError['code'], proxy: string, message: string, status: number | undefined, cause: unknown) {
    super(message, { cause });
    this.name = 'ProxyConnectError';
    this.code = code;
    this.proxy = proxy;
    this.status = status;
  }
}

function proxyEndpoint(url: string): { url: string; hostname: string; port: number } {
  const parsed = new URL(url); // validated by the config schema
  const port = Number(parsed.port || (parsed.protocol === 'https:' ? 443 : 80));
  return { url: maskUrl(url), hostname: parsed.hostname.replace(/^\[|\]$/g, ''), port };
}

const PROXY_TUNNEL_STATUS = /^Proxy response \((\d{3})\) !== 200/;
const PROXY_AUTH = /^Proxy Authentication Required \(407\)/;
const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EHOSTUNREACH', 'ENETUNREACH', 'ETIMEDOUT', 'EPIPE', 'ECONNABORTED']);
const LOOKUP_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NONAME']);

/**
 * Recognises the proxy's own failures in undici's errors: a non-200 answer to
 * CONNECT ("Proxy response (407) !== 200 when HTTP Tunneling"), or a socket or
 * DNS error whose address is the proxy's. Everything else is the target's.
 */
function proxyFailure(error: unknown, proxy: { hostname: string; port: number }): ProxyConnectError | undefined {
  const name = `${proxy.hostname.includes(':') ? `[${proxy.hostname}]` : proxy.hostname}:${proxy.port}`;
  for (let current = error, depth = 0; typeof current === 'object' && current !== null && depth < 5; depth++) {
    const e = current as { message?: unknown; code?: unknown; address?: unknown; port?: unknown; hostname?: unknown; errors?: unknown; cause?: unknown };
    const message = typeof e.message === 'string' ? e.message : '';
    const status = PROXY_TUNNEL_STATUS.exec(message)?.[1] ?? (PROXY_AUTH.test(message) ? '407' : undefined);
    if (status !== undefined) {
      const code = Number(status);
      const why = code === 407 ? 'it requires authentication or rejected the credentials (407 Proxy Authentication Required)' : `it answered ${code}`;
      return new ProxyConnectError('CHAT_PROXY_REFUSED', name, `The proxy ${name} refused to open a tunnel: ${why}`, code, error);
    }
    const errCode = typeof e.code === 'string' ? e.code : '';
    const candidates = Array.isArray(e.errors) ? [e, ...(e.errors as typeof e[])] : [e];
    for (const c of candidates) {
      const cCode = typeof c.code === 'string' ? c.code : errCode;
      if (UNREACHABLE_CODES.has(cCode) && c.address === proxy.hostname && Number(c.port) === proxy.port) {
        return new ProxyConnectError('CHAT_PROXY_UNREACHABLE', name, `Could not connect to the proxy ${name} (${cCode})`, undefined, error);
      }
      if (LOOKUP_CODES.has(cCode) && c.hostname === proxy.hostname) {
        return new ProxyConnectError('CHAT_PROXY_UNREACHABLE', name, `Could not resolve the proxy host ${name} (${cCode})`, undefined, error);
      }
    }
    if (errCode === 'UND_ERR_CONNECT_TIMEOUT' && message.includes(name)) {
      return new ProxyConnectError('CHAT_PROXY_UNREACHABLE', name, `Could not connect to the proxy ${name} in time (${errCode})`, undefined, error);
    }
    current = e.cause;
  }
  return undefined;
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
      `Invalid config for chat instance "${instance}": verify: cannot read CA bundle "${verify}" (${(error as Error).message})`,
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
