import { signedPath, type BenchApp } from './signing.js';
import { postRequest } from './http-client.js';
import type { Endpoint } from './pusher-client.js';

const marker = Buffer.from('sent_at');

/** Event data carrying the send time (performance.now() of this process) and padding. */
export function timedData(padding = ''): string {
  return `{"sent_at":${performance.now().toFixed(3)}${padding ? `,"pad":"${padding}"` : ''}}`;
}

/**
 * The `sent_at` of a delivered frame (bytes `from` to `to` of `buffer`), read
 * without parsing the JSON (it appears as `"sent_at":N` or, double-encoded,
 * `\"sent_at\":N`). NaN when the frame carries none.
 */
export function readSentAt(buffer: Buffer, from = 0, to = buffer.length): number {
  const at = buffer.indexOf(marker, from);
  if (at < 0 || at >= to) return Number.NaN;
  let start = at + marker.length;
  // Skip the closing quote(s), backslash and colon.
  while (start < to && (buffer[start] === 0x22 || buffer[start] === 0x5c || buffer[start] === 0x3a)) start++;
  let end = start;
  while (end < to && ((buffer[end]! >= 0x30 && buffer[end]! <= 0x39) || buffer[end] === 0x2e)) end++;
  return Number(buffer.toString('latin1', start, end));
}

/** A signed `POST /apps/{id}/events` request, ready to write. */
export function triggerRequest(endpoint: Endpoint, app: BenchApp, channels: string[], name: string, data: string): Buffer {
  const body = JSON.stringify(channels.length === 1 ? { name, channel: channels[0], data } : { name, channels, data });
  return postRequest(endpoint, signedPath(app, 'POST', `/apps/${app.id}/events`, body), body);
}
