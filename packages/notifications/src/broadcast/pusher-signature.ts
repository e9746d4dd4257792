import { createHash, createHmac } from 'node:crypto';

/** Pusher socket ids are two dot-separated integers, e.g. `123.456`. */
export const SOCKET_ID = /^\d+\.\d+$/;

/** Hex HMAC-SHA256 with the app secret. */
export function hmacHex(secret: string, message: string): string {
  return createHmac('sha256', secret).update(message).digest('hex');
}

/** The `auth` value for a private channel: `{key}:{hex hmac of "socket_id:channel"}`. */
export function signPrivateChannel(key: string, secret: string, socketId: string, channelName: string): string {
  return `${key}:${hmacHex(secret, `${socketId}:${channelName}`)}`;
}

/**
 * Builds the signed query string for a Pusher HTTP API request: auth params plus `body_md5`,
 * sorted by key, signed as "METHOD\nPATH\nquery" without URL-encoding, then `auth_signature`.
 */
export function signRequest(input: {
  key: string;
  secret: string;
  method: string;
  path: string;
  body?: string;
  params?: Record<string, string>;
  /** Unix seconds; injectable for tests. */
  timestamp?: number;
}): string {
  const params: Record<string, string> = {
    ...input.params,
    auth_key: input.key,
    auth_timestamp: String(input.timestamp ?? Math.floor(Date.now() / 1000)),
    auth_version: '1.0',
  };
  if (input.body !== undefined) params.body_md5 = createHash('md5').update(input.body, 'utf8').digest('hex');
  const sorted = Object.keys(params)
    .sort()
    .map((k) => `${k}=${params[k]}`)
    .join('&');
  const signature = hmacHex(input.secret, `${input.method.toUpperCase()}\n${input.path}\n${sorted}`);
  return `${sorted}&auth_signature=${signature}`;
}
