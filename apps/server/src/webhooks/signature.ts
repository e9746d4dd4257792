import { createHmac } from 'node:crypto';

/** `X-Pusher-Signature`: hex HMAC-SHA256 of the exact body bytes, keyed with the app secret. */
export function webhookSignature(secret: string, body: string): string {
  return createHmac('sha256', secret).update(body, 'utf8').digest('hex');
}
