import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { Agent, get } from 'node:http';
import { join } from 'node:path';
import PusherServer from 'pusher';
import { describe, expect, it } from 'vitest';
import { daemonConfig, testApp, type TestApp } from './helpers/apps.js';
import { backend } from './helpers/clients.js';
import { daemonBin, freePort, startDaemon, type RunningDaemon } from './helpers/daemon.js';
import { connectRaw, type RawSocket } from './helpers/raw-socket.js';
import { scalingConfig, testRedisUrl, uniqueChannel } from './helpers/redis.js';
import { signedQuery } from './helpers/signed-request.js';
import { sleep, waitFor } from './helpers/wait.js';

// `enable_debug` and the connection scope: each "connection established" line names the worker and the socket.
const app = testApp('workers', { enable_debug: true });
const workersConfig = (extra: Record<string, unknown> = {}) =>
  daemonConfig([app], { workers: 2, logging: { scopes: { 'socket.connection': true } }, ...extra });

async function startWorkers(extra: Record<string, unknown> = {}): Promise<RunningDaemon> {
  const daemon = await startDaemon(workersConfig(extra));
  await daemon.waitForLog((line) => line['msg'] === 'server started');
  return daemon;
}

/** The worker a socket landed on, from the daemon's log. */
function workerOf(daemon: RunningDaemon, socketId: string): Promise<number> {
  return daemon.waitForLog((line) => line['msg'] === 'connection established' && line['socketId'] === socketId).then((line) => line['worker'] as number);
}

interface Placed {
  socket: RawSocket;
  socketId: string;
  worker: number;
}

/**
 * One raw socket on each of the daemon's `workers` workers: connections are opened until the
 * kernel's SO_REUSEPORT hash has put one on every worker (the extra ones are closed).
 */
async function onEveryWorker(daemon: RunningDaemon, workers = 2, key = app.key): Promise<Placed[]> {
  const placed = new Map<number, Placed>();
  for (let attempt = 0; attempt < 64 && placed.size < workers; attempt++) {
    const { socket, socketId } = await connectRaw(daemon, key);
    const worker = await workerOf(daemon, socketId);
    if (placed.has(worker)) socket.close();
    else placed.set(worker, { socket, socketId, worker });
  }
  expect([...placed.keys()].sort()).toEqual(Array.from({ length: workers }, (_, index) => index));
  return [...placed.values()].sort((a, b) => a.worker - b.worker);
}

function subscribe(daemon: RunningDaemon, placed: Placed, channel: string, userId?: string): Promise<unknown> {
  const sdk = backend(daemon, app);
  if (channel.startsWith('presence-')) placed.socket.subscribe(channel, sdk.authorizeChannel(placed.socketId, channel, { user_id: userId ?? 'u1' }));
  else if (channel.startsWith('private-')) placed.socket.subscribe(channel, sdk.authorizeChannel(placed.socketId, channel));
  else placed.socket.subscribe(channel);
  return placed.socket.next((frame) => frame.event === 'pusher_internal:subscription_succeeded' && frame.channel === channel);
}

const count = (socket: RawSocket, event: string) => socket.received.filter((frame) => frame.event === event).length;

async function metricValue(daemon: RunningDaemon, series: string): Promise<number> {
  const text = await (await fetch(`${daemon.httpUrl}/metrics`)).text();
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return Number(line?.split(' ')[1]);
}

