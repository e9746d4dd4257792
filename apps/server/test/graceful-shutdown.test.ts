import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { daemonConfig, testApp } from './helpers/apps.js';
import { connected, pusherClient, subscribed } from './helpers/clients.js';
import { startDaemon } from './helpers/daemon.js';
import { connectRaw } from './helpers/raw-socket.js';
import { signedQuery } from './helpers/signed-request.js';
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

  it('finishes an HTTP API request that is in flight when SIGTERM arrives, then exits 0', async () => {
    const daemon = await startDaemon(daemonConfig([app]));
    const body = JSON.stringify({ name: 'late', channel: 'news', data: '{}' });
    const path = `/apps/${app.id}/events`;
    const tcp = connect(daemon.port, '127.0.0.1');
    await new Promise((resolve) => tcp.once('connect', resolve));
    let answer = '';
    tcp.on('data', (chunk: Buffer) => (answer += chunk.toString()));
    const ended = new Promise((resolve) => tcp.once('close', resolve));
    // Headers and half of the body now; the rest only after the daemon was told to stop.
    tcp.write(
      `POST ${path}?${signedQuery(app, { method: 'POST', path, body })} HTTP/1.1\r\nHost: 127.0.0.1\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body.slice(0, 10)}`,
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    const exit = daemon.stop();
    await new Promise((resolve) => setTimeout(resolve, 300));
    tcp.write(body.slice(10));
    await ended;
    expect(answer).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(answer.endsWith('{}')).toBe(true);
    expect(await exit).toBe(0);
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
