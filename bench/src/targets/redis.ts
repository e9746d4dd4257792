import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { canPin } from './processes.js';
import { sleep } from '../measure/stats.js';

export interface RunningRedis {
  url: string;
  /** Our redis-server's PID; undefined for an external REDIS_URL. */
  pid: number | undefined;
  stop(): Promise<void>;
}

/** The bench's own Redis port (other helpers use 6394 and 6395). */
const defaultPort = 6393;

/**
 * Uses REDIS_URL when set; otherwise starts `redis-server` on 127.0.0.1
 * (BENCH_REDIS_PORT, default 6393) on the server CPU, and stops it by PID.
 */
export async function startRedis(cpu: number | undefined): Promise<RunningRedis> {
  const existing = process.env['REDIS_URL'];
  if (existing) return { url: existing, pid: undefined, stop: async () => {} };
  const port = Number(process.env['BENCH_REDIS_PORT'] ?? defaultPort);
  const pidFile = join(tmpdir(), `bench-redis-${port}.pid`);
  const args = ['--bind', '127.0.0.1', '--port', String(port), '--save', '', '--appendonly', 'no', '--daemonize', 'yes', '--pidfile', pidFile];
  const pinned = cpu !== undefined && canPin();
  const started = spawnSync(pinned ? 'taskset' : 'redis-server', pinned ? ['-c', String(cpu), 'redis-server', ...args] : args, { encoding: 'utf8' });
  if (started.status !== 0) throw new Error(`redis-server did not start: ${started.error?.message ?? started.stderr}`);
  let pid = 0;
  for (let attempt = 0; attempt < 50 && !pid; attempt++) {
    try {
      pid = Number(readFileSync(pidFile, 'utf8').trim());
    } catch {
      await sleep(50);
    }
  }
  if (!pid) throw new Error(`redis-server wrote no pid file at ${pidFile}`);
  return {
    url: `redis://127.0.0.1:${port}`,
    pid,
    async stop() {
      try {
        process.kill(pid, 'SIGTERM');
      } catch {
        // Already gone.
      }
      for (let attempt = 0; attempt < 50; attempt++) {
        try {
          process.kill(pid, 0);
          await sleep(50);
        } catch {
          break;
        }
      }
      rmSync(pidFile, { force: true });
    },
  };
}
