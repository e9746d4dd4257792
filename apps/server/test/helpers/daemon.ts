import { fileURLToPath } from 'node:url';
import { startDaemon as startDaemonProcess, type DaemonProcess } from '@org/dev-kit';
import { afterAll } from 'vitest';

/** A port that was free a moment ago on 127.0.0.1, for tests that restart a daemon on a fixed port. */
export { freePort } from '@org/dev-kit';

/** The built daemon; tests run against what users run, not the sources. */
export const daemonBin = fileURLToPath(new URL('../../dist/bin.js', import.meta.url));

/** A daemon listening on 127.0.0.1; its temp dir holds the config file and is its `REALTIME_RUN_DIR` (pid files). */
export interface RunningDaemon extends DaemonProcess {
  readonly port: number;
  /** `ws://127.0.0.1:{port}` (append `/app/{key}`). */
  readonly wsUrl: string;
  /** `http://127.0.0.1:{port}`. */
  readonly httpUrl: string;
}

export interface StartDaemonOptions {
  /** Extra environment for the daemon (on top of ours, minus variables that would change its config). */
  env?: Record<string, string>;
  /** How long to wait for the "listening" line. */
  startTimeoutMs?: number;
  /** A fixed port instead of 0 (a restart re-reads `--port`, so port 0 would move the server). */
  port?: number;
}

/** Variables that would override the config file; removed (unless a test sets them), so the config is the whole truth. */
const configVariables = ['REDIS_URL', 'REALTIME_CONFIG', 'REALTIME_HOST', 'REALTIME_PORT', 'REALTIME_PATH', 'REALTIME_APP_ID', 'REALTIME_APP_KEY', 'REALTIME_APP_SECRET'];

const started = new Set<RunningDaemon>();

/**
 * Every daemon a test file starts is killed by PID when the file ends,
 * even when a test failed half-way; registered once per test file.
 */
afterAll(async () => {
  await Promise.all([...started].map((daemon) => daemon.kill()));
});

/**
 * Writes `config` to a temp dir, spawns `node dist/bin.js server` on
 * 127.0.0.1 port 0 and resolves once it logs `"msg":"listening"` with its port.
 */
export async function startDaemon(config: object, options: StartDaemonOptions = {}): Promise<RunningDaemon> {
  const daemon = await startDaemonProcess({
    bin: daemonBin,
    config,
    dirPrefix: 'realtime-e2e-',
    args: ({ configFile }) => ['server', '--config', configFile, '--host', '127.0.0.1', '--port', String(options.port ?? 0)],
    env: ({ dir }) => {
      const env: NodeJS.ProcessEnv = { ...process.env, REALTIME_RUN_DIR: dir, ...options.env };
      for (const name of configVariables) if (!options.env || !(name in options.env)) delete env[name];
      return env;
    },
    ready: (line) => line['msg'] === 'listening' && typeof line['port'] === 'number',
    readyTimeoutMs: options.startTimeoutMs ?? 15_000,
  });
  const port = daemon.readyLine['port'] as number;
  const running: RunningDaemon = { ...daemon, port, wsUrl: `ws://127.0.0.1:${port}`, httpUrl: `http://127.0.0.1:${port}` };
  started.add(running);
  return running;
}
