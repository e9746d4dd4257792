import { checkBodySize } from './body-limit.js';
import { PusherApiError } from './errors.js';

const empty = new Uint8Array(0);

/**
 * Reads a fetch request's body of at most `limit` bytes. A larger
 * `Content-Length` is refused before reading; a body that turns out larger
 * (chunked, or a lying header) is refused as soon as the bytes read pass the
 * limit, and the rest of the stream is cancelled, so no more than `limit`
 * bytes are ever held. GET and HEAD carry no body.
 */
export async function readBody(request: Request, limit: number): Promise<Uint8Array> {
  if (request.method === 'GET' || request.method === 'HEAD') return empty;
  const declared = request.headers.get('content-length');
  if (declared !== null && declared !== '') {
    const length = Number(declared);
    if (!Number.isSafeInteger(length) || length < 0) {
      throw new PusherApiError('MALFORMED_REQUEST', 'Content-Length must be a non-negative integer');
    }
    checkBodySize(length, limit);
  }
  if (!request.body) return empty;

  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    try {
      checkBodySize(total, limit);
    } catch (error) {
      await reader.cancel().catch(() => {});
      throw error;
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return chunks[0] ?? empty;
  const body = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The body as text; invalid UTF-8 is a client error, not a server crash. */
export function bodyText(body: Uint8Array): string {
  try {
    return utf8.decode(body);
  } catch {
    throw new PusherApiError('MALFORMED_REQUEST', 'the request body is not valid UTF-8');
  }
}
