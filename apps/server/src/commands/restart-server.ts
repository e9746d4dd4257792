import type { Command } from '../cli.js';
import { loadConfig } from '../config/load-config.js';
import { signalRegisteredServers } from '../pid-files.js';
import { requestClusterRestart } from '../scaling/request-cluster-restart.js';

/**
 * `restart_server`: every node restarts gracefully, through Redis when scaling
 * is enabled, else the servers registered on this host (SIGHUP).
 */
export async function restartServers(command: Extract<Command, { name: 'restart_server' }>): Promise<void> {
  const { config } = await loadConfig({ file: command.config });
  if (config.scaling.enabled) {
    const nodes = await requestClusterRestart(config);
    process.stdout.write(nodes ? `Asked ${nodes} node(s) of the cluster to restart.\n` : 'No running node is listening on this Redis prefix.\n');
    return;
  }
  const { signalled, removed } = signalRegisteredServers('SIGHUP');
  if (removed.length) process.stdout.write(`Removed ${removed.length} stale pid file(s) (process gone or not the registered server): ${removed.join(', ')}\n`);
  process.stdout.write(signalled.length ? `Asked ${signalled.length} server(s) to restart: ${signalled.join(', ')}\n` : 'No running server found on this host.\n');
}
