import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll } from 'vitest';

/** The built daemon; tests run against what users run, not the sources. */
export const daemonBin = fileURLToPath(new URL('../../dist/bin.js', import.meta.url));

export interface RunningDaemon {
  readonly pid: number;
  readonly port: number;
  /** `ws://127.0.0.1:{port}` (append `/app/{key}`). */
  readonly wsUrl: string;
  /** `http://127.0.0.1:{port}`. */
  readonly httpUrl: string;
  /** Its private temp dir: config file and `REALTIME_RUN_DIR` (pid files). */
  readonly dir: string;
  /** Every stdout and stderr line so far. */
  readonly output: string[];
  readonly process: ChildProcess;
  /** Resolves with the exit code (or the signal name) once the process is gone. */
  readonly exited: Promise<number | string>;
  /** SIGTERM, then waits for the exit; resolves with its code. */
  stop(): Promise<number | string>;
  /** SIGKILL by PID, then waits for the exit. */
  kill(): Promise<number | string>;
  /** Resolves with the first parsed JSON log line matching, waiting for it if needed. */
  waitForLog(predicate: (line: Record<string, unknown>) => boolean, timeoutMs?: number): Promise<Record<string, unknown>>;
}

export interface StartDaemonOptions {
  /** Extra environment for the daemon (on top of ours, minus variables that would change its config). */
  env?: Record<string, string>;
  /** How long to wait for the "listening" line. */
  startTimeoutMs?: number;
  /** A fixed port instead of 0 (a restart re-reads `--port`, so port 0 would move the server). */
  port?: number;
}

const started = new Set<RunningDaemon>();

/**
 * Every daemon a test file starts is killed by PID when the file ends,
 * even when a test failed half-way; registered once per test file.
 */
afterAll(async () => {
  await Promise.all([...started].map((daemon) => daemon.kill()));
});

/** A port that was free a moment ago on 127.0.0.1 (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (address && typeof address === 'object' ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

function parseJsonLine(line: string): Record<string, unknown> | undefined {
  if (!line.startsWith('{')) return undefined;
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Writes `config` to a temp dir, spawns `node dist/bin.js server` on
 * 127.0.0.1 port 0 and resolves once it logs `"msg":"listening"` with its port.
 */
export function startDaemon(config: object, options: StartDaemonOptions = {}): Promise<RunningDaemon> {
  const dir = mkdtempSync(join(tmpdir(), 'realtime-e2e-'));
  const configFile = join(dir, 'config.json');
  writeFileSync(configFile, JSON.stringify(config));

  // Variables that would override the config file are removed, so the config is the whole truth.
  const env: NodeJS.ProcessEnv = { ...process.env, REALTIME_RUN_DIR: dir, ...options.env };
  for (const name of ['REDIS_URL', 'REALTIME_CONFIG', 'REALTIME_HOST', 'REALTIME_PORT', 'REALTIME_PATH', 'REALTIME_APP_ID', 'REALTIME_APP_KEY', 'REALTIME_APP_SECRET']) {
    if (!options.env || !(name in options.env)) delete env[name];
  }

  const child = spawn(process.execPath, [daemonBin, 'server', '--config', configFile, '--host', '127.0.0.1', '--port', String(options.port ?? 0)], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const pid = child.pid;
  if (pid === undefined) return Promise.reject(new Error(`could not spawn ${daemonBin}`));

  const output: string[] = [];
  const lineListeners = new Set<(line: Record<string, unknown>) => void>();
  const collect = (stream: NodeJS.ReadableStream) => {
    let pending = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      pending += chunk;
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        if (line === '') continue;
        output.push(line);
        const json = parseJsonLine(line);
        if (json) for (const listener of lineListeners) listener(json);
      }
    });
  };
  collect(child.stdout);
  collect(child.stderr);

  const exited = new Promise<number | string>((resolve) => {
    child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown'));
  });

  const waitForLog: RunningDaemon['waitForLog'] = (predicate, timeoutMs = 10_000) => {
    for (const line of output) {
      const json = parseJsonLine(line);
      if (json && predicate(json)) return Promise.resolve(json);
    }
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        lineListeners.delete(listener);
        reject(new Error(`no matching log line within ${timeoutMs} ms; output:\n${output.join('\n')}`));
      }, timeoutMs);
      const listener = (json: Record<string, unknown>) => {
        if (!predicate(json)) return;
        clearTimeout(timer);
        lineListeners.delete(listener);
        resolve(json);
      };
      lineListeners.add(listener);
      void exited.then(() => {
        if (!lineListeners.has(listener)) return;
        clearTimeout(timer);
        lineListeners.delete(listener);
        reject(new Error(`the daemon exited before the expected log line; output:\n${output.join('\n')}`));
      });
    });
  };

  const signal = async (name: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) {
      try {
        process.kill(pid, name);
      } catch {
        // Already gone between the check and the signal.
      }
    }
    return exited;
  };

  const daemon: Omit<RunningDaemon, 'port' | 'wsUrl' | 'httpUrl'> = {
    pid,
    dir,
    output,
    process: child,
    exited,
    stop: () => signal('SIGTERM'),
    kill: () => signal('SIGKILL'),
    waitForLog,
  };

  void exited.then(() => rmSync(dir, { recursive: true, force: true }));

  return waitForLog((line) => line['msg'] === 'listening' && typeof line['port'] === 'number', options.startTimeoutMs ?? 15_000).then(
    (line) => {
      const port = line['port'] as number;
      const running: RunningDaemon = { ...daemon, port, wsUrl: `ws://127.0.0.1:${port}`, httpUrl: `http://127.0.0.1:${port}` };
      started.add(running);
      return running;
    },
    async (error: unknown) => {
      await daemon.kill();
      throw error;
    },
  );
}