describe('server with workers: 2 (one process, the in-process hub)', () => {
  it('serves connections on both workers of one port, and a trigger reaches subscribers on both', async () => {
    const daemon = await startWorkers();
    const [first, second] = await onEveryWorker(daemon);
    await Promise.all([subscribe(daemon, first!, 'orders'), subscribe(daemon, second!, 'orders')]);
    await backend(daemon, app).trigger('orders', 'shipped', { id: 7 });
    for (const { socket } of [first!, second!]) expect(JSON.parse((await socket.next('shipped')).data as string)).toEqual({ id: 7 });

    // socket_id exclusion across workers: the sender's worker does not send it back, the other worker delivers.
    await backend(daemon, app).trigger('orders', 'noted', { n: 1 }, { socket_id: first!.socketId });
    await second!.socket.next('noted');
    await sleep(200);
    expect(count(first!.socket, 'noted')).toBe(0);

    // Counts are the whole process's: the HTTP API (answered by either worker) sees both subscriptions.
    const info = await backend(daemon, app).get({ path: '/channels/orders', params: { info: 'subscription_count' } });
    expect(await info.json()).toEqual({ occupied: true, subscription_count: 2 });
  });

  it('shares presence and client events across workers', async () => {
    const daemon = await startWorkers();
    const [alice, bob] = await onEveryWorker(daemon);
    await subscribe(daemon, alice!, 'presence-room', 'alice');
    const joined = (await subscribe(daemon, bob!, 'presence-room', 'bob')) as { data: string };
    expect(Object.keys((JSON.parse(joined.data) as { presence: { hash: object } }).presence.hash).sort()).toEqual(['alice', 'bob']);
    const added = await alice!.socket.next('pusher_internal:member_added');
    expect(JSON.parse(added.data as string)).toMatchObject({ user_id: 'bob' });

    bob!.socket.send({ event: 'client-typing', channel: 'presence-room', data: { who: 'bob' } });
    expect(await alice!.socket.next('client-typing')).toMatchObject({ event: 'client-typing', channel: 'presence-room', data: { who: 'bob' }, user_id: 'bob' });
    await sleep(200);
    expect(count(bob!.socket, 'client-typing')).toBe(0);

    bob!.socket.close();
    const removed = await alice!.socket.next('pusher_internal:member_removed');
    expect(JSON.parse(removed.data as string)).toEqual({ user_id: 'bob' });
  });

  it('answers /metrics with the sum over workers, the process metrics once and realtime_workers', async () => {
    const daemon = await startWorkers();
    const placed = await onEveryWorker(daemon);
    expect(await metricValue(daemon, `realtime_connections{app_id="${app.id}"}`)).toBe(placed.length);
    expect(await metricValue(daemon, 'realtime_workers')).toBe(2);
    const text = await (await fetch(`${daemon.httpUrl}/metrics`)).text();
    expect(text.match(/^realtime_process_cpu_seconds_total /gm)).toHaveLength(1);
  });

  it('restarts every worker on SIGHUP (clients told 4200, new connections served) and drains every worker on SIGTERM', async () => {
    const daemon = await startWorkers();
    const before = await onEveryWorker(daemon);
    process.kill(daemon.pid, 'SIGHUP');
    for (const { socket } of before) expect((await socket.closedWithin(10_000)).code).toBe(4200);
    await daemon.waitForLog((line) => line['msg'] === 'server restarted');
    const after = await onEveryWorker(daemon);
    await Promise.all(after.map((placed) => subscribe(daemon, placed, 'after-restart')));
    await backend(daemon, app).trigger('after-restart', 'hello', {});
    for (const { socket } of after) await socket.next('hello');

    const pidFile = join(daemon.dir, `${daemon.port}.pid`);
    expect(existsSync(pidFile)).toBe(true);
    const exit = daemon.stop();
    for (const { socket } of after) expect((await socket.closedWithin(10_000)).code).toBe(4200);
    expect(await exit).toBe(0);
    expect(existsSync(pidFile)).toBe(false);
    expect(daemon.output.filter((line) => line.includes('"msg":"stopped"'))).toHaveLength(4);
  });

  it('exits 70 after draining every worker when one worker hits an unexpected error', async () => {
    const daemon = await startDaemon(workersConfig(), { env: { REALTIME_TEST_CRASH_WORKER: '1' } });
    await daemon.waitForLog((line) => line['msg'] === 'server started');
    const placed = await onEveryWorker(daemon);
    // SIGUSR2 reaches the main thread, which makes worker 0 throw from a timer.
    process.kill(daemon.pid, 'SIGUSR2');
    for (const { socket } of placed) expect((await socket.closedWithin(10_000)).code).toBe(4200);
    expect(await daemon.exited).toBe(70);
    expect(daemon.output.join('\n')).toMatch(/"msg":"unexpected exception.*worker 0: test crash|worker 0: test crash.*"msg":"unexpected exception/);
  });
});

