/** Why the transport refused a request or closed a connection at a size limit, for metrics. */
export type TransportRefusal =
  /** A WebSocket frame over `maxPayloadLength`: closed with 1009 (or dropped, past uWS's ceiling). */
  | 'frame_too_large'
  /** An HTTP body over `maxRequestSize`: 413. */
  | 'body_too_large'
  /** An HTTP request head (request line and headers) over `maxRequestHeadSize`: 431. */
  | 'head_too_large';

/** Called once per refusal. */
export type TransportRefusalHandler = (reason: TransportRefusal) => void;

/** RFC 6455 "Message Too Big". */
export const FRAME_TOO_LARGE_CLOSE_CODE = 1009;

/**
 * What uWS itself is told to accept. uWS drops the TCP connection without a
 * close frame (the client sees 1006) on a frame over its own limit, so it gets
 * twice ours: frames up to that are read and refused by the transport with a
 * proper 1009 close; only frames past it are still dropped by uWS. Twice is a
 * bound on what one socket can make the server buffer.
 */
export function uwsPayloadCeiling(maxPayloadLength: number): number {
  return maxPayloadLength * 2;
}

/**
 * Bytes past `maxRequestSize` read and thrown away before a refused body's
 * connection is closed. Closing at once makes a client still uploading see a
 * reset (EPIPE) instead of the 413; reading an unbounded body to its end would
 * let a client keep the server busy for free.
 */
export const DISCARD_ALLOWANCE = 64 * 1024;

/** uWS's close reason when it dropped a connection for a frame over its own limit. */
export const UWS_TOO_BIG_REASON = 'Received too big message';

/** HTTP/1.1 request line and header lines, as characters: what a request head costs to hold. */
const REQUEST_LINE_OVERHEAD = ' HTTP/1.1\r\n'.length + 1 + '\r\n'.length;
export const HEADER_LINE_OVERHEAD = ': \r\n'.length;

/** The request line's share of a request head. */
export function requestLineSize(method: string, path: string, query: string): number {
  return method.length + path.length + (query === '' ? 0 : query.length + 1) + REQUEST_LINE_OVERHEAD;
}
