import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { afterAll } from 'vitest';

const run = promisify(execFile);

/** A Redis Cluster of a test's own on loopback: 3 masters + 3 replicas, stopped by PID when the file ends. */
export interface RedisClusterProcesses {
  /** `127.0.0.1:port` of every node, masters and replicas. */
  readonly nodes: string[];
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
  /** SIGKILL by PID, as a crash. */
  kill(port: number): Promise<void>;
  /** Kills every node still running and removes its files. */
  stop(): Promise<void>;
}

const started = new Set<RedisClusterProcesses>();
afterAll(async () => {
  await Promise.all([...started].map((cluster) => cluster.stop()));
});

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

/** Six ports under 55535 (the bus port is port + 10000) that are free with their bus ports, picked at random. */
async function freeClusterPorts(): Promise<number[]> {
  const ports: number[] = [];
  for (let attempt = 0; ports.length < 6 && attempt < 200; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 25_000);
    if (!ports.some((taken) => Math.abs(taken - port) < 2) && (await bindable(port))) ports.push(port);
  }
  if (ports.length < 6) throw new Error('no six free loopback ports for a Redis Cluster');
  return ports;
}

async function cli(port: number, ...args: string[]): Promise<string> {
  return (await run('redis-cli', ['-h', '127.0.0.1', '-p', String(port), ...args])).stdout;
}

/** One question to one node, on a connection of its own. */
async function ask<T>(port: number, question: (redis: Redis) => Promise<T>): Promise<T> {
  const redis = new Redis({ host: '127.0.0.1', port, lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
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
  throw new Error(`the test's Redis Cluster: ${what} not within ${timeoutMs} ms`);
}

/**
 * Starts six `redis-server --cluster-enabled yes` (no persistence, `nodeTimeoutMs` node timeout),
 * joins them with `redis-cli --cluster create --cluster-replicas 1`, and resolves once every slot
 * is served and the three replicas are linked (about 8 s), so that a master can be killed.
 */
export async function startRedisCluster(options: { nodeTimeoutMs?: number } = {}): Promise<RedisClusterProcesses> {
  const ports = await freeClusterPorts();
  const dir = await mkdtemp(join(tmpdir(), 'realtime-redis-cluster-'));
  const children = new Map<number, { child: ChildProcess; exited: Promise<void> }>();
  const kill = async (port: number) => {
    const entry = children.get(port);
    if (!entry) return;
    const { child, exited } = entry;
    if (child.exitCode === null && child.signalCode === null && child.pid) process.kill(child.pid, 'SIGKILL');
    await exited;
  };
  const cluster: RedisClusterProcesses = {
    nodes: ports.map((port) => `127.0.0.1:${port}`),
    async masterOf(slot) {
      const shards = (await ask(await liveNode(), (redis) => redis.cluster('SLOTS'))) as unknown as [number, number, [string, number, ...unknown[]]][];
      const shard = shards.find(([from, to]) => slot >= from && slot <= to);
      if (!shard) throw new Error(`slot ${slot} is not served`);
      return shard[2][1];
    },
    async keySlot(name) {
      return Number(await ask(await liveNode(), (redis) => redis.cluster('KEYSLOT', name)));
    },
    async failover(port) {
      const masterId = (await cli(port, 'cluster', 'myid')).trim();
      const replicaLine = (await cli(port, 'cluster', 'nodes'))
        .split('\n')
        .find((line) => line.split(' ')[3] === masterId && /\bslave\b/.test(line.split(' ')[2] ?? '') && !line.includes('fail'));
      if (!replicaLine) throw new Error(`master ${port} has no live replica`);
      const replica = Number(/:(\d+)@/.exec(replicaLine.split(' ')[1]!)![1]);
      await cli(replica, 'cluster', 'failover');
      await until(async () => (await cli(replica, 'role')).startsWith('master'), `replica ${replica} promoted`, 15_000);
      await until(async () => (await cli(replica, 'cluster', 'info')).includes('cluster_state:ok'), 'cluster_state:ok after the promotion', 15_000);
      return replica;
    },
    pause(stopped) {
      for (const { child } of children.values()) {
        if (child.exitCode === null && child.signalCode === null && child.pid) process.kill(child.pid, stopped ? 'SIGSTOP' : 'SIGCONT');
      }
    },
    kill,
    async stop() {
      started.delete(cluster);
      await Promise.all(ports.map(kill));
      await rm(dir, { recursive: true, force: true });
    },
  };
  started.add(cluster);
  const liveNode = async () => {
    for (const port of ports) {
      const entry = children.get(port);
      if (entry && entry.child.exitCode === null && entry.child.signalCode === null) return port;
    }
    throw new Error('no node of the test cluster is running');
  };
  try {
    for (const port of ports) {
      const child = spawn(
        'redis-server',
        [
          '--bind', '127.0.0.1', '--port', String(port),
          '--cluster-enabled', 'yes', '--cluster-config-file', join(dir, `nodes-${port}.conf`), '--cluster-node-timeout', String(options.nodeTimeoutMs ?? 2_000),
          '--save', '', '--appendonly', 'no', '--dir', dir, '--daemonize', 'no',
        ],
        { stdio: 'ignore' },
      );
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      children.set(port, { child, exited });
    }
    for (const port of ports) await until(async () => (await cli(port, 'ping')).trim() === 'PONG', `node ${port} answering`, 10_000);
    await run('redis-cli', ['--cluster', 'create', ...cluster.nodes, '--cluster-replicas', '1', '--cluster-yes']);
    await until(
      async () => {
        if (!(await cli(ports[0]!, 'cluster', 'info')).includes('cluster_state:ok')) return false;
        let linked = 0;
        for (const port of ports) if ((await cli(port, 'info', 'replication')).includes('master_link_status:up')) linked++;
        return linked === 3;
      },
      'cluster_state:ok with 3 replicas linked',
      30_000,
    );
    return cluster;
  } catch (error) {
    await cluster.stop();
    throw error;
  }
}