describe('server with workers: 2 and local rate limits', () => {
  /** A signed GET on a connection of its own (no keep-alive), so the kernel spreads the requests over both workers. */
  const readOnNewConnection = (daemon: RunningDaemon, limited: TestApp) =>
    new Promise<number>((resolve, reject) => {
      const path = `/apps/${limited.id}/channels`;
      get(`${daemon.httpUrl}${path}?${signedQuery(limited, { method: 'GET', path })}`, { agent: false }, (response) => {
        response.resume();
        response.once('end', () => resolve(response.statusCode ?? 0));
      }).once('error', reject);
    });

  it('holds a limit for the whole process, not once per worker (driver local)', async () => {
    const limited = testApp('workers-limited', { max_read_requests_per_second: 3 });
    const daemon = await startDaemon(daemonConfig([limited], { workers: 2, rate_limiter: { enabled: true, driver: 'local' } }));
    await daemon.waitForLog((line) => line['msg'] === 'server started');
    // A window lasts a second from its first request: a burst that took longer is sent again after a fresh window.
    let refused = 0;
    for (let attempt = 1; ; attempt++) {
      const started = Date.now();
      const statuses = await Promise.all(Array.from({ length: 16 }, () => readOnNewConnection(daemon, limited)));
      refused += statuses.filter((status) => status === 429).length;
      if (Date.now() - started < 900 || attempt === 3) {
        expect(statuses.filter((status) => status === 200)).toHaveLength(3);
        expect(statuses.filter((status) => status === 429)).toHaveLength(13);
        break;
      }
      await sleep(1_100);
    }
    expect(await metricValue(daemon, `realtime_rate_limited_total{app_id="${limited.id}",kind="read"}`)).toBe(refused);
  });
});

/** `server` on `port` with the config of `daemon`, run until it exits: its exit code and output. */
function secondServer(daemon: RunningDaemon, workers: number): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, [daemonBin, 'server', '--config', daemon.configFile, '--host', '127.0.0.1', '--port', String(daemon.port), '--workers', String(workers)], {
    env: { ...process.env, REALTIME_RUN_DIR: daemon.dir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  return new Promise((resolve) =>
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    }),
  );
}

describe('server with workers: the port is this process\'s alone', () => {
  it('refuses a second --workers server on the same port (exit 1, "could not listen"), and a lone one too', async () => {
    const daemon = await startWorkers();
    const second = await secondServer(daemon, 3);
    expect(second.code).toBe(1);
    expect(second.output).toContain(`could not listen on 127.0.0.1:${daemon.port}`);
    const lone = await secondServer(daemon, 1);
    expect(lone.code).toBe(1);
    expect(lone.output).toContain(`could not listen on 127.0.0.1:${daemon.port}`);
    // The first one still serves.
    const [first] = await onEveryWorker(daemon);
    await subscribe(daemon, first!, 'still');
    await backend(daemon, app).trigger('still', 'here', {});
    await first!.socket.next('here');
  });

  it('keeps the port across SIGHUP (a second server is still refused after a restart)', async () => {
    const daemon = await startDaemon(workersConfig(), { port: await freePort() });
    await daemon.waitForLog((line) => line['msg'] === 'server started');
    process.kill(daemon.pid, 'SIGHUP');
    await daemon.waitForLog((line) => line['msg'] === 'server restarted');
    const second = await secondServer(daemon, 2);
    expect(second.code).toBe(1);
    expect(second.output).toContain(`could not listen on 127.0.0.1:${daemon.port}`);
  });
});

