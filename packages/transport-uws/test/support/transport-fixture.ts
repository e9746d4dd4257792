import { createApp, createStaticAppProvider, RealtimeServer, type App } from '@org/protocol';
import WebSocket from 'ws';
import { createUwsServer, type UwsServer, type UwsServerOptions } from '../../src/uws-server.js';

export interface TransportFixture {
  app: App;
  engine: RealtimeServer;
  transport: UwsServer;
  port: number;
  close(): Promise<void>;
}

/** A real engine on a real uWS server on 127.0.0.1, a free port; `engine` replaces the default one. */
export async function startTransport(options: Partial<UwsServerOptions> & { engine?: RealtimeServer; app?: App } = {}): Promise<TransportFixture> {
  const app = options.app ?? createApp({ id: '1', key: 'key', secret: 'secret' });
  const engine = options.engine ?? new RealtimeServer({ apps: createStaticAppProvider([app]) });
  const transport = await createUwsServer({ host: '127.0.0.1', port: 0, ...options, server: engine });
  await engine.start();
  const port = await transport.listen();
  return {
    app,
    engine,
    transport,
    port,
    async close() {
      transport.stopListening();
      await engine.stop();
      // Idle keep-alive connections would otherwise outlive the test's server.
      transport.close();
    },
  };
}

interface Frame {
  event: string;
  channel?: string;
  data?: unknown;
}

export interface TestClient {
  ws: WebSocket;
  frames: Frame[];
  /** The close code and reason the client saw. */
  closed: Promise<{ code: number; reason: string }>;
}

/** A raw `ws` client, connected and past `pusher:connection_established`. */
export async function connectClient(port: number, path = '/app/key?protocol=7'): Promise<TestClient> {
  const ws = new WebSocket(`ws://127.0.0.1:${port}${path}`);
  const frames: Frame[] = [];
  const closed = new Promise<{ code: number; reason: string }>((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
  ws.on('message', (data: Buffer) => frames.push(JSON.parse(data.toString()) as Frame));
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  await new Promise<void>((resolve, reject) => {
    const givenUp = Date.now() + 5_000;
    const check = setInterval(() => {
      if (frames.length === 0 && Date.now() < givenUp) return;
      clearInterval(check);
      if (frames[0]?.event === 'pusher:connection_established') resolve();
      else reject(new Error(`expected connection_established, got ${JSON.stringify(frames[0])}`));
    }, 5);
  });
  return { ws, frames, closed };
}
