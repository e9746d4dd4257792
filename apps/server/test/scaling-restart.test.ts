import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { daemonConfig, testApp } from './helpers/apps.js';
import { backend, pusherClient, subscribed } from './helpers/clients.js';
import { daemonBin, startDaemon, type RunningDaemon } from './helpers/daemon.js';
import { testScalingBackends, uniqueChannel, type ScalingBackend } from './helpers/redis.js';
import { waitFor } from './helpers/wait.js';

const stores = await testScalingBackends();
const app = testApp('cluster-restart');

/** `restart_server --config <file>` from a directory where no daemon is registered: only Redis can reach them. */
function restartServer(configFile: string, runDir: string): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [daemonBin, 'restart_server', '--config', configFile], {
      env: { ...process.env, REDIS_URL: '', REALTIME_RUN_DIR: join(runDir, 'nobody-here') },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, stdout }));
  });
}

/** The same test on each backend: one Redis, and a Redis Cluster (the restart is an SPUBLISH to the bus's shard). */
function restartTests(store: ScalingBackend) {
  let config: object;
  let nodes: [RunningDaemon, RunningDaemon];

  beforeAll(async () => {
    config = daemonConfig([app], store.config(uniqueChannel('restart')));
    // Port 0 on purpose: a restart must keep the port it actually got.
    nodes = (await Promise.all([startDaemon(config), startDaemon(config)])) as [RunningDaemon, RunningDaemon];
  });

  it('restarts every node through Redis; pusher-js on each reconnects on the same port and gets later events', async () => {
    const clients = nodes.map((node) => pusherClient(node, app));
    const received: unknown[][] = [[], []];
    for (const [index, client] of clients.entries()) {
      const channel = await subscribed(client, 'news');
      channel.bind('later', (data: unknown) => received[index]!.push(data));
    }
    const firstSocketIds = clients.map((client) => client.connection.socket_id);
    const ports = nodes.map((node) => node.port);

    const configFile = join(nodes[0].dir, 'restart-command.json');
    writeFileSync(configFile, JSON.stringify(config));
    const result = await restartServer(configFile, nodes[0].dir);
    expect(result).toEqual({ code: 0, stdout: 'Asked 2 node(s) of the cluster to restart.\n' });

    for (const node of nodes) {
      const restarted = await node.waitForLog((line) => line['msg'] === 'server restarted');
      expect(restarted['port']).toBe(node.port);
    }
    expect(nodes.map((node) => node.port)).toEqual(ports);
    for (const [index, client] of clients.entries()) {
      await waitFor(
        () => (client.connection.state === 'connected' && client.connection.socket_id !== firstSocketIds[index] ? true : undefined),
        `client ${index} to reconnect`,
      );
    }
    // Both re-subscribed: the cluster sees two subscriptions again.
    const sdk = backend(nodes[0], app);
    await expect
      .poll(async () => ((await (await sdk.get({ path: '/channels/news', params: { info: 'subscription_count' } })).json()) as { subscription_count?: number }).subscription_count, { timeout: 5_000 })
      .toBe(2);
    await sdk.trigger('news', 'later', { n: 1 });
    await waitFor(() => (received.every((list) => list.length === 1) ? true : undefined), 'the later event on both nodes');
    expect(received).toEqual([[{ n: 1 }], [{ n: 1 }]]);
  }, 30_000);
}

for (const store of stores) describe(`restart_server with scaling on ${store.name}`, () => restartTests(store));
describe.skipIf(stores.length > 0)('restart_server with scaling on', () => {
  it('needs Redis (skipped outside CI)', () => {});
});