describe('server: SIGHUP with a changed worker count', () => {
  const setWorkers = (daemon: RunningDaemon, workers: number) => {
    const config = JSON.parse(readFileSync(daemon.configFile, 'utf8')) as Record<string, unknown>;
    writeFileSync(daemon.configFile, JSON.stringify({ ...config, workers }));
  };
  const restarted = async (daemon: RunningDaemon, nth: number) => {
    await waitFor(() => (daemon.output.filter((line) => line.includes('"msg":"server restarted"')).length >= nth ? true : undefined), `restart ${nth}`);
    expect(daemon.output.join('\n')).not.toContain('restart aborted');
  };

  it('goes from 2 workers to 1 and back to 2, serving after each restart', async () => {
    const daemon = await startDaemon(workersConfig(), { port: await freePort() });
    await daemon.waitForLog((line) => line['msg'] === 'server started');
    setWorkers(daemon, 1);
    process.kill(daemon.pid, 'SIGHUP');
    await restarted(daemon, 1);
    expect(await metricValue(daemon, 'realtime_workers')).toBe(1);
    setWorkers(daemon, 2);
    process.kill(daemon.pid, 'SIGHUP');
    await restarted(daemon, 2);
    expect(await metricValue(daemon, 'realtime_workers')).toBe(2);
    const placed = await onEveryWorker(daemon);
    await Promise.all(placed.map((one) => subscribe(daemon, one, 'switched')));
    await backend(daemon, app).trigger('switched', 'ok', {});
    for (const { socket } of placed) await socket.next('ok');
  });
});

describe('server (one daemon): SIGHUP and keep-alive HTTP connections', () => {
  it('does not leave a keep-alive connection on the stopped daemon (its trigger reaches the new one\'s subscribers)', async () => {
    const daemon = await startDaemon(daemonConfig([app]), { port: await freePort() });
    // One keep-alive connection (maxSockets 1): the trigger after the restart goes over it if it is still open.
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const sdk = new PusherServer({ appId: app.id, key: app.key, secret: app.secret, host: '127.0.0.1', port: String(daemon.port), useTLS: false, agent });
    await sdk.trigger('keep', 'warm', {});
    process.kill(daemon.pid, 'SIGHUP');
    await daemon.waitForLog((line) => line['msg'] === 'server restarted');
    await sleep(200);
    const { socket } = await connectRaw(daemon, app.key);
    socket.subscribe('keep');
    await socket.next((frame) => frame.event === 'pusher_internal:subscription_succeeded');
    await sdk.trigger('keep', 'after', {}).catch(() => sdk.trigger('keep', 'after', {}));
    await socket.next('after');
    agent.destroy();
  });
});

const redisUrl = await testRedisUrl();

describe.skipIf(!redisUrl)('server with workers: 2 on Redis (each worker a node)', () => {
  it('joins 2 processes x 2 workers as 4 nodes that deliver to each other', async () => {
    const deployment = scalingConfig(redisUrl!, uniqueChannel('workers'));
    const daemons = await Promise.all([startWorkers(deployment), startWorkers(deployment)]);
    const nodes = daemons.flatMap((daemon) => daemon.output.filter((line) => line.includes('"msg":"scaling over Redis"')).map((line) => (JSON.parse(line) as { node: string }).node));
    expect(new Set(nodes).size).toBe(4);
    expect(nodes.every((node) => /-w[01]$/.test(node))).toBe(true);

    const placed: { daemon: RunningDaemon; placed: Placed }[] = [];
    for (const daemon of daemons) for (const one of await onEveryWorker(daemon)) placed.push({ daemon, placed: one });
    await Promise.all(placed.map(({ daemon, placed: one }) => subscribe(daemon, one, 'fan')));
    // Every node publishes once; every socket gets all four events (three of them from other nodes).
    for (const { daemon, placed: one } of placed) await backend(daemon, app).trigger('fan', 'from', { worker: one.worker, port: daemon.port });
    for (const { placed: one } of placed) {
      await waitFor(() => (count(one.socket, 'from') === 4 ? true : undefined), 'four events on every node');
    }
    const sdk = backend(daemons[1]!, app);
    const info = await sdk.get({ path: '/channels/fan', params: { info: 'subscription_count' } });
    expect(await info.json()).toEqual({ occupied: true, subscription_count: 4 });
  });
});

export type { TestApp };
