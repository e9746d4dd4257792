// The only module that touches node:crypto, so a WebCrypto build can swap it.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

export function hmacSha256Hex(secret: string, payload: string | Uint8Array): string {
  return createHmac('sha256', secret).update(payload).digest('hex');
}

export function md5Hex(payload: string | Uint8Array): string {
  return createHash('md5').update(payload).digest('hex');
}

/** Constant-time comparison of two strings; false when lengths differ. */
export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
