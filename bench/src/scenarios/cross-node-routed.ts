import { timedData, triggerRequest } from '../load/events.js';
import type { Endpoint } from '../load/pusher-client.js';
import { benchApp } from '../load/signing.js';
import { subscribeMany, type SubscriberGroup } from '../load/subscribers.js';
import { openHttpConnections, pumpAtRate, pumpClosedLoop } from '../load/trigger-pump.js';
import { CpuWindow, sleep } from '../measure/stats.js';
import { cpuSeconds, systemCpuSeconds } from '../targets/processes.js';
import type { Scenario } from './scenario.js';

const sizes = (quick: boolean) => ({
  channels: quick ? 12 : 48,
  subscribersPerChannel: quick ? 4 : 10,
  eventsPerSecond: 300,
  moderateMs: quick ? 1_000 : 3_000,
  // Closed loop before anything is measured: every node's JIT has run the request and the
  // delivery paths thousands of times (a node of two sees half the requests of a single daemon).
  warmMs: quick ? 500 : 1_500,
  // Fixed offered rate, below every target's saturation: daemon CPU per event without the
  // scheduling of three processes fighting for one core at saturation.
  fixedEventsPerSecond: quick ? 500 : 1_000,
  fixedMs: quick ? 1_000 : 3_000,
  idleMs: quick ? 1_000 : 3_000,
  saturationMs: quick ? 800 : 2_500,
  connectionsPerNode: 4,
  depth: 32,
});

const padding = 'x'.repeat(64);
const counterName = 'realtime_scaling_bus_messages_received_total';

/**
 * Sum of `realtime_scaling_bus_messages_received_total` (every topic kind) on a node's /metrics;
 * NaN when the daemon does not export it (a single daemon without Redis, or a build before routing).
 */
