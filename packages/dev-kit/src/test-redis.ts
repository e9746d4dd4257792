import { Redis } from 'ioredis';
import { DevKitError } from './errors.js';
import { redisServerInstalled, startRedisServer } from './redis-server.js';

/** `CI=true`: tests that need Redis fail without one instead of skipping. */
export const inCI = process.env['CI'] === 'true';

/** The Redis a test file uses; `stop()` kills it when it is our own, and leaves `REDIS_URL`'s alone. */
export interface TestRedis {
  readonly url: string;
  stop(): Promise<void>;
}

export interface TestRedisOptions {
  /** Named in the CI error ("CI=true requires {tests} to run"); default 'the Redis tests'. */
  tests?: string;
  /** Whether a missing Redis is an error; default {@link inCI}. */
  ci?: boolean;
}

/**
 * `REDIS_URL` when set (CI starts one; it must answer a PING), else a
 * redis-server of our own on a free loopback port. Without either: undefined
 * outside CI (the caller skips its tests with a message), an error in CI.
 */
export async function testRedis(options: TestRedisOptions = {}): Promise<TestRedis | undefined> {
  const url = process.env['REDIS_URL'];
  if (url) {
    await ping(url);
    return { url, stop: async () => {} };
  }
  if (redisServerInstalled()) {
    const server = await startRedisServer();
    return { url: server.url, stop: () => server.kill() };
  }
  if (options.ci ?? inCI) {
    throw new DevKitError('REDIS_UNAVAILABLE', `REDIS_URL is not set and redis-server is not installed, but CI=true requires ${options.tests ?? 'the Redis tests'} to run`);
  }
  return undefined;
}

/** One PING without retries, so a wrong `REDIS_URL` fails the run at once instead of hanging it. */
async function ping(url: string): Promise<void> {
  const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  try {
    await probe.connect();
    await probe.ping();
  } catch (error) {
    throw new DevKitError('REDIS_UNAVAILABLE', `REDIS_URL=${url} is set but Redis does not answer`, { cause: error });
  } finally {
    probe.disconnect();
  }
}

/** One Redis Cluster seed: `text` as written (`host:port`, an IPv6 host in brackets), `host` without the brackets. */
export interface ClusterSeed {
  readonly text: string;
  readonly host: string;
  readonly port: number;
}

/** `host:port` or `[ipv6]:port`; anything else throws, naming the seed and `source`. */
export function parseClusterSeed(text: string, source = 'REDIS_CLUSTER_NODES'): ClusterSeed {
  const match = /^\s*(\[[0-9A-Fa-f:.]+\]|[^:\s[\]]+):(\d{1,5})\s*$/.exec(text);
  const port = Number(match?.[2]);
  if (!match || port < 1 || port > 65_535) throw new DevKitError('INVALID_OPTION', `${source}: "${text}" is not host:port (an IPv6 host in brackets)`);
  const host = match[1]!;
  return { text: `${host}:${port}`, host: host.replace(/^\[(.*)\]$/, '$1'), port };
}

/**
 * The seeds of the Redis Cluster the tests share, from `REDIS_CLUSTER_NODES` (`host:port`, comma-separated;
 * `.ci/run` starts one); undefined when unset or empty. The one place that reads the variable.
 */
export function testClusterSeeds(env: NodeJS.ProcessEnv = process.env): ClusterSeed[] | undefined {
  const value = env['REDIS_CLUSTER_NODES']?.trim();
  if (!value) return undefined;
  return value.split(',').map((seed) => parseClusterSeed(seed));
}

/**
 * The shared Redis Cluster's seeds for a test file of `owner` (a package name for the message): undefined
 * outside CI when `REDIS_CLUSTER_NODES` is unset (its cluster tests are skipped, with a message), an error
 * in CI, where a skipped cluster test would pass unseen.
 */
export function requiredClusterSeeds(owner: string, env: NodeJS.ProcessEnv = process.env): ClusterSeed[] | undefined {
  const seeds = testClusterSeeds(env);
  if (seeds) return seeds;
  if (env['CI'] === 'true') throw new DevKitError('REDIS_UNAVAILABLE', 'REDIS_CLUSTER_NODES is not set, but CI=true requires the Redis Cluster tests to run');
  console.warn(`[${owner}] no Redis Cluster (set REDIS_CLUSTER_NODES=host:port,…): Redis Cluster tests skipped outside CI`);
  return undefined;
}
