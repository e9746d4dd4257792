import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DevKitError } from './errors.js';
import { parseJsonLine, type JsonLine } from './json-lines.js';

/** Where a daemon's files are: its own temp dir, removed once the process is gone. */
export interface DaemonFiles {
  readonly dir: string;
  /** `<dir>/config.json`, holding the `config` given (when one was). */
  readonly configFile: string;
}

export interface SpawnDaemonOptions {
  /** The built script, run with this process's Node (`process.execPath`). */
  bin: string;
  /** Written as JSON to {@link DaemonFiles.configFile} before the spawn. */
  config?: unknown;
  /** The arguments after the script. */
  args?: (files: DaemonFiles) => readonly string[];
  /** The daemon's whole environment; default this process's. */
  env?: (files: DaemonFiles) => NodeJS.ProcessEnv;
  /** The temp dir's name prefix; default 'dev-kit-daemon-'. */
  dirPrefix?: string;
}

/** A daemon process a test spawned; stopped and killed by its PID. */
export interface DaemonProcess extends DaemonFiles {
  readonly pid: number;
  /** Every stdout and stderr line so far. */
  readonly output: string[];
  readonly process: ChildProcess;
  /** Resolves with the exit code (or the signal name) once the process is gone. */
  readonly exited: Promise<number | string>;
  /** SIGTERM by PID, then waits for the exit; resolves with its code. */
  stop(): Promise<number | string>;
  /** SIGKILL by PID, then waits for the exit. */
  kill(): Promise<number | string>;
  /** Resolves with the first JSON log line matching, waiting for it if needed (default 10 s). */
  waitForLog(predicate: (line: JsonLine) => boolean, timeoutMs?: number): Promise<JsonLine>;
}

/** Spawns `node <bin> <args>` in a temp dir of its own, collecting its output line by line. */
export function spawnDaemon(options: SpawnDaemonOptions): DaemonProcess {
  const dir = mkdtempSync(join(tmpdir(), options.dirPrefix ?? 'dev-kit-daemon-'));
  const files: DaemonFiles = { dir, configFile: join(dir, 'config.json') };
  if (options.config !== undefined) writeFileSync(files.configFile, JSON.stringify(options.config));

  const child = spawn(process.execPath, [options.bin, ...(options.args?.(files) ?? [])], {
    env: options.env?.(files) ?? process.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const pid = child.pid;
  if (pid === undefined) {
    child.once('error', () => {}); // reported by the throw below
    rmSync(dir, { recursive: true, force: true });
    throw new DevKitError('DAEMON_SPAWN_FAILED', `could not spawn ${options.bin}`);
  }

  const output: string[] = [];
  const lineListeners = new Set<(line: JsonLine) => void>();
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
  void exited.then(() => rmSync(dir, { recursive: true, force: true }));

  const waitForLog: DaemonProcess['waitForLog'] = (predicate, timeoutMs = 10_000) => {
    for (const line of output) {
      const json = parseJsonLine(line);
      if (json && predicate(json)) return Promise.resolve(json);
    }
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        lineListeners.delete(listener);
        reject(new DevKitError('DAEMON_LOG_TIMEOUT', `no matching log line within ${timeoutMs} ms; output:\n${output.join('\n')}`));
      }, timeoutMs);
      const listener = (json: JsonLine) => {
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
        reject(new DevKitError('DAEMON_EXITED', `the daemon exited before the expected log line; output:\n${output.join('\n')}`));
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

  return {
    ...files,
    pid,
    output,
    process: child,
    exited,
    stop: () => signal('SIGTERM'),
    kill: () => signal('SIGKILL'),
    waitForLog,
  };
}

export interface StartDaemonOptions extends SpawnDaemonOptions {
  /** The log line that says the daemon is ready (e.g. listening, with its port). */
  ready: (line: JsonLine) => boolean;
  /** How long to wait for it; default 15 s. */
  readyTimeoutMs?: number;
}

/** A daemon that logged its ready line. */
export interface StartedDaemon extends DaemonProcess {
  readonly readyLine: JsonLine;
}

/** {@link spawnDaemon}, then waits for the ready line; a daemon that never logs it is killed and the wait's error thrown. */
export async function startDaemon(options: StartDaemonOptions): Promise<StartedDaemon> {
  const daemon = spawnDaemon(options);
  try {
    return { ...daemon, readyLine: await daemon.waitForLog(options.ready, options.readyTimeoutMs ?? 15_000) };
  } catch (error) {
    await daemon.kill();
    throw error;
  }
}