async function busMessagesReceived(node: Endpoint): Promise<number> {
  const response = await fetch(`http://${node.host}:${node.port}/metrics`);
  const text = await response.text();
  let sum = Number.NaN;
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${counterName}{`)) continue;
    sum = (Number.isNaN(sum) ? 0 : sum) + Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return sum;
}

/**
 * 8. Routed bus: N daemons over one Redis (`--nodes`, 2 by default, 3 or 4 for the traffic
 * figure), K channels each subscribed on exactly one node (channel k on node k mod N), signed
 * triggers spread round robin over the nodes and the channels. Beside it, the same load on a
 * single daemon. Reports how many bus messages each node receives per event triggered (from its
 * /metrics: ≈ 1/N when each node receives only its channels' events; 1 when every node receives
 * every event) and the deliveries per CPU-second of the daemons.
 */
export const crossNodeRoutedScenario: Scenario = {
  id: 'cross-node-routed',
  title: '8. cross-node routed (Redis)',
  baseline: 'daemon',
  subject: 'daemon-2-nodes',
  metrics: [
    { key: 'bus_per_node_per_event', label: 'bus messages received per node per event', unit: '', better: 'lower' },
    { key: 'deliveries_per_second', label: 'deliveries/s at saturation', unit: '/s', better: 'higher', perServerCore: true },
    { key: 'deliveries_per_daemon_cpu_second', label: 'deliveries per daemon CPU-second at saturation (Redis not counted)', unit: '/s', better: 'higher', target: { atLeast: 0.9 } },
    { key: 'fixed_rate_deliveries_per_daemon_cpu_second', label: 'deliveries per daemon CPU-second at a fixed rate (Redis not counted)', unit: '/s', better: 'higher', target: { atLeast: 0.9 } },
    { key: 'fixed_rate_daemon_cpu_us_per_event', label: 'daemon CPU per event at a fixed rate (Redis not counted)', unit: 'µs', better: 'lower' },
  ],
  describe: (quick) => {
    const s = sizes(quick);
    return (
      `${s.channels} channels x ${s.subscribersPerChannel} subscribers, channel k on node k mod N; signed triggers round robin over the channels, ` +
      `${s.connectionsPerNode} HTTP connections per node: ${s.eventsPerSecond} ev/s for ${s.moderateMs} ms (bus messages per node per event, from each node's /metrics), ` +
      `a closed-loop warm-up of ${s.warmMs} ms, ${s.fixedEventsPerSecond} ev/s for ${s.fixedMs} ms (daemon CPU per event at a fixed rate), ` +
      `then ${s.depth} pipelined per connection (closed loop) for ${s.saturationMs} ms; the daemons and Redis on the server CPU`
    );
  },
  async run(target, context) {
    const s = sizes(context.quick);
    const nodes = target.nodes;
    const groups: SubscriberGroup[] = [];
    for (let k = 0; k < s.channels; k++) groups.push(await subscribeMany(nodes[k % nodes.length]!, s.subscribersPerChannel, () => `routed-${k}`));
    const deliveries = () => groups.reduce((sum, group) => sum + group.counter.deliveries, 0);
    const resetCounts = () => groups.forEach((group) => group.counter.reset());
    const http = (await Promise.all(nodes.map((node) => openHttpConnections(node, s.connectionsPerNode)))).flat();
    // Built once per channel: the connection it goes out on (round robin over every node's) decides the node.
    const requests = Array.from({ length: s.channels }, (_, k) => triggerRequest(nodes[0]!, benchApp, [`routed-${k}`], 'tick', timedData(padding)));
    let next = 0;
    const request = () => requests[next++ % requests.length]!;
    try {
      await pumpAtRate(http, s.eventsPerSecond, 300, 64, request); // warm-up: every topic subscribed, delivery proven
      await sleep(300);
      if (deliveries() === 0) throw new Error('no delivery reached the subscribers');

      // Bus traffic per node per event, at a moderate rate.
      const before = await Promise.all(nodes.map(busMessagesReceived));
      resetCounts();
      const moderate = await pumpAtRate(http, s.eventsPerSecond, s.moderateMs, 64, request);
      await sleep(300);
      if (moderate.failed > 0) throw new Error(`trigger failed: ${moderate.firstError}`);
      const expected = moderate.ok * s.subscribersPerChannel;
      if (deliveries() !== expected) context.log(`  ${deliveries()} deliveries for ${moderate.ok} events (expected ${expected})`);
      const after = await Promise.all(nodes.map(busMessagesReceived));
      const perNode = after.map((count, i) => (count - before[i]!) / moderate.ok);
      if (!perNode.some(Number.isNaN)) context.log(`  bus messages received per event, per node: ${perNode.map((value) => value.toFixed(3)).join(', ')}`);

      // Warm-up at full speed, then daemon CPU for a known amount of work at a fixed rate.
      const daemonCpu = () => target.pids.reduce((sum, pid) => sum + cpuSeconds(pid), 0);
      await pumpClosedLoop(http, s.depth, s.warmMs, request);
      await sleep(300);
      resetCounts();
      const daemonSystemCpu = () => target.pids.reduce((sum, pid) => sum + systemCpuSeconds(pid), 0);
      const fixedCpuBefore = daemonCpu();
      const fixedSystemBefore = daemonSystemCpu();
      const fixed = await pumpAtRate(http, s.fixedEventsPerSecond, s.fixedMs, 512, request);
      await sleep(300);
      const fixedCpu = daemonCpu() - fixedCpuBefore;
      const fixedSystemCpu = daemonSystemCpu() - fixedSystemBefore;
      const fixedDeliveries = deliveries();
      if (fixed.failed > 0) throw new Error(`trigger failed: ${fixed.firstError}`);
      if (fixed.shed > 0) context.log(`  ${fixed.shed} requests shed at ${s.fixedEventsPerSecond} ev/s: the fixed rate saturated this target`);
      // Background: the daemons' CPU with subscribers connected and no events (heartbeats, timers).
      const idleCpuBefore = daemonCpu();
      await sleep(s.idleMs);
      const idleCpuPerSecond = (daemonCpu() - idleCpuBefore) / (s.idleMs / 1000);
      context.log(`  idle: ${(idleCpuPerSecond * 1000).toFixed(0)} ms of daemon CPU per second, all daemons`);
      context.log(`  fixed rate: ${fixed.ok} events, ${fixedDeliveries} deliveries, ${((fixedCpu * 1e6) / fixed.ok).toFixed(1)} µs of daemon CPU per event (${((fixedSystemCpu * 1e6) / fixed.ok).toFixed(1)} µs of it in the kernel)`);

      // Saturation.
      resetCounts();
      const daemonCpuBefore = daemonCpu();
      const cpu = new CpuWindow(() => target.cpu());
      const started = performance.now();
      let inWindow = Number.NaN;
      let daemonCpuInWindow = Number.NaN;
      const snapshot = setTimeout(() => {
        inWindow = deliveries();
        daemonCpuInWindow = daemonCpu() - daemonCpuBefore;
      }, s.saturationMs);
      const saturated = await pumpClosedLoop(http, s.depth, s.saturationMs, request);
      clearTimeout(snapshot);
      if (Number.isNaN(inWindow)) {
        inWindow = deliveries();
        daemonCpuInWindow = daemonCpu() - daemonCpuBefore;
      }
      const usage = cpu.finish();
      const closed = groups.reduce((sum, group) => sum + group.closedCount(), 0);
      if (closed > 0) context.log(`  ${closed} subscribers were closed by the server`);
      return {
        bus_per_node_per_event: perNode.reduce((sum, value) => sum + value, 0) / perNode.length,
        deliveries_per_second: inWindow / Math.min(saturated.seconds, (performance.now() - started) / 1000),
        deliveries_per_daemon_cpu_second: inWindow / daemonCpuInWindow,
        fixed_rate_deliveries_per_daemon_cpu_second: fixedDeliveries / fixedCpu,
        fixed_rate_daemon_cpu_us_per_event: (fixedCpu * 1e6) / fixed.ok,
        fixed_rate_daemon_kernel_cpu_us_per_event: (fixedSystemCpu * 1e6) / fixed.ok,
        idle_daemon_cpu_ms_per_second: idleCpuPerSecond * 1000,
        nodes: nodes.length,
        load_cpu_pct: usage.loadCpuPct,
        server_cpu_pct: usage.serverCpuPct,
      };
    } finally {
      http.forEach((connection) => connection.close());
      groups.forEach((group) => group.closeAll());
    }
  },
};
