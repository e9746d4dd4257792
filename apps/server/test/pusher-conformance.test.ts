import { runConformance, formatResult, type ConformanceReport } from '@org/pusher-conformance';
import { describe, expect, it } from 'vitest';
import { daemonConfig, testApp, type TestApp } from './helpers/apps.js';
import { freePort, startDaemon, type RunningDaemon } from './helpers/daemon.js';
import { testScalingBackends, uniqueChannel } from './helpers/redis.js';

/*
 * @org/pusher-conformance, the kit we publish for any Pusher-compatible server, run against our own
 * daemon the way a user would run it: one node, two nodes over one Redis and over the Redis Cluster,
 * and one daemon with two worker threads. Every case runs, with a feature app, a webhook receiver
 * and an app with client events disabled, and every case must pass.
 */

const stores = await testScalingBackends();

/** The user authentication timeout of the feature app, short so the authorized-connection cases take seconds. */
const authenticationTimeoutSeconds = 2;

/** The feature app: watchlist events, subscription counts and authorized connections on. */
const featureOptions = {
  enable_watchlist_events: true,
  enable_subscription_count: true,
  enable_user_authentication: true,
  user_authentication_timeout: authenticationTimeoutSeconds,
};

interface Deployment {
  main: TestApp;
  feature: TestApp;
  clientEventsOff: TestApp;
  webhookPort: number;
  config: (extra: Record<string, unknown>) => object;
}

async function deployment(name: string): Promise<Deployment> {
  const webhookPort = await freePort();
  const main = testApp(`${name}-main`, { webhooks: [{ url: `http://127.0.0.1:${webhookPort}/` }] });
  const feature = testApp(`${name}-feature`, featureOptions);
  const clientEventsOff = testApp(`${name}-quiet`, { enable_client_messages: false });
  // The daemon's defaults: its max_request_size holds an event of Pusher's 10 KB (the limits cases send 10,000 bytes of data).
  const config = (extra: Record<string, unknown>) => daemonConfig([main, feature, clientEventsOff], extra);
  return { main, feature, clientEventsOff, webhookPort, config };
}

const credentials = ({ id, key, secret }: TestApp) => ({ id, key, secret });

async function run(deployed: Deployment, node: RunningDaemon, node2?: RunningDaemon): Promise<ConformanceReport> {
  return runConformance({
    port: node.port,
    app: credentials(deployed.main),
    ...(node2 ? { node2: { port: node2.port } } : {}),
    featureApp: credentials(deployed.feature),
    userAuthenticationTimeout: authenticationTimeoutSeconds,
    clientEventsOffApp: credentials(deployed.clientEventsOff),
    webhookPort: deployed.webhookPort,
    maxEventDataBytes: 10_000,
    runTimeout: 240,
  });
}

/** Every case ran and passed; only the two-node cases are skipped, and only without a second node. */
function expectConformance(report: ConformanceReport, twoNodes: boolean): void {
  const failed = report.results.filter((result) => result.status === 'fail');
  expect(failed.map(formatResult)).toEqual([]);
  const skipped = report.results.filter((result) => result.status === 'skip');
  expect(skipped.map(formatResult)).toEqual(twoNodes ? [] : skipped.filter((result) => result.group === 'two-nodes').map(formatResult));
  expect(report.results.length).toBeGreaterThan(70);
}

describe('the Pusher conformance kit against the daemon', () => {
  it('passes on one node', async () => {
    const deployed = await deployment('one');
    const daemon = await startDaemon(deployed.config({}));
    expectConformance(await run(deployed, daemon), false);
  }, 300_000);

  it('passes on one daemon with two worker threads', async () => {
    const deployed = await deployment('workers');
    const daemon = await startDaemon(deployed.config({}), { env: { REALTIME_WORKERS: '2' } });
    expectConformance(await run(deployed, daemon), false);
  }, 300_000);

  for (const store of stores) {
    it(`passes on two nodes over ${store.name}, the two-node cases included`, async () => {
      const deployed = await deployment('pair');
      const scaling = store.config(uniqueChannel('conformance'));
      const [one, two] = await Promise.all([startDaemon(deployed.config(scaling)), startDaemon(deployed.config(scaling))]);
      expectConformance(await run(deployed, one, two), true);
    }, 300_000);
  }
});
