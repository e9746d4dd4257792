import { describe, expect, it } from 'vitest';
import { PusherApiError } from './errors.js';
import { bodyText, readBody } from './read-body.js';

/** A body that never ends, counting how much was pulled and whether it was cancelled. */
function endlessBody(chunkSize: number) {
  const state = { pulled: 0, cancelled: false };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      state.pulled += chunkSize;
      controller.enqueue(new Uint8Array(chunkSize));
    },
    cancel() {
      state.cancelled = true;
    },
  });
  return { stream, state };
}

const post = (body: string | ReadableStream<Uint8Array>, headers: Record<string, string> = {}) =>
  new Request('http://127.0.0.1/x', { method: 'POST', body, headers, duplex: 'half' } as RequestInit);

describe('readBody', () => {
  it('returns the exact bytes of a body within the limit', async () => {
    const bytes = await readBody(post('héllo'), 100);
    expect(Buffer.from(bytes).toString('utf8')).toBe('héllo');
  });

  it('accepts a body of exactly the limit and refuses one byte more', async () => {
    expect((await readBody(post('x'.repeat(10)), 10)).byteLength).toBe(10);
    await expect(readBody(post('x'.repeat(11)), 10)).rejects.toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
  });

  it('stops reading an endless body just past the limit and cancels it instead of hanging', async () => {
    const { stream, state } = endlessBody(256);
    const error = await readBody(post(stream), 1_000).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PusherApiError);
    expect((error as PusherApiError).status).toBe(413);
    expect(state.cancelled).toBe(true);
    // At most one chunk beyond the limit is ever pulled (plus the stream's own read-ahead).
    expect(state.pulled).toBeLessThanOrEqual(1_000 + 3 * 256);
  });

  it('refuses a declared Content-Length over the limit without touching the body', async () => {
    const { stream, state } = endlessBody(256);
    await expect(readBody(post(stream, { 'content-length': '5000' }), 1_000)).rejects.toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    expect(state.pulled).toBeLessThanOrEqual(256);
  });

  it('refuses a Content-Length that is not a number', async () => {
    const request = { headers: new Headers({ 'content-length': 'lots' }), body: null } as unknown as Request;
    await expect(readBody(request, 10)).rejects.toMatchObject({ code: 'MALFORMED_REQUEST' });
  });

  it('returns an empty body when there is none', async () => {
    expect((await readBody(new Request('http://127.0.0.1/x', { method: 'POST' }), 10)).byteLength).toBe(0);
  });
});

describe('bodyText', () => {
  it('decodes UTF-8 and refuses invalid bytes with a 400', () => {
    expect(bodyText(new TextEncoder().encode('ok ✓'))).toBe('ok ✓');
    expect(() => bodyText(new Uint8Array([0xc3, 0x28]))).toThrowError(expect.objectContaining({ code: 'MALFORMED_REQUEST' }));
  });
});
