import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { appDir, packageDir } from './assets.js';
import { DemoError } from './errors.js';

interface DaemonCredentials {
  appId: string;
  key: string;
  secret: string;
}

export interface DaemonProcess {
  pid: number;
  port: number;
  /** SIGTERM (the daemon drains and exits 0), then resolves with the exit code or signal. */
  stop(): Promise<number | string>;
  readonly exited: Promise<number | string>;
}

export interface SpawnDaemonOptions {
  /** 0 lets the daemon pick a free port; the real one is read from its "listening" log line. */
  port: number;
  credentials: DaemonCredentials;
  /** Each JSON log line of warn level or higher (and anything that is not JSON). */
  onLog?: (line: string) => void;
  startTimeoutMs?: number;
}

/** The built realtime daemon of apps/server, resolved through this app's dependency on it. */
export function daemonBinPath(): string {
  return join(packageDir('@org/realtime-server', join(appDir, 'package.json')), 'dist', 'bin.js');
}

/**
 * Preloaded into the daemon (`node --import`). This process holds the other
 * end of the daemon's stdin; when it dies, even by SIGKILL, the pipe closes
 * and the daemon stops gracefully instead of living on as an orphan. A data:
 * URL, so that no file has to be built or found for it.
 */
const exitWithParent = `
const stop = () => process.kill(process.pid, 'SIGTERM');
process.stdin.once('end', stop);
process.stdin.once('error', stop);
process.stdin.resume();
process.stdin.unref?.();
`;
const exitWithParentUrl = `data:text/javascript,${encodeURIComponent(exitWithParent)}`;

/**
 * Starts `node apps/server/dist/bin.js server` on 127.0.0.1 with one app from
 * the given credentials, and resolves once it listens.
 */
export function spawnDaemon(options: SpawnDaemonOptions): Promise<DaemonProcess> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    REALTIME_APP_ID: options.credentials.appId,
    REALTIME_APP_KEY: options.credentials.key,
    REALTIME_APP_SECRET: options.credentials.secret,
  };
  // The demo's daemon is standalone: no Redis scaling, no config file, no other host/port.
  for (const name of ['REDIS_URL', 'REALTIME_CONFIG', 'REALTIME_HOST', 'REALTIME_PORT', 'REALTIME_PATH']) delete env[name];

  let child: ChildProcess;
  try {
    // stdin stays a pipe to this process: the preload stops the daemon when it closes.
    const args = ['--import', exitWithParentUrl, daemonBinPath(), 'server', '--host', '127.0.0.1', '--port', String(options.port)];
    child = spawn(process.execPath, args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
  } catch (cause) {
    return Promise.reject(new DemoError('DAEMON_FAILED', 'Could not spawn the realtime daemon (build it with `pnpm turbo run build --filter=@org/realtime-server`)', { cause }));
  }
  const pid = child.pid;
  const exited = new Promise<number | string>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')));

  return new Promise<DaemonProcess>((resolve, reject) => {
    const recent: string[] = [];
    let settled = false;
    const timer = setTimeout(() => fail(`the daemon did not log "listening" within ${options.startTimeoutMs ?? 15_000} ms`), options.startTimeoutMs ?? 15_000);

    const stop = async () => {
      if (child.exitCode === null && child.signalCode === null && pid !== undefined) {
        try {
          process.kill(pid, 'SIGTERM');
        } catch {
          // Already gone.
        }
      }
      return exited;
    };

    function fail(reason: string): void {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void stop();
      reject(new DemoError('DAEMON_FAILED', `Realtime daemon failed to start: ${reason}\n${recent.join('\n')}`));
    }

    const onLine = (line: string) => {
      recent.push(line);
      if (recent.length > 20) recent.shift();
      let json: Record<string, unknown> | undefined;
      try {
        json = line.startsWith('{') ? (JSON.parse(line) as Record<string, unknown>) : undefined;
      } catch {
        json = undefined;
      }
      if (!json || (typeof json.level === 'number' && json.level >= 40)) options.onLog?.(line);
      if (!settled && json?.msg === 'listening' && typeof json.port === 'number' && pid !== undefined) {
        settled = true;
        clearTimeout(timer);
        resolve({ pid, port: json.port, stop, exited });
      }
    };
    for (const stream of [child.stdout, child.stderr]) {
      let pending = '';
      stream?.setEncoding('utf8');
      stream?.on('data', (chunk: string) => {
        pending += chunk;
        const lines = pending.split('\n');
        pending = lines.pop() ?? '';
        for (const line of lines) if (line !== '') onLine(line);
      });
    }
    child.once('error', (error) => fail(error.message));
    void exited.then((code) => fail(`it exited with ${code}`));
  });
}
