import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { DISCARD_ALLOWANCE, type TransportRefusal } from './limits.js';
import { rawRequest } from '../test/support/raw-http.js';
import { startTransport, type TransportFixture } from '../test/support/transport-fixture.js';

const maxBody = 1_000;
const maxHead = 2_048;
const refusals: TransportRefusal[] = [];
let handled = 0;
let fixture: TransportFixture;

beforeAll(async () => {
  fixture = await startTransport({
    maxRequestSize: maxBody,
    maxRequestHeadSize: maxHead,
    onRefused: (reason) => refusals.push(reason),
    fetch: async (request) => {
      handled++;
      return Response.json({ bytes: (await request.arrayBuffer()).byteLength });
    },
  });
});

afterAll(() => fixture.close());

const post = (headers: string) => `POST /apps/1/events HTTP/1.1\r\nHost: x\r\n${headers}\r\n`;
const newRefusals = (since: number) => refusals.slice(since);

describe('HTTP bodies over maxRequestSize', () => {
  it('accepts a body of exactly the limit', async () => {
    const answer = await rawRequest(fixture.port, post(`Content-Length: ${maxBody}\r\n`) + 'a'.repeat(maxBody));
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ bytes: maxBody });
  });

  it('refuses a body a little over the limit with 413 and a JSON error once it is sent, keeps the connection, never calls the handler', async () => {
    const before = { refusals: refusals.length, handled };
    const answer = await rawRequest(fixture.port, post(`Content-Length: ${maxBody + 1}\r\n`) + 'a'.repeat(maxBody + 1), { waitForClose: true, timeoutMs: 300 });
    expect(answer.status).toBe(413);
    expect(answer.headers['content-type']).toBe('application/json; charset=UTF-8');
    expect(JSON.parse(answer.body)).toEqual({ error: `the request body is larger than ${maxBody} bytes`, code: 413 });
    expect(answer.closedByServer).toBe(false);
    expect(newRefusals(before.refusals)).toEqual(['body_too_large']);
    expect(handled).toBe(before.handled);
  });

  it('answers a streamed upload over the limit with the 413, not a reset, so fetch can read it', async () => {
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 12; i++) controller.enqueue(new Uint8Array(200).fill(97));
        controller.close();
      },
    });
    const response = await fetch(`http://127.0.0.1:${fixture.port}/apps/1/events`, { method: 'POST', body, duplex: 'half' } as RequestInit);
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ error: `the request body is larger than ${maxBody} bytes`, code: 413 });
  });

  it('refuses a declared Content-Length past the discard allowance at once, before any body, and closes', async () => {
    const before = refusals.length;
    const answer = await rawRequest(fixture.port, post(`Content-Length: ${maxBody + DISCARD_ALLOWANCE + 1}\r\n`), { waitForClose: true });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toMatchObject({ code: 413 });
    expect(answer.closedByServer).toBe(true);
    expect(newRefusals(before)).toEqual(['body_too_large']);
  });

  it('stops reading a chunked body once it passes the limit: 413, and the connection is closed instead of drained', async () => {
    const before = refusals.length;
    const chunk = Buffer.alloc(64 * 1024, 'a');
    const framed = Buffer.concat([Buffer.from(`${chunk.byteLength.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]);
    const chunks = Array.from({ length: 512 }, () => framed); // 32 MiB on offer
    const answer = await rawRequest(fixture.port, post('Transfer-Encoding: chunked\r\n'), { bodyChunks: chunks, waitForClose: true });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toMatchObject({ code: 413 });
    expect(answer.closedByServer).toBe(true);
    // Without the close, uWS would read (and throw away) all 32 MiB; it stops after DISCARD_ALLOWANCE,
    // and what got written past that is what the kernel's buffers held.
    expect(answer.bodyBytesWritten).toBeLessThan(chunks.length * framed.byteLength);
    expect(newRefusals(before)).toEqual(['body_too_large']);
    expect(fixture.transport.inFlightRequests).toBe(0);
  });
});

describe('HTTP request heads over maxRequestHeadSize', () => {
  const headOf = (bytes: number) => {
    const bare = 'GET /up HTTP/1.1\r\nHost: x\r\nX-Pad: \r\n\r\n';
    return `GET /up HTTP/1.1\r\nHost: x\r\nX-Pad: ${'p'.repeat(bytes - bare.length)}\r\n\r\n`;
  };

  it('accepts a head of exactly the limit', async () => {
    expect(headOf(maxHead)).toHaveLength(maxHead);
    expect((await rawRequest(fixture.port, headOf(maxHead))).status).toBe(200);
  });

  it('refuses a longer head with 431 and a JSON error, closes, and counts it', async () => {
    const before = { refusals: refusals.length, handled };
    const answer = await rawRequest(fixture.port, headOf(maxHead + 1), { waitForClose: true });
    expect(answer.status).toBe(431);
    expect(JSON.parse(answer.body)).toEqual({ error: `the request head is larger than ${maxHead} bytes`, code: 431 });
    expect(answer.closedByServer).toBe(true);
    expect(newRefusals(before.refusals)).toEqual(['head_too_large']);
    expect(handled).toBe(before.handled);
  });

  it('refuses a WebSocket upgrade with a longer head with 431', async () => {
    const before = refusals.length;
    const ws = new WebSocket(`ws://127.0.0.1:${fixture.port}/app/key?protocol=7`, { headers: { cookie: 'c'.repeat(maxHead) } });
    const status = await new Promise<number | undefined>((resolve) => {
      ws.on('unexpected-response', (_request, response) => resolve(response.statusCode));
      ws.on('open', () => resolve(undefined));
      ws.on('error', () => undefined);
    });
    expect(status).toBe(431);
    expect(newRefusals(before)).toEqual(['head_too_large']);
  });

  // What uWS.js 20.30 does beneath the transport's limit, pinned so an upgrade that changes it is noticed (see README).
  it('uWS itself closes, without an answer, a head that arrives in parts and passes 4 KiB', async () => {
    const before = handled;
    const head = `GET /up HTTP/1.1\r\nHost: x\r\nX-Pad: ${'p'.repeat(4_200)}\r\n\r\n`;
    const answer = await rawRequest(fixture.port, head, { splitHeadAt: 10, waitForClose: true, timeoutMs: 2_000 });
    expect(answer).toMatchObject({ status: undefined, closedByServer: true });
    expect(handled).toBe(before);
  });

  it('uWS itself leaves unanswered a head of more than 48 headers (closed at its idle timeout)', async () => {
    const before = handled;
    const headers = Array.from({ length: 48 }, (_, i) => `X-H${i}: v\r\n`).join('');
    const answer = await rawRequest(fixture.port, `GET /up HTTP/1.1\r\nHost: x\r\n${headers}\r\n`, { timeoutMs: 500 });
    expect(answer.status).toBeUndefined();
    expect(handled).toBe(before);
  });
});
