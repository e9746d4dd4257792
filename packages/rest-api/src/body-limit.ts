import { PusherApiError } from './errors.js';

/**
 * The one rule on request body size, whoever reads the body: more than `limit`
 * bytes (declared or read) is a 413 `{"error":"the request body is larger than N bytes","code":413}`,
 * answered before routing, so it looks the same for every path and app (no
 * CORS headers), as the uWS transport's own refusal does.
 */
export function checkBodySize(bytes: number, limit: number): void {
  if (bytes > limit) throw new PusherApiError('PAYLOAD_TOO_LARGE', `the request body is larger than ${limit} bytes`);
}
