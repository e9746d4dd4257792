import { readFileSync } from 'node:fs';
import { Agent, ProxyAgent, type Dispatcher } from 'undici';
import type { ResolvedChatConfig } from './config.js';
import { InvalidChatConfig } from './errors.js';
import { MAX_RESPONSE_BODY_BYTES, type ChatHttpRequest, type ChatHttpResponse, type ChatTransport } from './transport.js';

type TransportOptions = Pick<ResolvedChatConfig, 'timeout' | 'connect_timeout' | 'verify' | 'proxy'>;

/**
 * The real transport: undici with one connection pool per instance, so each
 * instance's TLS, proxy and timeout settings apply only to its own requests.
 */
export class UndiciTransport implements ChatTransport {
  readonly #dispatcher: Dispatcher;
  readonly #timeoutMs: number;

  constructor(options: TransportOptions, instance = 'chat') {
    this.#timeoutMs = Math.round(options.timeout * 1000);
    const tls = tlsOptions(options.verify, instance);
    const connect = { timeout: Math.round(options.connect_timeout * 1000), ...tls };
    const common = { headersTimeout: this.#timeoutMs, bodyTimeout: this.#timeoutMs };
    this.#dispatcher = options.proxy
      ? new ProxyAgent({ uri: options.proxy, ...common, connect, requestTls: connect, proxyTls: { timeout: connect.timeout } })
      : new Agent({ ...common, connect });
  }

  async post(request: ChatHttpRequest): Promise<ChatHttpResponse> {
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
