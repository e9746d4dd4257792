import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Endpoint } from '../load/pusher-client.js';
import { benchApp } from '../load/signing.js';
import { collectOutput, cpuSeconds, freePort, rssBytes, spawnPinned, stopProcess, waitForPort } from './processes.js';

/** What a scenario runs against. */
export type TargetKind = 'ceiling' | 'daemon' | 'daemon-2-nodes';

export interface RunningTarget {
  readonly kind: TargetKind;
  /** One endpoint per node (two for `daemon-2-nodes`). */
  readonly nodes: Endpoint[];
  /** Server process ids, one per node. */
  readonly pids: number[];
  /** Resident memory of the server process(es), bytes. */
  rss(): number;
  /** CPU seconds used so far by the server process(es). */
  cpu(): number;
  stop(): Promise<void>;
}

export interface TargetOptions {
  /** CPU to pin the server to; undefined = no pinning. */
  cpu: number | undefined;
  /** Write V8 CPU profiles of the daemon here (`node --cpu-prof`). */
  profileDir?: string | undefined;
  /** Redis for `daemon-2-nodes`. */
  redisUrl?: string | undefined;
  /** Its PID when we run it: its CPU counts as the two-node deployment's server CPU. */
  redisPid?: number | undefined;
  /** `server --workers N` for every daemon (default: the daemon's own default, 1). */
  workers?: number | undefined;
  /** How many daemons `daemon-2-nodes` starts over Redis (`--nodes`; default 2). */
  nodes?: number | undefined;
}

const host = '127.0.0.1';

/** The built daemon of this repository (apps/server/dist/bin.js). */
export function daemonBin(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('@org/realtime-server/package.json')), 'dist', 'bin.js');
}

/** The built ceiling server: next to this module once bundled (bench/dist), or bench/dist seen from src/targets. */
function ceilingBin(): string {
  const bundled = fileURLToPath(new URL('./ceiling-bin.js', import.meta.url));
  return existsSync(bundled) ? bundled : fileURLToPath(new URL('../../dist/ceiling-bin.js', import.meta.url));
}

/** Limits high enough that only speed, never a quota, decides the result. */
function daemonConfig(port: number): object {
  return {
    servers: { main: { host, port, activity_timeout: 3600, max_request_size: 100_000 } },
    applications: [
      {
        ...benchApp,
        max_connections: 1_000_000,
        enable_client_messages: true,
        max_client_events_per_second: 1_000_000,
        max_frames_per_second: 1_000_000,
        max_channels_per_connection: 1_000_000,
        max_presence_members: 10_000,
        max_message_size: 10_000,
      },
    ],
  };
}

/** Variables that would override the config file. */
const overridingEnv = ['REDIS_URL', 'REALTIME_CONFIG', 'REALTIME_HOST', 'REALTIME_PORT', 'REALTIME_PATH', 'REALTIME_APP_ID', 'REALTIME_APP_KEY', 'REALTIME_APP_SECRET', 'REALTIME_DEBUG'];

async function startDaemonNode(options: TargetOptions, redisUrl: string | undefined) {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'bench-daemon-'));
  const configFile = join(dir, 'config.json');
  writeFileSync(configFile, JSON.stringify(daemonConfig(port)));
  const env: NodeJS.ProcessEnv = { ...process.env, REALTIME_RUN_DIR: dir };
  for (const name of overridingEnv) delete env[name];
  if (redisUrl) env['REDIS_URL'] = redisUrl;
  const nodeArgs = options.profileDir ? ['--cpu-prof', `--cpu-prof-dir=${options.profileDir}`] : [];
  const workers = options.workers === undefined ? [] : ['--workers', String(options.workers)];
  const child = spawnPinned(options.cpu, process.execPath, [...nodeArgs, daemonBin(), 'server', '--config', configFile, '--host', host, '--port', String(port), ...workers], env);
  await listeningOrStopped(child, port);
  return {
    endpoint: { host, port },
    child,
    async stop() {
      await stopProcess(child, 8_000);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function startDaemon(options: TargetOptions): Promise<RunningTarget> {
  const node = await startDaemonNode(options, undefined);
  const pid = node.child.pid!;
  return { kind: 'daemon', nodes: [node.endpoint], pids: [pid], rss: () => rssBytes(pid), cpu: () => cpuSeconds(pid), stop: () => node.stop() };
}

/** Two (or `options.nodes`) daemons sharing Redis (scaling on through REDIS_URL), all on the server CPU; `cpu()` includes our Redis. */
async function startDaemonPair(options: TargetOptions): Promise<RunningTarget> {
  if (!options.redisUrl) throw new Error('daemon-2-nodes needs a Redis URL');
  const started: Awaited<ReturnType<typeof startDaemonNode>>[] = [];
  try {
    for (let i = 0; i < (options.nodes ?? 2); i++) started.push(await startDaemonNode(options, options.redisUrl));
  } catch (error) {
    await Promise.all(started.map((node) => node.stop()));
    throw error;
  }
  const pids = started.map((node) => node.child.pid!);
  const cpuPids = options.redisPid ? [...pids, options.redisPid] : pids;
  return {
    kind: 'daemon-2-nodes',
    nodes: started.map((node) => node.endpoint),
    pids,
    rss: () => pids.reduce((sum, pid) => sum + rssBytes(pid), 0),
    cpu: () => cpuPids.reduce((sum, pid) => sum + cpuSeconds(pid), 0),
    stop: async () => {
      await Promise.all(started.map((node) => node.stop()));
    },
  };
}

/** Waits until the started process listens on `port`; if it never does, stops it and rethrows. */
async function listeningOrStopped(child: ChildProcess, port: number): Promise<void> {
  try {
    await waitForPort(port, child, collectOutput(child));
  } catch (error) {
    await stopProcess(child);
    throw error;
  }
}

async function startCeiling(options: TargetOptions): Promise<RunningTarget> {
  const port = await freePort();
  const child = spawnPinned(options.cpu, process.execPath, [ceilingBin(), String(port)], process.env);
  await listeningOrStopped(child, port);
  const pid = child.pid!;
  return { kind: 'ceiling', nodes: [{ host, port }], pids: [pid], rss: () => rssBytes(pid), cpu: () => cpuSeconds(pid), stop: () => stopProcess(child) };
}

export function startTarget(kind: TargetKind, options: TargetOptions): Promise<RunningTarget> {
  switch (kind) {
    case 'ceiling':
      return startCeiling(options);
    case 'daemon':
      return startDaemon(options);
    case 'daemon-2-nodes':
      return startDaemonPair(options);
  }
}
