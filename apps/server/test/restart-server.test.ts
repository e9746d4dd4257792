import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { daemonConfig, testApp } from './helpers/apps.js';
import { backend, connected, pusherClient, subscribed } from './helpers/clients.js';
import { daemonBin, freePort, startDaemon, type RunningDaemon } from './helpers/daemon.js';
import { connectRaw } from './helpers/raw-socket.js';
import { waitFor } from './helpers/wait.js';

const app = testApp('restart');
let daemon: RunningDaemon;

beforeAll(async () => {
  daemon = await startDaemon(daemonConfig([app]), { port: await freePort() });
});

/** Runs `node dist/bin.js restart_server` against this daemon's run dir only. */
function restartServer(runDir: string): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [daemonBin, 'restart_server'], {
      // REDIS_URL would turn scaling on and send the restart through Redis instead of the run dir.
      env: { ...process.env, REDIS_URL: '', REALTIME_RUN_DIR: runDir },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, stdout }));
  });
}

function countLines(pattern: RegExp): number {
  return daemon.output.filter((line) => pattern.test(line)).length;
}

describe('restart_server', () => {
  it('restarts the daemon gracefully; pusher-js reconnects by itself and receives a later event', async () => {
    const client = pusherClient(daemon, app);
    const channel = await subscribed(client, 'private-after-restart');
    const firstSocketId = client.connection.socket_id;
    const received: unknown[] = [];
    channel.bind('later', (data: unknown) => received.push(data));
    const codes: number[] = [];
    client.connection.bind('error', (error: { data?: { code?: number } }) => {
      if (error.data?.code !== undefined) codes.push(error.data.code);
    });

    const result = await restartServer(daemon.dir);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`Asked 1 server(s) to restart: ${daemon.pid}`);
    await daemon.waitForLog((line) => line['msg'] === 'server restarted');

    await waitFor(() => (codes.includes(4200) ? true : undefined), 'pusher-js to be told 4200');
    // 4200 makes pusher-js reconnect at once, and the restarted server already holds the port.
    await waitFor(() => (client.connection.state === 'connected' && client.connection.socket_id !== firstSocketId ? true : undefined), 'pusher-js to reconnect', 5_000);
    // pusher-js re-subscribes on its own; wait for the daemon to know the channel again.
    const sdk = backend(daemon, app);
    await expect
      .poll(async () => ((await (await sdk.get({ path: '/channels/private-after-restart' })).json()) as { occupied: boolean }).occupied, { timeout: 5_000 })
      .toBe(true);
    await sdk.trigger('private-after-restart', 'later', { after: 'restart' });
    await waitFor(() => received[0], 'the event after the restart');
    expect(received).toEqual([{ after: 'restart' }]);
    expect(daemon.process.exitCode).toBeNull();
  }, 40_000);

  it('accepts the reconnect that pusher:error 4200 asks for right away (the port must not be closed while clients are told to reconnect)', async () => {
    const { socket } = await connectRaw(daemon, app.key);
    const restarted = countLines(/"msg":"server restarted"/);
    expect((await restartServer(daemon.dir)).code).toBe(0);
    expect((await socket.next('pusher:error')).data).toMatchObject({ code: 4200 });
    // What pusher-js does on 4200: reconnect at once.
    const immediate = await connectRaw(daemon, app.key).then(
      ({ socketId }) => socketId,
      (error: Error) => `refused: ${error.message}`,
    );
    await waitFor(() => (countLines(/"msg":"server restarted"/) > restarted ? true : undefined), 'the restart to finish');
    expect(immediate).toMatch(/^\d+\.\d+$/);
  });

  it('keeps the running server when the new configuration is invalid', async () => {
    writeFileSync(join(daemon.dir, 'config.json'), '{ not json');
    const aborted = countLines(/restart aborted/);
    expect((await restartServer(daemon.dir)).code).toBe(0);
    await waitFor(() => (countLines(/restart aborted/) > aborted ? true : undefined), 'the restart to be refused');
    const client = pusherClient(daemon, app);
    expect(await connected(client)).toMatch(/^\d+\.\d+$/);
    expect((await fetch(`${daemon.httpUrl}/up`)).status).toBe(200);
  });

  it('reports when no server is registered in the run dir', async () => {
    const result = await restartServer(join(daemon.dir, 'empty'));
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('No running server found');
  });

  it('still stops on a SIGTERM that arrives in the middle of a restart', async () => {
    const own = await startDaemon(daemonConfig([app]), { port: await freePort() });
    await own.waitForLog((line) => line.msg === 'server started'); // signal handlers are installed by then
    process.kill(own.pid, 'SIGHUP');
    await own.waitForLog((line) => line.msg === 'restarting');
    process.kill(own.pid, 'SIGTERM');
    expect(await own.exited).toBe(0);
    expect(own.output.join('\n')).toMatch(/"msg":"shutting down"/);
    await expect(fetch(`${own.httpUrl}/up`)).rejects.toThrow();
  });
});
