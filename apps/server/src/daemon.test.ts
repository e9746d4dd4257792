import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import PusherServer from 'pusher';
import Pusher from 'pusher-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';

const bin = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const app = { id: 'app1', key: 'key1', secret: 'secret1' };
let child: ChildProcess;
let port: number;
const output: string[] = [];

/** Starts the built daemon as a real process and waits for its "listening" line. */
function startDaemon(config: object, extraArgs: string[] = []): Promise<{ child: ChildProcess; port: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'realtime-daemon-'));
  const configFile = join(dir, 'config.json');
  writeFileSync(configFile, JSON.stringify(config));
  const proc = spawn(process.execPath, [bin, 'server', '--config', configFile, '--host', '127.0.0.1', '--port', '0', ...extraArgs], {
    env: { ...process.env, REALTIME_RUN_DIR: dir, REDIS_URL: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    proc.stdout!.on('data', (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n').filter(Boolean)) {
        output.push(line);
        const match = /"port":(\d+),"path"/.exec(line);
        if (match) resolve({ child: proc, port: Number(match[1]) });
      }
    });
    proc.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    proc.once('exit', (code) => reject(new Error(`daemon exited with ${code}: ${output.join('\n')}`)));
  });
}

function client(): Pusher {
  const server = backend();
  return new Pusher(app.key, {
    wsHost: '127.0.0.1',
    wsPort: port,
    forceTLS: false,
    enabledTransports: ['ws'],
    cluster: 'local',
    channelAuthorization: {
      endpoint: '',
      transport: 'ajax',
      customHandler: ({ socketId, channelName }, callback) =>
        callback(null, channelName.startsWith('presence-')
          ? server.authorizeChannel(socketId, channelName, { user_id: 'u1', user_info: { name: 'Ann' } })
          : server.authorizeChannel(socketId, channelName)),
    },
    userAuthentication: {
      endpoint: '',
      transport: 'ajax',
      customHandler: ({ socketId }, callback) => callback(null, server.authenticateUser(socketId, { id: 'u1' })),
    },
  });
}

function backend(): PusherServer {
  return new PusherServer({ appId: app.id, key: app.key, secret: app.secret, host: '127.0.0.1', port: String(port), useTLS: false });
}

beforeAll(async () => {
  ({ child, port } = await startDaemon({ applications: [{ ...app, max_connections: 20 }] }));
});

afterAll(() => {
  if (child.exitCode === null) child.kill('SIGKILL');
});

describe('the daemon with pusher-js and the pusher SDK', () => {
  it('delivers events triggered through the HTTP API to public, private and presence subscribers', async () => {
    const pusher = client();
    const received: [string, unknown][] = [];
    for (const name of ['news', 'private-orders', 'presence-room']) {
      const channel = pusher.subscribe(name);
      channel.bind('update', (data: unknown) => received.push([name, data]));
    }
    await expect.poll(() => ['news', 'private-orders', 'presence-room'].every((name) => pusher.channel(name)?.subscribed)).toBe(true);
    await backend().trigger(['news', 'private-orders', 'presence-room'], 'update', { n: 1 });
    await expect.poll(() => received.length).toBe(3);
    expect(received).toEqual([['news', { n: 1 }], ['private-orders', { n: 1 }], ['presence-room', { n: 1 }]]);
    pusher.disconnect();
  });

  it('reports channels, presence users and connections through the SDK', async () => {
    const pusher = client();
    pusher.subscribe('presence-lobby');
    await expect.poll(() => pusher.channel('presence-lobby')?.subscribed).toBe(true);
    const sdk = backend();
    const users = await (await sdk.get({ path: '/channels/presence-lobby/users' })).json();
    expect(users).toEqual({ users: [{ id: 'u1' }] });
    const channels = await (await sdk.get({ path: '/channels', params: { filter_by_prefix: 'presence-', info: 'user_count' } })).json();
    expect(channels.channels['presence-lobby']).toEqual({ user_count: 1 });
    pusher.disconnect();
  });

  it('signs a user in and delivers sendToUser events to that user', async () => {
    const pusher = client();
    const received: unknown[] = [];
    pusher.signin();
    pusher.user.bind('direct', (data: unknown) => received.push(data));
    await expect.poll(() => pusher.user.user_data?.id).toBe('u1');
    await new Promise((resolve) => setTimeout(resolve, 100));
    await backend().sendToUser('u1', 'direct', { hi: true });
    await expect.poll(() => received).toEqual([{ hi: true }]);
    pusher.disconnect();
  });

  it('answers an unknown app key with pusher:error 4001 and closes with 4001', async () => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/app/nope?protocol=7`);
    const frames: string[] = [];
    ws.on('message', (data) => frames.push(data.toString()));
    const code = await new Promise<number>((resolve) => ws.on('close', resolve));
    expect(code).toBe(4001);
    expect(JSON.parse(frames[0]!)).toEqual({ event: 'pusher:error', data: { code: 4001, message: 'App key nope does not exist.' } });
  });

  it('answers HTTP API errors with real statuses and JSON bodies', async () => {
    const unsigned = await fetch(`http://127.0.0.1:${port}/apps/${app.id}/channels`);
    expect(unsigned.status).toBe(401);
    expect(await unsigned.json()).toMatchObject({ code: 401 });
    const unknownApp = await fetch(`http://127.0.0.1:${port}/apps/nope/channels`);
    expect(unknownApp.status).toBe(404);
    const bearer = await fetch(`http://127.0.0.1:${port}/apps/${app.id}/events`, {
      method: 'POST',
      headers: { authorization: `Bearer ${app.secret}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'e', data: 'x'.repeat(10_001), channel: 'news' }),
    });
    expect(bearer.status).toBe(413);
  });

  it('serves /up, /pusher/health and Prometheus metrics', async () => {
    expect((await fetch(`http://127.0.0.1:${port}/up`)).status).toBe(200);
    expect((await fetch(`http://127.0.0.1:${port}/pusher/health`)).status).toBe(200);
    const metrics = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    expect(metrics).toMatch(/realtime_connections_opened_total\{app_id="app1"\} \d+/);
    expect(metrics).toMatch(/realtime_http_requests_total\{app_id="app1",method="GET",status="401"\} 1/);
  });

  it('never logs the app secret', () => {
    expect(output.join('\n')).not.toContain(app.secret);
  });

  it('on SIGTERM tells connected clients to reconnect (4200) and exits 0', async () => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/app/${app.key}?protocol=7`);
    const frames: string[] = [];
    ws.on('message', (data) => frames.push(data.toString()));
    await expect.poll(() => frames.length).toBe(1);
    const closed = new Promise<number>((resolve) => ws.on('close', resolve));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    expect(await closed).toBe(4200);
    expect(JSON.parse(frames.at(-1)!)).toMatchObject({ event: 'pusher:error', data: { code: 4200 } });
    expect(await exited).toBe(0);
  });
});
