import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { DevKitError } from './errors.js';

const run = promisify(execFile);

export interface RedisClusterOptions {
  /** Masters (3 by default; Redis needs at least 3). */
  readonly masters?: number;
  /** Replicas per master (1 by default, so a master can be killed or failed over; 0 for none). */
  readonly replicasPerMaster?: number;
  /** `--cluster-node-timeout` (2,000 ms by default: a failover within seconds, not Redis's 15 s). */
  readonly nodeTimeoutMs?: number;
  /** `--enable-debug-command local`, for tests that hold a master in `DEBUG SLEEP`. */
  readonly debugCommand?: boolean;
}

/**
 * A Redis Cluster of a test's own on loopback (never CI's shared one, which a
 * failover or a kill would damage for the other tests). Stopped by PID.
 */
export interface RedisClusterProcesses {
  /** The port of every node, masters first as `redis-cli --cluster create` assigned them. */
  readonly ports: readonly number[];
  /** `127.0.0.1:port` of every node, masters and replicas. */
  readonly nodes: readonly string[];
  /** The port of the master serving `slot` now. */
  masterOf(slot: number): Promise<number>;
  /** `CLUSTER KEYSLOT name`, asked of a live node. */
  keySlot(name: string): Promise<number>;
  /**
   * `CLUSTER FAILOVER` on a replica of the master on `port` (a graceful promotion: the old master
   * stays up, demoted); resolves with the new master's port once it serves the slots and the cluster is ok.
   */
  failover(port: number): Promise<number>;
  /** SIGSTOP (`true`) or SIGCONT (`false`) to every node still running, by PID: a cluster that does not answer. */
  pause(stopped: boolean): void;
  /** SIGKILL of one node by PID, as a crash; resolves once it is gone. */
  kill(port: number): Promise<void>;
  /** Kills every node still running and removes its files. Safe to call twice. */
  stop(): Promise<void>;
}

/** A cluster bus listens on port + 10000, so node ports stay below this. */
const HIGHEST_NODE_PORT = 45_000;

/**
 * Starts `masters × (1 + replicasPerMaster)` `redis-server --cluster-enabled yes`
 * (no persistence), joins them with `redis-cli --cluster create`, and resolves once
 * every slot is served and every replica is linked (about 8 s with replicas), so
 * that a master can be killed at once. On failure every node started is killed.
 */
