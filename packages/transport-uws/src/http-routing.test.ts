import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest } from '../test/support/raw-http.js';
import { startTransport, type TransportFixture } from '../test/support/transport-fixture.js';

let fixture: TransportFixture;

beforeAll(async () => {
  fixture = await startTransport({
    // Answers which route it was asked for, and the Host it was given as a header.
    fetch: (request) => {
      const url = new URL(request.url);
      return Response.json({ path: url.pathname, query: url.search, host: request.headers.get('host') });
    },
  });
});

afterAll(() => fixture.close());

const get = (path: string, host: string, timeoutMs?: number) =>
  rawRequest(fixture.port, Buffer.concat([Buffer.from(`GET ${path} HTTP/1.1\r\nHost: `), Buffer.from(host), Buffer.from('\r\n\r\n')]), timeoutMs ? { timeoutMs } : {});

describe('HTTP routing ignores the Host header', () => {
  it('answers GET /up from /up whatever Host says (x/metrics#, @, ?)', async () => {
    for (const host of ['x/metrics#', 'x/metrics?', 'evil.example/metrics', 'user@x/metrics', 'x:1/metrics#', '[::1]/metrics']) {
      const answer = await get('/up', host);
      expect(answer.status, host).toBe(200);
      expect(JSON.parse(answer.body), host).toEqual({ path: '/up', query: '', host });
    }
  });

  it('keeps a # in the path or query instead of cutting there', async () => {
    const answer = await get('/up%2F#/metrics?a=1#b', 'x');
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({ path: '/up%2F%23/metrics', query: '?a=1%23b' });
  });

  it('routes by the path for arbitrary Host values (slashes, #, ?, @, spaces, unicode, NUL)', async () => {
    const hostChar = fc.oneof(
      { weight: 20, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }) },
      { weight: 10, arbitrary: fc.constantFrom('/', '#', '?', '@', ' ', '\t', ':', '.', '\\', '%', '[', ']', '\u007f') },
      { weight: 4, arbitrary: fc.constantFrom('é', '\u2028', '漢', '🙂', '\ufeff') },
    );
    // uWS neither answers nor closes a head with a NUL (until its idle timeout), so NULs are rare, to keep the run short.
    const nulAt = fc.oneof({ weight: 19, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.nat(24) });
    const host = fc.tuple(fc.array(hostChar, { maxLength: 24 }), nulAt).map(([chars, at]) => {
      if (at !== undefined) chars.splice(at, 0, '\u0000');
      return chars.join('');
    });
    const path = fc.constantFrom('/up', '/metrics', '/apps/1/events', '/pusher/health');
    await fc.assert(
      fc.asyncProperty(host, path, async (hostValue, requested) => {
        const answer = await get(requested, hostValue, hostValue.includes('\u0000') ? 200 : 5_000);
        // uWS itself refuses some heads (a NUL, for one): then no route answered at all.
        if (answer.status === undefined) {
          expect(hostValue).toContain('\u0000');
          return;
        }
        expect(answer.status).toBe(200);
        expect(JSON.parse(answer.body)).toMatchObject({ path: requested, query: '' });
      }),
      { numRuns: 300 },
    );
  });
});
