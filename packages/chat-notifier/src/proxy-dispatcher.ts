import { Pool, ProxyAgent, type Dispatcher } from 'undici';
import { maskUrl } from './redact.js';

/**
 * Thrown by UndiciTransport when the proxy, not the webhook server, failed.
 * `proxy` is `host:port`; the message never holds the proxy's credentials.
 */
export class ProxyConnectError extends Error {
  readonly code: 'CHAT_PROXY_UNREACHABLE' | 'CHAT_PROXY_REFUSED';
  readonly proxy: string;
  readonly status: number | undefined;
  /** Whether another attempt may succeed: the proxy is down or busy, not misconfigured. */
  readonly retryable: boolean;

  constructor(
    code: ProxyConnectError['code'],
    proxy: string,
    message: string,
    details: { status?: number | undefined; retryable: boolean; cause: unknown },
  ) {
    super(message, { cause: details.cause });
    this.name = 'ProxyConnectError';
    this.code = code;
    this.proxy = proxy;
    this.status = details.status;
    this.retryable = details.retryable;
  }
}

export interface ProxyEndpoint {
  /** The proxy URL with its credentials masked. */
  readonly url: string;
  /** `host:port`, as errors name it. */
  readonly name: string;
}

export function proxyEndpoint(url: string): ProxyEndpoint {
  const parsed = new URL(url); // validated by the config schema
  const port = parsed.port || (parsed.protocol === 'https:' ? '443' : '80');
  return { url: maskUrl(url), name: `${parsed.hostname}:${port}` };
}

export interface ProxyDispatcherOptions {
  readonly uri: string;
  readonly endpoint: ProxyEndpoint;
  readonly headersTimeout: number;
  readonly bodyTimeout: number;
  /** TCP + TLS options for the target (through the tunnel); `timeout` also bounds the proxy's connect and its CONNECT answer. */
  readonly connect: { timeout: number; rejectUnauthorized: boolean; ca?: string };
}

/** Marks an error raised while talking to the proxy itself (before the tunnel was open). */
const PROXY_PHASE = Symbol('chat-notifier.proxy-phase');

/**
 * undici's ProxyAgent, with every failure before the tunnel is open turned into
 * a ProxyConnectError. That is how the proxy's failures are told apart from
 * Rocket.Chat's by where they happened, not by comparing addresses (a proxy
 * configured as `localhost` fails at 127.0.0.1). It also ends a loop in undici:
 * a proxy that accepts and closes at once gives UND_ERR_SOCKET, which undici
 * treats as recoverable during a connect and retries without limit and without
 * looking at the request's signal. A ProxyConnectError is not recoverable, so
 * undici fails the waiting requests with it instead.
 */
export function createProxyDispatcher(options: ProxyDispatcherOptions): Dispatcher {
  const { endpoint, connect } = options;
  return new ProxyAgent({
    uri: options.uri,
    headersTimeout: options.headersTimeout,
    bodyTimeout: options.bodyTimeout,
    requestTls: connect,
    proxyTls: { timeout: connect.timeout },
    // The connection to the proxy. Its answer to CONNECT is part of connecting, so connect_timeout bounds it.
    clientFactory: (origin: URL, clientOptions: object) =>
      proxyClient(new Pool(origin, { ...clientOptions, headersTimeout: connect.timeout, bodyTimeout: connect.timeout })),
    // The per-origin pools that reach Rocket.Chat through tunnels: their connector opens the tunnel.
    factory: (origin: string | URL, poolOptions: object) => {
      const opened = (poolOptions as { connect: TunnelConnector }).connect;
      const tunnel: TunnelConnector = (connectOptions, callback) =>
        opened(connectOptions, (error, socket) => {
          if (error) callback(tunnelFailure(error, endpoint.name) ?? error, null);
          else callback(null, socket);
        });
      return new Pool(origin, { ...poolOptions, connect: tunnel as never });
    },
  });
}

type TunnelConnector = (options: object, callback: (error: Error | null, socket: unknown) => void) => unknown;

/** ProxyAgent opens each tunnel with `await client.connect(…)`: what fails there is the proxy's. */
function proxyClient(pool: Pool): Pool {
  const connect = pool.connect.bind(pool) as (options: Dispatcher.ConnectOptions) => Promise<Dispatcher.ConnectData>;
  const marked = (options: Dispatcher.ConnectOptions) =>
    connect(options).catch((error: unknown) => {
      throw markProxyPhase(error);
    });
  return Object.assign(pool, { connect: marked as Pool['connect'] });
}

function markProxyPhase(error: unknown): Error {
  const marked = error instanceof Error ? error : new Error(String(error));
  Object.defineProperty(marked, PROXY_PHASE, { value: true, enumerable: false, configurable: true });
  return marked;
}

const PROXY_TUNNEL_STATUS = /^Proxy response \((\d{3})\) !== 200/;
const REFUSED_CODES = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL']);
const LOOKUP_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NONAME']);
const CLOSED_CODES = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE', 'ECONNABORTED', 'UND_ERR_CLOSED']);
const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT']);
const TLS_CODE = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|UND_ERR_PRX_TLS)/;

/**
 * The ProxyConnectError for a failure while opening a tunnel, or undefined when
 * the tunnel was open and the failure is the target's (its TLS handshake).
 */
function tunnelFailure(error: Error, name: string): ProxyConnectError | undefined {
  const status = PROXY_TUNNEL_STATUS.exec(error.message)?.[1];
  if (status !== undefined) {
    const code = Number(status);
    const why = code === 407 ? 'it requires authentication or rejected the credentials (407 Proxy Authentication Required)' : `it answered ${code}`;
    return new ProxyConnectError('CHAT_PROXY_REFUSED', name, `The proxy ${name} refused to open a tunnel: ${why}`, {
      status: code,
      retryable: code >= 500,
      cause: error,
    });
  }
  const proxyPhase = isProxyPhase(error) || isProxyPhase(error.cause) || codeOf(error) === 'UND_ERR_PRX_TLS';
  if (!proxyPhase) return undefined;
  const code = codeOf(error) || codeOf(error.cause) || 'unknown error';
  const unreachable = (message: string, retryable: boolean) =>
    new ProxyConnectError('CHAT_PROXY_UNREACHABLE', name, message, { retryable, cause: error });
  if (REFUSED_CODES.has(code)) return unreachable(`Could not connect to the proxy ${name} (${code})`, true);
  if (LOOKUP_CODES.has(code)) return unreachable(`Could not resolve the proxy host ${name} (${code})`, true);
  if (CLOSED_CODES.has(code)) return unreachable(`The proxy ${name} closed the connection before opening a tunnel (${code})`, true);
  if (TIMEOUT_CODES.has(code)) return unreachable(`The proxy ${name} did not open a tunnel within connect_timeout (${code})`, true);
  if (TLS_CODE.test(code)) {
    const hint = code === 'ERR_SSL_WRONG_VERSION_NUMBER' ? '; is a plain-HTTP proxy configured with an https URL?' : '';
    return unreachable(`TLS with the proxy ${name} failed (${code})${hint}`, false);
  }
  // For example an answer to CONNECT that is not HTTP: retrying the same proxy will not help.
  return unreachable(`The proxy ${name} failed before opening a tunnel (${code === 'unknown error' ? error.name : code}: ${error.message})`, false);
}

function isProxyPhase(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[PROXY_PHASE] === true;
}

function codeOf(error: unknown): string {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : '';
}