export async function startRedisCluster(options: RedisClusterOptions = {}): Promise<RedisClusterProcesses> {
  const masters = options.masters ?? 3;
  const replicasPerMaster = options.replicasPerMaster ?? 1;
  const ports = await freeClusterPorts(masters * (1 + replicasPerMaster));
  const dir = await mkdtemp(join(tmpdir(), 'dev-kit-redis-cluster-'));
  const children = new Map<number, { child: ChildProcess; exited: Promise<void> }>();
  const running = (child: ChildProcess) => child.exitCode === null && child.signalCode === null;
  const kill = async (port: number) => {
    const entry = children.get(port);
    if (!entry) return;
    if (running(entry.child) && entry.child.pid) process.kill(entry.child.pid, 'SIGKILL');
    await entry.exited;
  };
  const liveNode = () => {
    for (const [port, { child }] of children) if (running(child)) return port;
    throw new DevKitError('REDIS_UNAVAILABLE', 'no node of the test cluster is running');
  };

  const cluster: RedisClusterProcesses = {
    ports,
    nodes: ports.map((port) => `127.0.0.1:${port}`),
    async masterOf(slot) {
      const shards = (await ask(liveNode(), (redis) => redis.cluster('SLOTS'))) as unknown as [number, number, [string, number, ...unknown[]]][];
      const shard = shards.find(([from, to]) => slot >= from && slot <= to);
      if (!shard) throw new DevKitError('REDIS_UNAVAILABLE', `slot ${slot} is not served`);
      return shard[2][1];
    },
    async keySlot(name) {
      return Number(await ask(liveNode(), (redis) => redis.cluster('KEYSLOT', name)));
    },
    async failover(port) {
      const masterId = (await cli(port, 'cluster', 'myid')).trim();
      const replicaLine = (await cli(port, 'cluster', 'nodes'))
        .split('\n')
        .find((line) => line.split(' ')[3] === masterId && /\bslave\b/.test(line.split(' ')[2] ?? '') && !line.includes('fail'));
      if (!replicaLine) throw new DevKitError('REDIS_UNAVAILABLE', `master ${port} has no live replica`);
      const replica = Number(/:(\d+)@/.exec(replicaLine.split(' ')[1]!)![1]);
      await cli(replica, 'cluster', 'failover');
      await until(async () => (await cli(replica, 'role')).startsWith('master'), `replica ${replica} promoted`, 15_000);
      await until(async () => (await cli(replica, 'cluster', 'info')).includes('cluster_state:ok'), 'cluster_state:ok after the promotion', 15_000);
      return replica;
    },
    pause(stopped) {
      for (const { child } of children.values()) if (running(child) && child.pid) process.kill(child.pid, stopped ? 'SIGSTOP' : 'SIGCONT');
    },
    kill,
    async stop() {
      await Promise.all(ports.map(kill));
      await rm(dir, { recursive: true, force: true });
    },
  };

  try {
    for (const port of ports) {
      const child = spawn(
        'redis-server',
        [
          '--bind', '127.0.0.1', '--port', String(port),
          '--cluster-enabled', 'yes', '--cluster-config-file', join(dir, `nodes-${port}.conf`), '--cluster-node-timeout', String(options.nodeTimeoutMs ?? 2_000),
          '--save', '', '--appendonly', 'no', '--dir', dir, '--daemonize', 'no',
          ...(options.debugCommand ? ['--enable-debug-command', 'local'] : []),
        ],
        { stdio: 'ignore' },
      );
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.once('error', () => {}); // a failed spawn also exits; the readiness wait below reports it
      children.set(port, { child, exited });
    }
    for (const port of ports) await until(async () => (await cli(port, 'ping')).trim() === 'PONG', `node ${port} answering`, 10_000);
    await run('redis-cli', ['--cluster', 'create', ...cluster.nodes, '--cluster-replicas', String(replicasPerMaster), '--cluster-yes']);
    await until(
      async () => {
        for (const port of ports) if (!(await cli(port, 'cluster', 'info')).includes('cluster_state:ok')) return false;
        let linked = 0;
        for (const port of ports) if ((await cli(port, 'info', 'replication')).includes('master_link_status:up')) linked++;
        return linked === masters * replicasPerMaster;
      },
      `cluster_state:ok with ${masters * replicasPerMaster} replicas linked`,
      30_000,
    );
    return cluster;
  } catch (error) {
    await cluster.stop();
    throw error instanceof DevKitError ? error : new DevKitError('REDIS_START_FAILED', `the test's Redis Cluster did not start: ${(error as Error).message}`, { cause: error });
  }
}

/** True when `port` and its cluster bus port (`port + 10000`) can both be bound on loopback now. */
async function bindable(port: number): Promise<boolean> {
  const tryListen = (candidate: number) =>
    new Promise<boolean>((resolve) => {
      const server = createServer();
      server.once('error', () => resolve(false));
      server.listen(candidate, '127.0.0.1', () => server.close(() => resolve(true)));
    });
  return (await tryListen(port)) && (await tryListen(port + 10_000));
}

/** `count` ports free with their bus ports, picked at random (ports of parallel test files rarely collide). */
async function freeClusterPorts(count: number): Promise<number[]> {
  const ports: number[] = [];
  for (let attempt = 0; ports.length < count && attempt < 200; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * (HIGHEST_NODE_PORT - 20_000));
    if (!ports.some((taken) => Math.abs(taken - port) < 2) && (await bindable(port))) ports.push(port);
  }
  if (ports.length < count) throw new DevKitError('NO_PORT', `no ${count} free loopback ports (with their bus ports) for a Redis Cluster`);
  return ports;
}

async function cli(port: number, ...args: string[]): Promise<string> {
  return (await run('redis-cli', ['-h', '127.0.0.1', '-p', String(port), ...args])).stdout;
}

/** One question to one node, on a connection of its own. */
async function ask<T>(port: number, question: (redis: Redis) => Promise<T>): Promise<T> {
  const redis = new Redis({ host: '127.0.0.1', port, lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  redis.on('error', () => {});
  try {
    await redis.connect();
    return await question(redis);
  } finally {
    redis.disconnect();
  }
}

async function until(check: () => Promise<boolean>, what: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new DevKitError('REDIS_START_FAILED', `the test's Redis Cluster: ${what} not within ${timeoutMs} ms`);
}
