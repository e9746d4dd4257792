import { createApp, createStaticAppProvider, RealtimeServer } from '@org/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { createUwsServer, type UwsServer } from './uws-server.js';

const app = createApp({ id: '1', key: 'key', secret: 'secret' });
const listening: UwsServer[] = [];
afterEach(() => listening.splice(0).forEach((server) => server.stopListening()));

async function server(reusePort?: boolean): Promise<UwsServer> {
  const engine = new RealtimeServer({ apps: createStaticAppProvider([app]) });
  const transport = await createUwsServer({ server: engine, host: '127.0.0.1', port: 0, ...(reusePort === undefined ? {} : { reusePort }) });
  listening.push(transport);
  return transport;
}

describe('a port already listened on', () => {
  it('is refused to a second server by default, which would otherwise take a share of the first one\'s clients', async () => {
    const port = await (await server()).listen();
    await expect((await server()).listen(port)).rejects.toThrow(`could not listen on 127.0.0.1:${port}`);
  });

  it('is shared when both servers ask for reusePort (worker threads of one server)', async () => {
    const port = await (await server(true)).listen();
    await expect((await server(true)).listen(port)).resolves.toBe(port);
  });

  it('can be listened on again by the next server once the first stopped listening (a graceful restart)', async () => {
    const first = await server();
    const port = await first.listen();
    first.stopListening();
    await expect((await server()).listen(port)).resolves.toBe(port);
  });
});
