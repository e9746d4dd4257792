// Test utilities shared by the packages of this repository (private: never published).
export { DevKitError, type DevKitErrorCode } from './errors.js';
export { freePort } from './free-port.js';
export { processAlive } from './process-alive.js';
export { redisServerInstalled, startRedisServer, type RedisProcess } from './redis-server.js';
export { startRedisCluster, type RedisClusterOptions, type RedisClusterProcesses } from './redis-cluster.js';
export { inCI, parseClusterSeed, requiredClusterSeeds, testClusterSeeds, testRedis, type ClusterSeed, type TestRedis, type TestRedisOptions } from './test-redis.js';
export type { JsonLine } from './json-lines.js';
export {
  spawnDaemon,
  startDaemon,
  type DaemonFiles,
  type DaemonProcess,
  type SpawnDaemonOptions,
  type StartDaemonOptions,
  type StartedDaemon,
} from './daemon.js';
