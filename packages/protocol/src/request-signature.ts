import type { App } from './app.js';
import { hmacSha256Hex, md5Hex, safeEqual } from './crypto.js';

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

/** How far `auth_timestamp` may be from the server's clock, as Pusher documents. */
export const signatureWindowSeconds = 600;

/**
 * Verifies the Pusher HTTP API request signature:
 * `auth_signature = hex(hmac(secret, METHOD\nPATH\nsorted k=v&...))` over the decoded query
 * without `auth_signature`, plus `auth_key`, the timestamp window and `body_md5`.
 */
export function verifyRequestSignature(app: App, request: SignedRequest, nowSeconds = Date.now() / 1000): SignatureCheck {
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

  const canonicalQuery = [...query.keys()]
    .filter((key) => key !== 'auth_signature')
    .sort()
    .map((key) => `${key}=${query.get(key) ?? ''}`)
    .join('&');
  const expected = hmacSha256Hex(app.secret, `${request.method}\n${request.path}\n${canonicalQuery}`);
  return safeEqual(signature, expected) ? { ok: true } : { ok: false, reason: 'auth_signature is invalid' };
}
