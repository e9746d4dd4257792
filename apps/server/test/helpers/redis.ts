import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll } from 'vitest';
import { freePort } from './daemon.js';

/**
 * Redis for the scaling tests: `REDIS_URL` when set (CI starts one), else a
 * redis-server of our own. In CI a missing Redis fails the file; elsewhere the
 * file's tests are skipped with a message.
 */
export const inCI = process.env['CI'] === 'true';

export interface RedisProcess {
  readonly url: string;
  readonly port: number;
  readonly pid: number;
  /** SIGKILL by PID, as a crash (nothing is persisted). */
  kill(): Promise<void>;
}

const started = new Set<RedisProcess>();
afterAll(async () => {
  await Promise.all([...started].map((redis) => redis.kill()));
});

export function redisServerInstalled(): boolean {
  return spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;
}

/** A redis-server of this test file on loopback, killed by PID when the file ends. */
export async function startRedisServer(port?: number): Promise<RedisProcess> {
  const chosen = port ?? (await freePort());
  const child = spawn('redis-server', ['--bind', '127.0.0.1', '--port', String(chosen), '--save', '', '--appendonly', 'no'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`redis-server on ${chosen} did not start:\n${output}`)), 10_000);
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited with ${code}:\n${output}`));
    });
  });
  const pid = child.pid!;
  const redis: RedisProcess = {
    url: `redis://127.0.0.1:${chosen}`,
    port: chosen,
    pid,
    async kill() {
      started.delete(redis);
      if (child.exitCode === null && child.signalCode === null) process.kill(pid, 'SIGKILL');
      await exited;
    },
  };
  started.add(redis);
  return redis;
}

/** The Redis URL the scaling tests use, or undefined (outside CI) when there is none. */
export async function testRedisUrl(): Promise<string | undefined> {
  const url = process.env['REDIS_URL'];
  if (url) {
    const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    try {
      await probe.connect();
      await probe.ping();
      return url;
    } catch (error) {
      throw new Error(`REDIS_URL=${url} is set but Redis does not answer`, { cause: error });
    } finally {
      probe.disconnect();
    }
  }
  if (redisServerInstalled()) return (await startRedisServer()).url;
  if (inCI) throw new Error('REDIS_URL is not set and redis-server is not installed, but CI=true requires the scaling tests to run');
  console.warn('[server] no Redis (set REDIS_URL or install redis-server): scaling tests skipped outside CI');
  return undefined;
}

/** A `scaling.channel` (key and bus namespace) no other test uses. */
export function uniqueChannel(name: string): string {
  return `test:${name}:${randomBytes(4).toString('hex')}`;
}

/** The config section that puts a daemon in the deployment `channel` on `url`. */
export function scalingConfig(url: string, channel: string): Record<string, unknown> {
  return { scaling: { enabled: true, channel }, redis: { url } };
}
