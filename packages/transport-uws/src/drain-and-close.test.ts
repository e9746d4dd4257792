import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { PlainHttpResponse } from './http-bridge.js';
import { UwsOptionError } from './options.js';
import { rawRequest } from '../test/support/raw-http.js';
import { connectClient, startTransport, type TransportFixture } from '../test/support/transport-fixture.js';

/** A plain handler whose answers to `/held` wait until the test releases them; everything else is answered at once. */
function heldAnswers() {
  const waiting: ((response: PlainHttpResponse) => void)[] = [];
  const ok: PlainHttpResponse = { status: 200, headers: { 'content-type': 'text/plain' }, body: 'ok' };
  return {
    plain: ({ path }: { path: string }) => (path === '/held' ? new Promise<PlainHttpResponse>((resolve) => waiting.push(resolve)) : ok),
    get held() {
      return waiting.length;
    },
    releaseAll: () => waiting.splice(0).forEach((answer) => answer(ok)),
  };
}

/** Whether `promise` settles within a few loop turns (`setImmediate`s, microseconds each): far sooner than any poll. */
async function settlesWithinTurns(promise: Promise<unknown>, turns = 3): Promise<boolean> {
  let settled = false;
  void promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  for (let turn = 0; turn < turns && !settled; turn++) await new Promise((resolve) => setImmediate(resolve));
  return settled;
}

/** A keep-alive client that got its answer to one request and stays connected, idle. */
async function idleKeepAlive(port: number): Promise<{ socket: Socket; closed: Promise<void> }> {
  const socket = connect(port, '127.0.0.1');
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.on('error', () => {});
  let received = '';
  await new Promise<void>((resolve) => {
    socket.on('data', (chunk) => {
      received += chunk.toString('latin1');
      if (received.endsWith('\r\n\r\nok')) resolve();
    });
    socket.write('GET /now HTTP/1.1\r\nHost: x\r\n\r\n');
  });
  expect(received).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
  return { socket, closed };
}

const within = <T>(promise: Promise<T>, ms: number, what: string) =>
  Promise.race([promise, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms))]);

let fixture: TransportFixture | undefined;
afterEach(async () => {
  fixture?.transport.close();
  await fixture?.close();
  fixture = undefined;
});

describe('drain(deadline)', () => {
  it('resolves true within a loop turn when no request is in flight', async () => {
    fixture = await startTransport({ plain: heldAnswers().plain });
    expect(await settlesWithinTurns(fixture.transport.drain(Date.now() + 5_000))).toBe(true);
    await expect(fixture.transport.drain(Date.now() + 5_000)).resolves.toBe(true);
  });

  it('waits for a request in flight and resolves true as soon as it is answered, without polling', async () => {
    const handler = heldAnswers();
    fixture = await startTransport({ plain: handler.plain });
    const answer = rawRequest(fixture.port, 'GET /held HTTP/1.1\r\nHost: x\r\n\r\n');
    await expect.poll(() => handler.held).toBe(1);
    fixture.transport.stopListening();

    const drained = fixture.transport.drain(Date.now() + 10_000);
    expect(await settlesWithinTurns(drained)).toBe(false);
    expect(fixture.transport.inFlightRequests).toBe(1);

    handler.releaseAll();
    // Settled the turn after the answer is written: a drain that polled (every 20 ms) would not be yet.
    expect(await settlesWithinTurns(drained)).toBe(true);
    await expect(drained).resolves.toBe(true);
    expect(fixture.transport.inFlightRequests).toBe(0);
    expect((await answer).status).toBe(200);
  });

  it('gives up at the deadline with false while a request is still unanswered, and that request is answered later all the same', async () => {
    const handler = heldAnswers();
    fixture = await startTransport({ plain: handler.plain });
    const answer = rawRequest(fixture.port, 'GET /held HTTP/1.1\r\nHost: x\r\n\r\n');
    await expect.poll(() => handler.held).toBe(1);

    const started = Date.now();
    await expect(fixture.transport.drain(started + 150)).resolves.toBe(false);
    expect(Date.now() - started).toBeGreaterThanOrEqual(145);
    expect(fixture.transport.inFlightRequests).toBe(1);
    // A deadline already past gives up at once.
    await expect(fixture.transport.drain(Date.now() - 1)).resolves.toBe(false);

    handler.releaseAll();
    expect((await answer).status).toBe(200);
    expect(fixture.transport.inFlightRequests).toBe(0);
  });

  it('resolves only once the last answer has left: close() right after it loses no answer', async () => {
    // An async handler answering as the body's last chunk arrives writes from inside uWS's data
    // callback, whose cork buffer is sent when that callback returns: closing any sooner drops it.
    fixture = await startTransport({ plain: async ({ body }) => ({ status: 200, headers: { 'content-type': 'text/plain' }, body: `got ${body.byteLength}` }) });
    const socket = connect(fixture.port, '127.0.0.1');
    let received = '';
    socket.on('data', (chunk) => (received += chunk.toString('latin1')));
    socket.on('error', () => {});
    const closed = new Promise((resolve) => socket.once('close', resolve));
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write('POST /events HTTP/1.1\r\nHost: x\r\nContent-Length: 20\r\n\r\n0123456789');
    await expect.poll(() => fixture!.transport.inFlightRequests).toBe(1);
    const closedAfterDrain = fixture.transport.drain(Date.now() + 5_000).then((drained) => {
      fixture!.transport.close();
      return drained;
    });
    socket.write('0123456789');
    expect(await closedAfterDrain).toBe(true);
    await within(closed, 2_000, 'the connection closed by close()');
    expect(received).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(received.endsWith('got 20')).toBe(true);
  });

  it('refuses a deadline that is not a time', async () => {
    fixture = await startTransport({ plain: heldAnswers().plain });
    await expect(fixture.transport.drain(Number.NaN)).rejects.toBeInstanceOf(UwsOptionError);
  });
});

