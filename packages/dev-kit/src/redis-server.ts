import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { DevKitError } from './errors.js';
import { freePort } from './free-port.js';

/** True when `redis-server` is on the PATH. */
export function redisServerInstalled(): boolean {
  return spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;
}

/** A redis-server a test started on loopback; stopped by its PID. */
export interface RedisProcess {
  readonly url: string;
  readonly port: number;
  readonly pid: number;
  /** SIGKILL by PID, as a crash (nothing is saved: `--save '' --appendonly no`); resolves once it is gone. Safe to call twice. */
  kill(): Promise<void>;
}

const readyTimeoutMs = 10_000;

/** Starts `redis-server` on 127.0.0.1 (`port`, else a free one) and resolves once it accepts connections. */
export async function startRedisServer(port?: number): Promise<RedisProcess> {
  const chosen = port ?? (await freePort());
  const child = spawn('redis-server', ['--bind', '127.0.0.1', '--port', String(chosen), '--save', '', '--appendonly', 'no', '--daemonize', 'no'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await waitUntilReady(child, chosen);
  const pid = child.pid!;
  return {
    url: `redis://127.0.0.1:${chosen}`,
    port: chosen,
    pid,
    async kill() {
      if (child.exitCode === null && child.signalCode === null) process.kill(pid, 'SIGKILL');
      await exited;
    },
  };
}

/** Resolves on redis-server's "Ready to accept connections"; on exit or timeout kills it and rejects with its output. */
function waitUntilReady(child: ChildProcess, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(
      () => fail(new DevKitError('REDIS_START_FAILED', `redis-server on port ${port} did not start in ${readyTimeoutMs / 1000} s:\n${output}`)),
      readyTimeoutMs,
    );
    const settle = () => {
      clearTimeout(timer);
      child.off('error', onError);
      child.off('exit', onExit);
    };
    const fail = (error: Error) => {
      settle();
      if (child.exitCode === null && child.pid) process.kill(child.pid, 'SIGKILL');
      reject(error);
    };
    const onError = (error: Error) => fail(new DevKitError('REDIS_START_FAILED', `redis-server could not be spawned: ${error.message}`, { cause: error }));
    const onExit = (code: number | null) => fail(new DevKitError('REDIS_START_FAILED', `redis-server exited with ${code}:\n${output}`));
    child.on('error', onError);
    child.on('exit', onExit);
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) {
        settle();
        resolve();
      }
    });
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  });
}
