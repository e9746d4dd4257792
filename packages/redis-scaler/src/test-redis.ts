/**
 * Test helper: a real Redis for the tests. In CI (`CI=true`) a missing Redis
 * is an error; elsewhere the Redis tests are skipped with a message.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { Redis } from 'ioredis';

export const inCI = process.env.CI === 'true';

/** A free loopback port: bind to port 0, read it, release it. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

export function redisServerInstalled(): boolean {
  return spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;
}

/** A redis-server this test started; stopped by its PID. */
export interface RedisProcess {
  readonly url: string;
  readonly port: number;
  readonly pid: number;
  /** SIGKILL, as a crash: nothing is saved (`--save '' --appendonly no`). */
  kill(): Promise<void>;
}

export async function startRedisServer(port?: number): Promise<RedisProcess> {
  const chosen = port ?? (await freePort());
  const child = spawn('redis-server', ['--bind', '127.0.0.1', '--port', String(chosen), '--save', '', '--appendonly', 'no', '--daemonize', 'no'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await waitUntilReady(child, chosen);
  const pid = child.pid!;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
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

function waitUntilReady(child: ChildProcess, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => fail(new Error(`redis-server on port ${port} did not start in 10 s:\n${output}`)), 10_000);
    const fail = (error: Error) => {
      clearTimeout(timer);
      if (child.exitCode === null && child.pid) process.kill(child.pid, 'SIGKILL');
      reject(error);
    };
    child.once('error', fail);
    child.once('exit', (code) => fail(new Error(`redis-server exited with ${code}:\n${output}`)));
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) {
        clearTimeout(timer);
        child.removeAllListeners('exit');
        resolve();
      }
    });
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  });
}

export interface TestRedis {
  url: string;
  stop(): Promise<void>;
}

/**
 * `REDIS_URL` when set (CI starts one), else a redis-server of our own.
 * Undefined outside CI when neither is available; throws in CI.
 */
export async function testRedis(): Promise<TestRedis | undefined> {
  const url = process.env.REDIS_URL;
  if (url) {
    const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    try {
      await probe.connect();
      await probe.ping();
    } catch (error) {
      throw new Error(`REDIS_URL=${url} is set but Redis does not answer`, { cause: error });
    } finally {
      probe.disconnect();
    }
    return { url, stop: async () => {} };
  }
  if (redisServerInstalled()) {
    const server = await startRedisServer();
    return { url: server.url, stop: () => server.kill() };
  }
  if (inCI) throw new Error('REDIS_URL is not set and redis-server is not installed, but CI=true requires the Redis tests to run');
  return undefined;
}

export const skipMessage = '[redis-scaler] no Redis (set REDIS_URL or install redis-server): Redis tests skipped outside CI';

/** A prefix no other test run uses. */
export function uniquePrefix(name: string): string {
  return `test-${name}-${process.pid}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}
