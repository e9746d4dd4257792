import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FRAME_TOO_LARGE_CLOSE_CODE, type TransportRefusal } from './limits.js';
import { connectClient, startTransport, type TransportFixture } from '../test/support/transport-fixture.js';

const limit = 1_024;
const refusals: TransportRefusal[] = [];
let fixture: TransportFixture;

beforeAll(async () => {
  fixture = await startTransport({ maxPayloadLength: limit, onRefused: (reason) => refusals.push(reason) });
});

afterAll(() => fixture.close());

/** A pusher:ping whose frame is exactly `bytes` long. */
function pingOf(bytes: number): string {
  const empty = JSON.stringify({ event: 'pusher:ping', data: { pad: '' } });
  return JSON.stringify({ event: 'pusher:ping', data: { pad: 'p'.repeat(bytes - empty.length) } });
}

describe('WebSocket frames over maxPayloadLength', () => {
  it('serves a frame of exactly the limit', async () => {
    const client = await connectClient(fixture.port);
    client.ws.send(pingOf(limit));
    await expect.poll(() => client.frames.at(-1)?.event).toBe('pusher:pong');
    client.ws.close();
  });

  it('closes the connection with 1009 (Message Too Big) and a reason, as a real close frame, and counts it', async () => {
    const before = refusals.length;
    const client = await connectClient(fixture.port);
    const bystander = await connectClient(fixture.port);
    client.ws.send(pingOf(limit + 1));
    expect(await client.closed).toEqual({ code: FRAME_TOO_LARGE_CLOSE_CODE, reason: `Frame is larger than ${limit} bytes.` });
    expect(refusals.slice(before)).toEqual(['frame_too_large']);
    bystander.ws.send(pingOf(100));
    await expect.poll(() => bystander.frames.at(-1)?.event).toBe('pusher:pong');
    bystander.ws.close();
  });

  it('closes a binary frame over the limit with 1009 too', async () => {
    const client = await connectClient(fixture.port);
    client.ws.send(Buffer.alloc(limit * 2), { binary: true });
    expect((await client.closed).code).toBe(FRAME_TOO_LARGE_CLOSE_CODE);
  });

  it('counts a frame past uWS own ceiling (twice the limit), which uWS drops without a close frame (1006)', async () => {
    const before = refusals.length;
    const client = await connectClient(fixture.port);
    client.ws.send(pingOf(limit * 2 + 1));
    expect((await client.closed).code).toBe(1006);
    await expect.poll(() => refusals.slice(before)).toEqual(['frame_too_large']);
    expect((await connectClient(fixture.port)).frames[0]?.event).toBe('pusher:connection_established');
  });
});
