import { timedData, triggerRequest } from '../load/events.js';
import { subscribeMany } from '../load/subscribers.js';
import { benchApp } from '../load/signing.js';
import { openHttpConnections, pumpAtRate, pumpClosedLoop } from '../load/trigger-pump.js';
import { CpuWindow, sleep } from '../measure/stats.js';
import type { Scenario } from './scenario.js';

const sizes = (quick: boolean) => ({
  subscribers: quick ? 20 : 100,
  eventsPerSecond: 100,
  moderateMs: quick ? 1_000 : 3_000,
  saturationMs: quick ? 800 : 2_500,
});

const padding = 'x'.repeat(64);

/**
 * 7. Two daemons over Redis: triggers on node 1, subscribers on node 2,
 * beside the same load on a single daemon.
 */
export const crossNodeScenario: Scenario = {
  id: 'cross-node',
  title: '7. cross-node (Redis)',
  baseline: 'daemon',
  subject: 'daemon-2-nodes',
  metrics: [
    { key: 'p50_ms', label: 'latency p50 at 100 ev/s', unit: 'ms', better: 'lower' },
    { key: 'p99_ms', label: 'latency p99 at 100 ev/s', unit: 'ms', better: 'lower' },
    { key: 'deliveries_per_second', label: 'deliveries/s at saturation', unit: '/s', better: 'higher', perServerCore: true },
  ],
  describe: (quick) => {
    const s = sizes(quick);
    return `${s.subscribers} subscribers of one channel on the last node, signed triggers sent to the first node (the same node when there is one): ${s.eventsPerSecond} ev/s for ${s.moderateMs} ms for latency, then 2 connections x 16 pipelined (closed loop) for ${s.saturationMs} ms; both daemons and Redis on the server CPU`;
  },
  async run(target, context) {
    const s = sizes(context.quick);
    const triggerNode = target.nodes[0]!;
    const subscriberNode = target.nodes[target.nodes.length - 1]!;
    const group = await subscribeMany(subscriberNode, s.subscribers, () => 'cross');
    const http = await openHttpConnections(triggerNode, 2);
    const request = () => triggerRequest(triggerNode, benchApp, ['cross'], 'tick', timedData(padding));
    try {
      await pumpAtRate(http, s.eventsPerSecond, 300, 64, request); // warm-up, and proof that delivery crosses nodes
      await sleep(300);
      if (group.counter.deliveries === 0) throw new Error('no delivery reached the subscriber node (is scaling wired into the daemon?)');
      group.counter.reset();
      group.counter.recording = true;
      const moderate = await pumpAtRate(http, s.eventsPerSecond, s.moderateMs, 64, request);
      await sleep(300);
      group.counter.recording = false;
      if (moderate.failed > 0) throw new Error(`trigger failed: ${moderate.firstError}`);
      const p50 = group.counter.latency.percentile(0.5);
      const p99 = group.counter.latency.percentile(0.99);

      group.counter.reset();
      const cpu = new CpuWindow(() => target.cpu());
      const started = performance.now();
      let inWindow = Number.NaN;
      const snapshot = setTimeout(() => (inWindow = group.counter.deliveries), s.saturationMs);
      const saturated = await pumpClosedLoop(http, 16, s.saturationMs, request);
      clearTimeout(snapshot);
      if (Number.isNaN(inWindow)) inWindow = group.counter.deliveries;
      const usage = cpu.finish();
      const closed = group.closedCount();
      if (closed > 0) context.log(`  ${closed} subscribers were closed by the server`);
      return {
        p50_ms: p50,
        p99_ms: p99,
        deliveries_per_second: inWindow / Math.min(saturated.seconds, (performance.now() - started) / 1000),
        load_cpu_pct: usage.loadCpuPct,
        server_cpu_pct: usage.serverCpuPct,
      };
    } finally {
      http.forEach((connection) => connection.close());
      group.closeAll();
    }
  },
};
