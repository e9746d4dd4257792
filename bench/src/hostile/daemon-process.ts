import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Endpoint } from '../load/pusher-client.js';
import { benchApp, signedPath } from '../load/signing.js';
import { collectOutput, freePort, rssBytes, spawnPinned, stopProcess, waitForPort } from '../targets/processes.js';
import { daemonBin } from '../targets/targets.js';

const host = '127.0.0.1';

export interface HostileDaemonOptions {
  /** Raise `max_channels_per_connection` and `max_frames_per_second` to 10,000,000 (the behaviour before the limits). */
  unbounded: boolean;
  /** Scaling over this Redis (`scaling.enabled` + `scaling.server.url`). */
  redisUrl: string | undefined;
  /** CPU to pin the daemon to. */
  cpu: number | undefined;
  /** Start with the V8 inspector on a loopback port, to force a GC before memory readings. */
  inspect?: boolean;
}

/** High enough that it never refuses a connection of this bench (2,100 at most at once). */
const maxConnections = 20_000;
/** What `--unbounded` sets both per-connection limits to. */
const unboundedLimit = 10_000_000;

/** One app; every other key at its default, so the limits measured are the shipped ones. */
function hostileDaemonConfig(port: number, options: Pick<HostileDaemonOptions, 'unbounded' | 'redisUrl'>): object {
  return {
    servers: { main: { host, port } },
    applications: [
      {
        ...benchApp,
        max_connections: maxConnections,
        ...(options.unbounded ? { max_channels_per_connection: unboundedLimit, max_frames_per_second: unboundedLimit } : {}),
      },
    ],
    ...(options.redisUrl ? { scaling: { enabled: true, server: { url: options.redisUrl } } } : {}),
  };
}

/** Variables that would override the config file. */
const overridingEnv = ['REDIS_URL', 'REALTIME_CONFIG', 'REALTIME_HOST', 'REALTIME_PORT', 'REALTIME_PATH', 'REALTIME_APP_ID', 'REALTIME_APP_KEY', 'REALTIME_APP_SECRET', 'REALTIME_DEBUG'];

export interface Exit {
  /** From SIGTERM to the process's exit, ms. */
  ms: number;
  code: number | null;
  signal: string | null;
}

/** The built daemon as a child process we can measure, signal and always stop by its PID. */
export class HostileDaemon {
  private constructor(
    readonly endpoint: Endpoint,
    readonly child: ChildProcess,
    readonly output: () => string,
    private readonly dir: string,
    /** The inspector's port when started with `inspect`. */
    readonly inspectPort: number | undefined,
  ) {}

  static async start(options: HostileDaemonOptions): Promise<HostileDaemon> {
    const port = await freePort();
    const dir = mkdtempSync(join(tmpdir(), 'bench-hostile-'));
    const configFile = join(dir, 'config.json');
    writeFileSync(configFile, JSON.stringify(hostileDaemonConfig(port, options)));
    const env: NodeJS.ProcessEnv = { ...process.env, REALTIME_RUN_DIR: dir };
    for (const name of overridingEnv) delete env[name];
    const inspectPort = options.inspect ? await freePort() : undefined;
    const nodeArgs = inspectPort ? [`--inspect=${host}:${inspectPort}`] : [];
    const child = spawnPinned(options.cpu, process.execPath, [...nodeArgs, daemonBin(), 'server', '--config', configFile, '--host', host, '--port', String(port)], env);
    const output = collectOutput(child);
    const daemon = new HostileDaemon({ host, port }, child, output, dir, inspectPort);
    try {
      await waitForPort(port, child, output);
    } catch (error) {
      await daemon.stop();
      throw error;
    }
    return daemon;
  }

  get pid(): number {
    return this.child.pid!;
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  rss(): number {
    return this.running ? rssBytes(this.pid) : Number.NaN;
  }

  /** A signed GET of the HTTP API, e.g. `/channels`: the body as bytes. */
  async api(path: string, timeoutMs: number): Promise<{ status: number; body: Buffer }> {
    const signed = signedPath(benchApp, 'GET', `/apps/${benchApp.id}${path}`, '');
    const response = await fetch(`http://${this.endpoint.host}:${this.endpoint.port}${signed}`, { signal: AbortSignal.timeout(timeoutMs) });
    return { status: response.status, body: Buffer.from(await response.arrayBuffer()) };
  }

  /** SIGTERM, then waits (SIGKILL after `graceMs`): how long the exit took and how it ended. */
  async terminate(graceMs: number): Promise<Exit> {
    if (!this.running) return { ms: 0, code: this.child.exitCode, signal: this.child.signalCode };
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    const from = performance.now();
    process.kill(this.pid, 'SIGTERM');
    const timer = setTimeout(() => this.running && process.kill(this.pid, 'SIGKILL'), graceMs);
    await exited;
    clearTimeout(timer);
    const ms = performance.now() - from;
    rmSync(this.dir, { recursive: true, force: true });
    return { ms, code: this.child.exitCode, signal: this.child.signalCode };
  }

  /** Stops the process by PID (SIGTERM, SIGKILL after 8 s) and removes its run directory. */
  async stop(): Promise<void> {
    await stopProcess(this.child, 8_000);
    rmSync(this.dir, { recursive: true, force: true });
  }

  /** Last resort (the bench's own watchdog): SIGKILL by PID, synchronously. */
  kill(): void {
    if (this.running) process.kill(this.pid, 'SIGKILL');
  }
}
