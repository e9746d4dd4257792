import { signedPath, type BenchApp } from './signing.js';
import { postRequest } from './http-client.js';
import type { Endpoint } from './pusher-client.js';

const marker = Buffer.from('sent_at');

/** Event data carrying the send time (performance.now() of this process) and padding. */
export function timedData(padding = ''): string {
  return `{"sent_at":${performance.now().toFixed(3)}${padding ? `,"pad":"${padding}"` : ''}}`;
}

/**
 * The `sent_at` of a delivered frame, read from the raw bytes without parsing
 * the JSON (it appears as `"sent_at":N` or, double-encoded, `\"sent_at\":N`).
 * NaN when the frame carries none.
 */
export function readSentAt(payload: Buffer): number {
  const at = payload.indexOf(marker);
  if (at < 0) return Number.NaN;
  let start = at + marker.length;
  // Skip the closing quote(s), backslash and colon.
  while (start < payload.length && (payload[start] === 0x22 || payload[start] === 0x5c || payload[start] === 0x3a)) start++;
  let end = start;
  while (end < payload.length && ((payload[end]! >= 0x30 && payload[end]! <= 0x39) || payload[end] === 0x2e)) end++;
  return Number(payload.toString('latin1', start, end));
}

/** A signed `POST /apps/{id}/events` request, ready to write. */
export function triggerRequest(endpoint: Endpoint, app: BenchApp, channels: string[], name: string, data: string): Buffer {
  const body = JSON.stringify(channels.length === 1 ? { name, channel: channels[0], data } : { name, channels, data });
  return postRequest(endpoint, signedPath(app, 'POST', `/apps/${app.id}/events`, body), body);
}
