import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlainHttpRequest } from './http-bridge.js';
import { rawRequest } from '../test/support/raw-http.js';
import { startTransport, type TransportFixture } from '../test/support/transport-fixture.js';

const seen: PlainHttpRequest[] = [];
let fixture: TransportFixture;

beforeAll(async () => {
  // Only a plain handler, as the daemon runs: no fetch fallback behind it.
  fixture = await startTransport({
    maxRequestSize: 100,
    plain: (request) => {
      seen.push(request);
      if (request.path === '/pass') return undefined;
      if (request.path === '/later') return Promise.resolve({ status: 202, headers: { 'x-later': 'yes' }, body: new TextEncoder().encode('bytes') });
      return { status: 200, headers: { 'content-type': 'text/plain' }, body: `${request.method} ${request.path} ${request.query} ${Buffer.from(request.body).toString()}` };
    },
  });
});

afterAll(() => fixture.close());

const last = () => seen.at(-1) as PlainHttpRequest;

describe('a transport with only a plain handler', () => {
  it('answers synchronously returned answers, and promised ones with byte bodies', async () => {
    const now = await rawRequest(fixture.port, 'GET /now?a=1 HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(now).toMatchObject({ status: 200, body: 'GET /now a=1 ' });
    const later = await rawRequest(fixture.port, 'GET /later HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(later).toMatchObject({ status: 202, headers: { 'x-later': 'yes' }, body: 'bytes' });
  });

  it('answers 404 JSON for what the handler passes on, having no fetch handler', async () => {
    const answer = await rawRequest(fixture.port, 'GET /pass HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(answer.status).toBe(404);
    expect(answer.headers['content-type']).toBe('application/json; charset=UTF-8');
    expect(JSON.parse(answer.body)).toEqual({ error: 'Not found', code: 404 });
  });

  it('hands over a body of known length, and a chunked one, as exactly the bytes sent, in one buffer', async () => {
    const sized = await rawRequest(fixture.port, 'POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 11\r\n\r\nhello world');
    expect(sized.body).toBe('POST /echo  hello world');
    expect(Buffer.isBuffer(last().body)).toBe(true);
    const chunked = await rawRequest(fixture.port, 'POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n');
    expect(chunked.body).toBe('POST /echo  hello world');
    expect(last().body.byteLength).toBe(11);
  });

  it('passes an empty body for a POST without one', async () => {
    await rawRequest(fixture.port, 'POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n');
    expect(last().body.byteLength).toBe(0);
  });
});
