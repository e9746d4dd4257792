// Every signature of the Pusher protocol, both sides of each: the HTTP API request, channel auth, user
// sign-in and webhooks. The only module that touches node:crypto, so a WebCrypto build can swap it.
import { createHmac, hash, timingSafeEqual } from 'node:crypto';

/** What signs and verifies: an app's key and secret. */
export interface AppCredentials {
  key: string;
  secret: string;
}

function hmacSha256Hex(secret: string, payload: string | Uint8Array): string {
  return createHmac('sha256', secret).update(payload).digest('hex');
}

/** One-shot `hash` (Node 20.12+): no Hash object per call, about twice as fast for a request body. */
function md5Hex(payload: string | Uint8Array): string {
  return hash('md5', payload, 'hex');
}

/** Constant-time comparison of two strings; false when lengths differ. */
function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

// --- HTTP API requests -------------------------------------------------------------------------

/** How far `auth_timestamp` may be from the server's clock, as Pusher documents. */
export const signatureWindowSeconds = 600;

/** A request as the server received it, for `verifyRequestSignature`. */
export interface SignedRequest {
  /** Upper-case HTTP method. */
  method: string;
  /** The path the client signed, `/apps/{id}/...`, without any deployment prefix. */
  path: string;
  /** Query parameters, percent-decoded (the PHP SDK encodes, the Node SDK does not). */
  query: ReadonlyMap<string, string>;
  /** The exact body bytes. */
  body: string | Uint8Array;
}

export type SignatureCheck = { ok: true } | { ok: false; reason: string };

/** A request to sign, for `signRequest`. */
export interface RequestToSign {
  method: string;
  /** `/apps/{id}/...` */
  path: string;
  /** Parameters besides the `auth_*` ones and `body_md5`. */
  query?: Readonly<Record<string, string>>;
  /** The exact body; `body_md5` is signed when there is one. */
  body?: string | Uint8Array;
  /** Unix seconds; now by default. */
  timestamp?: number;
}

/** `METHOD\nPATH\nk=v&...` over the decoded parameters, sorted by name, `auth_signature` left out. */
function canonicalRequest(method: string, path: string, query: ReadonlyMap<string, string>): string {
  const canonicalQuery = [...query.keys()]
    .filter((name) => name !== 'auth_signature')
    .sort()
    .map((name) => `${name}=${query.get(name) ?? ''}`)
    .join('&');
  return `${method}\n${path}\n${canonicalQuery}`;
}

/**
 * The query string (without `?`) of a signed Pusher HTTP API request, as the Pusher server SDKs
 * build it: the caller's parameters plus `auth_key`, `auth_timestamp`, `auth_version`,
 * `body_md5` (with a body) and `auth_signature`, percent-encoded.
 */
export function signRequest(credentials: AppCredentials, request: RequestToSign): string {
  const query = new Map(Object.entries(request.query ?? {}));
  query.set('auth_key', credentials.key);
  query.set('auth_timestamp', String(request.timestamp ?? Math.floor(Date.now() / 1000)));
  query.set('auth_version', '1.0');
  const bodyLength = request.body === undefined ? 0 : typeof request.body === 'string' ? request.body.length : request.body.byteLength;
  if (request.body !== undefined && bodyLength > 0) query.set('body_md5', md5Hex(request.body));
  query.set('auth_signature', hmacSha256Hex(credentials.secret, canonicalRequest(request.method.toUpperCase(), request.path, query)));
  return [...query].map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`).join('&');
}

/**
 * Verifies the Pusher HTTP API request signature:
 * `auth_signature = hex(hmac(secret, METHOD\nPATH\nsorted k=v&...))` over the decoded query
 * without `auth_signature`, plus `auth_key`, the timestamp window and `body_md5`.
 */
export function verifyRequestSignature(app: AppCredentials, request: SignedRequest, nowSeconds = Date.now() / 1000): SignatureCheck {
  const { query } = request;
  const signature = query.get('auth_signature');
  if (!signature) return { ok: false, reason: 'auth_signature is missing' };
  if (query.get('auth_key') !== app.key) return { ok: false, reason: 'auth_key does not match the app' };

  const timestamp = Number(query.get('auth_timestamp'));
  if (!Number.isFinite(timestamp)) return { ok: false, reason: 'auth_timestamp is missing or not a number' };
  if (Math.abs(nowSeconds - timestamp) > signatureWindowSeconds) {
    return { ok: false, reason: `auth_timestamp is more than ${signatureWindowSeconds} seconds from the server time` };
  }
  const version = query.get('auth_version');
  if (version !== undefined && version !== '1.0') return { ok: false, reason: 'auth_version must be 1.0' };

  const bodyLength = typeof request.body === 'string' ? request.body.length : request.body.byteLength;
  const bodyMd5 = query.get('body_md5');
  if (bodyLength > 0 || bodyMd5 !== undefined) {
    if (bodyMd5 === undefined) return { ok: false, reason: 'body_md5 is missing' };
    if (!safeEqual(bodyMd5, md5Hex(request.body))) return { ok: false, reason: 'body_md5 does not match the body' };
  }

  const expected = hmacSha256Hex(app.secret, canonicalRequest(request.method, request.path, query));
  return safeEqual(signature, expected) ? { ok: true } : { ok: false, reason: 'auth_signature is invalid' };
}

// --- Channel auth and user sign-in ---------------------------------------------------------------

/**
 * The `auth` string for a private, encrypted or presence channel:
 * `key:hex(hmac(secret, "socket_id:channel[:channel_data]"))`.
 */
export function signChannel(credentials: AppCredentials, socketId: string, channel: string, channelData?: string): string {
  const payload = channelData === undefined ? `${socketId}:${channel}` : `${socketId}:${channel}:${channelData}`;
  return `${credentials.key}:${hmacSha256Hex(credentials.secret, payload)}`;
}

export function verifyChannelAuth(credentials: AppCredentials, socketId: string, channel: string, auth: unknown, channelData?: string): boolean {
  return typeof auth === 'string' && safeEqual(auth, signChannel(credentials, socketId, channel, channelData));
}

/** The `auth` string for user sign-in: signs `socket_id::user::user_data`. */
export function signUser(credentials: AppCredentials, socketId: string, userData: string): string {
  return `${credentials.key}:${hmacSha256Hex(credentials.secret, `${socketId}::user::${userData}`)}`;
}

export function verifyUserAuth(credentials: AppCredentials, socketId: string, userData: string, auth: unknown): boolean {
  return typeof auth === 'string' && safeEqual(auth, signUser(credentials, socketId, userData));
}

// --- Webhooks ------------------------------------------------------------------------------------

/** `X-Pusher-Signature`: hex HMAC-SHA256 of the exact body bytes, keyed with the app secret. */
export function signWebhook(secret: string, body: string | Uint8Array): string {
  return hmacSha256Hex(secret, body);
}

/** What a webhook receiver checks: the `X-Pusher-Signature` header against the raw body. */
export function verifyWebhookSignature(secret: string, body: string | Uint8Array, signature: unknown): boolean {
  return typeof signature === 'string' && safeEqual(signature, signWebhook(secret, body));
}
