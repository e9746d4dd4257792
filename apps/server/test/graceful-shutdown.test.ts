import { describe, expect, it } from 'vitest';
import { daemonConfig, testApp } from './helpers/apps.js';
import { connected, pusherClient, subscribed } from './helpers/clients.js';
import { startDaemon } from './helpers/daemon.js';
import { connectRaw } from './helpers/raw-socket.js';
import { waitFor } from './helpers/wait.js';

const app = testApp('shutdown');

describe('graceful shutdown', () => {
  it('on SIGTERM tells a connected pusher-js client to reconnect (4200) and exits 0 within a few seconds', async () => {
    const daemon = await startDaemon(daemonConfig([app]));
    const client = pusherClient(daemon, app);
    await subscribed(client, 'private-live');
    const codes: number[] = [];
    client.connection.bind('error', (error: { data?: { code?: number } }) => {
      if (error.data?.code !== undefined) codes.push(error.data.code);
    });
    const { socket } = await connectRaw(daemon, app.key);

    const signalledAt = Date.now();
    const exit = daemon.stop();
    expect(await socket.next('pusher:error')).toEqual({ event: 'pusher:error', data: { code: 4200, message: expect.any(String) } });
    expect((await socket.closedWithin()).code).toBe(4200);
    await waitFor(() => (codes.includes(4200) ? true : undefined), 'pusher-js to receive 4200');
    expect(await exit).toBe(0);
    expect(Date.now() - signalledAt).toBeLessThan(5_000);
    expect(daemon.output.join('\n')).toMatch(/"msg":"stopped"/);
    client.disconnect();
  });

  it('on SIGINT exits 0 too, and the port no longer accepts connections', async () => {
    const daemon = await startDaemon(daemonConfig([app]));
    const client = pusherClient(daemon, app);
    await connected(client);
    client.disconnect();
    process.kill(daemon.pid, 'SIGINT');
    expect(await daemon.exited).toBe(0);
    await expect(fetch(`${daemon.httpUrl}/up`)).rejects.toThrow();
  });

  it('exits 1 with a message naming the key when the config is invalid', async () => {
    await expect(startDaemon({ applications: [{ ...app, max_connections: -1 }] }, { startTimeoutMs: 5_000 })).rejects.toThrow(/max_connections/);
  });
});
