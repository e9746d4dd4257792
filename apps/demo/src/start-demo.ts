import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import type { ServerType } from '@hono/node-server';
import { createDemoApp } from './create-demo-app.js';
import type { DemoApp } from './create-demo-app.js';
import type { DemoOptions } from './options.js';

export interface RunningDemo {
  url: string;
  port: number;
  demo: DemoApp;
  close(): Promise<void>;
}

/** Builds the demo app and serves it on options.host:options.port (0 = any free port). */
export async function startDemo(options: DemoOptions): Promise<RunningDemo> {
  const demo = await createDemoApp(options);
  const server = await new Promise<ServerType>((resolve, reject) => {
    const started = serve({ fetch: demo.app.fetch, hostname: options.host, port: options.port }, () => resolve(started));
    started.once('error', reject);
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${options.host}:${port}`,
    port,
    demo,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Keep-alive sockets (pusher auth, open pages) would otherwise hold close() open.
        if ('closeAllConnections' in server) server.closeAllConnections();
      });
      await demo.close();
    },
  };
}