describe('close()', () => {
  it('stops listening and ends idle keep-alive connections', async () => {
    fixture = await startTransport({ plain: heldAnswers().plain });
    const { port } = fixture;
    const idle = await idleKeepAlive(port);

    fixture.transport.close();
    await within(idle.closed, 2_000, 'the idle keep-alive connection closed by the server');
    const refused = await rawRequest(port, 'GET /now HTTP/1.1\r\nHost: x\r\n\r\n', { timeoutMs: 1_000 });
    expect(refused).toMatchObject({ status: undefined, closedByServer: true });
  });

  it('aborts a request still unanswered, which settles it, so a drain waiting for it resolves', async () => {
    const handler = heldAnswers();
    fixture = await startTransport({ plain: handler.plain });
    const answer = rawRequest(fixture.port, 'GET /held HTTP/1.1\r\nHost: x\r\n\r\n');
    await expect.poll(() => handler.held).toBe(1);
    const drained = fixture.transport.drain(Date.now() + 10_000);

    fixture.transport.close();
    await expect(within(drained, 2_000, 'the drain')).resolves.toBe(true);
    expect(fixture.transport.inFlightRequests).toBe(0);
    expect(await answer).toMatchObject({ status: undefined, closedByServer: true });
    // Released after the abort: nothing is written to the closed request, nothing throws.
    handler.releaseAll();
  });

  it('closes WebSockets still open', async () => {
    fixture = await startTransport({ plain: heldAnswers().plain });
    const client = await connectClient(fixture.port);
    fixture.transport.close();
    expect((await within(client.closed, 2_000, 'the WebSocket closed')).code).toBe(1006);
  });

  it('does nothing when called again, and the server cannot listen again', async () => {
    fixture = await startTransport({ plain: heldAnswers().plain });
    const idle = await idleKeepAlive(fixture.port);
    fixture.transport.close();
    expect(() => fixture!.transport.close()).not.toThrow();
    expect(() => fixture!.transport.stopListening()).not.toThrow();
    await within(idle.closed, 2_000, 'the idle keep-alive connection closed by the server');
    await expect(fixture.transport.listen(0)).rejects.toThrow('the server is closed');
    await expect(fixture.transport.drain(Date.now() + 1_000)).resolves.toBe(true);
  });
});
