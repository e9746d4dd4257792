import { PusherApiError } from './errors.js';

const empty = new Uint8Array(0);

/**
 * Reads a request body of at most `limit` bytes. A larger `Content-Length` is
 * refused before reading; a body that turns out larger (chunked, or a lying
 * header) is refused as soon as the bytes read pass the limit, and the rest
 * of the stream is cancelled, so no more than `limit` bytes are ever held.
 */
export async function readBody(request: Request, limit: number): Promise<Uint8Array> {
  const declared = request.headers.get('content-length');
  if (declared !== null && declared !== '') {
    const length = Number(declared);
    if (!Number.isSafeInteger(length) || length < 0) {
      throw new PusherApiError('MALFORMED_REQUEST', 'Content-Length must be a non-negative integer');
    }
    if (length > limit) throw tooLarge(limit);
  }
  if (!request.body) return empty;

  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => {});
      throw tooLarge(limit);
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

function tooLarge(limit: number): PusherApiError {
  return new PusherApiError('PAYLOAD_TOO_LARGE', `the request body is larger than ${limit} bytes`);
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
