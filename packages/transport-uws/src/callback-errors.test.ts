import { createApp, createStaticAppProvider, RealtimeServer, type App, type AppProvider, type Connection, type ConnectionRequest } from '@org/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { TransportCallback } from './transport-errors.js';
import { rawRequest } from '../test/support/raw-http.js';
import { connectClient, startTransport, type TransportFixture } from '../test/support/transport-fixture.js';

/** An app provider whose lookup by key fails on cue, as a buggy one would. */
function buggyApps(apps: AppProvider): AppProvider {
  return {
    ...apps,
    findByKey(key) {
      if (key === 'find-throws') throw new Error('findApp bug');
      if (key === 'find-rejects') return Promise.reject(new Error('findApp async bug'));
      return apps.findByKey(key);
    },
  };
}

/** A real engine with bugs planted on cue: each throws where a real bug would. */
class BuggyEngine extends RealtimeServer {
  readonly closeThrowsFor = new Set<Connection>();

  override open(socket: unknown, app: App | undefined, request: ConnectionRequest): Connection | undefined {
    if (request.protocol === '666') throw new Error('open bug');
    return super.open(socket, app, request);
  }

  override message(connection: Connection, text: string): void {
    if (text.includes('boom')) throw new Error('message bug');
    if (text === 'arm-close-bug') return void this.closeThrowsFor.add(connection);
    super.message(connection, text);
  }

  override close(connection: Connection): void {
    super.close(connection);
    if (this.closeThrowsFor.has(connection)) throw new Error('close bug');
  }
}

const app = createApp({ id: '1', key: 'key', secret: 'secret' });
const engine = new BuggyEngine({ apps: buggyApps(createStaticAppProvider([app])) });
const reported: { message: string; where: TransportCallback }[] = [];
let fixture: TransportFixture;

beforeAll(async () => {
  fixture = await startTransport({
    engine,
    app,
    onError: (error, where) => reported.push({ message: (error as Error).message, where }),
    fetch: (request) => {
      if (new URL(request.url).pathname === '/fetch-throws') throw new Error('fetch bug');
      return new Response('fine');
    },
    plain: ({ path }) => {
      if (path === '/plain-throws') throw new Error('plain bug');
      return undefined;
    },
  });
});

afterAll(() => fixture.close());

const reportsSince = (start: number) => reported.slice(start);

async function pong(client: Awaited<ReturnType<typeof connectClient>>): Promise<void> {
  const pongs = client.frames.filter((f) => f.event === 'pusher:pong').length;
  client.ws.send(JSON.stringify({ event: 'pusher:ping', data: {} }));
  await expect.poll(() => client.frames.filter((f) => f.event === 'pusher:pong').length).toBe(pongs + 1);
}

/** The HTTP status an upgrade got (undefined when it was upgraded). */
function upgradeStatus(path: string): Promise<number | undefined> {
  const ws = new WebSocket(`ws://127.0.0.1:${fixture.port}${path}`);
  return new Promise((resolve) => {
    ws.on('unexpected-response', (_request, response) => resolve(response.statusCode));
    ws.on('open', () => {
      ws.close();
      resolve(undefined);
    });
    ws.on('error', () => undefined);
  });
}

describe('the transport as the last line of defence', () => {
  it('keeps a socket open when the engine throws on its frame, reports it, and keeps serving everyone', async () => {
    const start = reported.length;
    const victim = await connectClient(fixture.port);
    const bystander = await connectClient(fixture.port);
    victim.ws.send(JSON.stringify({ event: 'boom', data: {} }));
    await expect.poll(() => reportsSince(start)).toEqual([{ message: 'message bug', where: 'message' }]);
    await pong(victim);
    await pong(bystander);
    expect(victim.ws.readyState).toBe(WebSocket.OPEN);
    victim.ws.close();
    bystander.ws.close();
  });

  it('closes with 1011 a socket the engine threw on while opening, and reports it', async () => {
    const start = reported.length;
    const ws = new WebSocket(`ws://127.0.0.1:${fixture.port}/app/key?protocol=666`);
    const code = await new Promise<number>((resolve) => ws.on('close', (closeCode) => resolve(closeCode)));
    expect(code).toBe(1011);
    expect(reportsSince(start)).toEqual([{ message: 'open bug', where: 'open' }]);
    await pong(await connectClient(fixture.port));
  });

  it('answers 500 to an upgrade whose app lookup throws or rejects, and reports it', async () => {
    const start = reported.length;
    expect(await upgradeStatus('/app/find-throws')).toBe(500);
    expect(await upgradeStatus('/app/find-rejects')).toBe(500);
    expect(reportsSince(start)).toEqual([
      { message: 'findApp bug', where: 'upgrade' },
      { message: 'findApp async bug', where: 'upgrade' },
    ]);
    expect(await upgradeStatus('/app/key')).toBeUndefined();
  });

  it('reports an exception from the engine on close', async () => {
    const start = reported.length;
    const client = await connectClient(fixture.port);
    client.ws.send('arm-close-bug');
    await expect.poll(() => engine.closeThrowsFor.size).toBeGreaterThan(0);
    client.ws.close();
    await expect.poll(() => reportsSince(start)).toEqual([{ message: 'close bug', where: 'close' }]);
    await pong(await connectClient(fixture.port));
  });

  it('answers 500 when a fetch or plain handler throws synchronously, reports it, and keeps serving', async () => {
    const start = reported.length;
    for (const path of ['/fetch-throws', '/plain-throws']) {
      const answer = await rawRequest(fixture.port, `GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`);
      expect(answer.status, path).toBe(500);
      expect(JSON.parse(answer.body)).toEqual({ error: 'Internal server error.', code: 500 });
    }
    expect(reportsSince(start)).toEqual([
      { message: 'fetch bug', where: 'http' },
      { message: 'plain bug', where: 'http' },
    ]);
    expect((await rawRequest(fixture.port, 'GET /ok HTTP/1.1\r\nHost: x\r\n\r\n')).body).toBe('fine');
    expect(fixture.transport.inFlightRequests).toBe(0);
  });
});

describe('hooks that throw', () => {
  it('survives an onError and an onRefused that throw', async () => {
    const broken = await startTransport({
      maxPayloadLength: 256,
      onError: () => {
        throw new Error('reporter bug');
      },
      onRefused: () => {
        throw new Error('metrics bug');
      },
      fetch: () => new Response('fine'),
    });
    try {
      const client = await connectClient(broken.port);
      client.ws.send('x'.repeat(300));
      expect((await client.closed).code).toBe(1009);
      const answer = await rawRequest(broken.port, `POST /x HTTP/1.1\r\nHost: x\r\nContent-Length: 200000\r\n\r\n`);
      expect(answer.status).toBe(413);
      await pong(await connectClient(broken.port));
    } finally {
      await broken.close();
    }
  });
});
