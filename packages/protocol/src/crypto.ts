// The only module that touches node:crypto, so a WebCrypto build can swap it.
import { createHmac, hash, timingSafeEqual } from 'node:crypto';

export function hmacSha256Hex(secret: string, payload: string | Uint8Array): string {
  return createHmac('sha256', secret).update(payload).digest('hex');
}

/** One-shot `hash` (Node 20.12+): no Hash object per call, about twice as fast for a request body. */
export function md5Hex(payload: string | Uint8Array): string {
  return hash('md5', payload, 'hex');
}

/** Constant-time comparison of two strings; false when lengths differ. */
export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
