import { timedData, triggerRequest } from '../load/events.js';
import { subscribeMany } from '../load/subscribers.js';
import { benchApp } from '../load/signing.js';
import { openHttpConnections, pumpClosedLoop } from '../load/trigger-pump.js';
import { CpuWindow, sleep } from '../measure/stats.js';
import type { Scenario } from './scenario.js';

const sizes = (quick: boolean) => ({
  channels: quick ? 200 : 1_000,
  subscribersPerChannel: 3,
  windowMs: quick ? 1_000 : 3_000,
  connections: 4,
  depth: 16,
});

const padding = 'x'.repeat(64);

/** 3. Many channels with a few subscribers each, triggers round-robin. */
export const manyChannelsScenario: Scenario = {
  id: 'many-channels',
  title: '3. many channels',
  baseline: 'ceiling',
  subject: 'daemon',
  metrics: [
    { key: 'deliveries_per_second', label: 'deliveries/s at saturation', unit: '/s', better: 'higher', perServerCore: true },
    { key: 'triggers_per_second', label: 'triggers/s at saturation', unit: '/s', better: 'higher' },
    { key: 'p99_ms', label: 'latency p99 at saturation', unit: 'ms', better: 'lower' },
  ],
  describe: (quick) => {
    const s = sizes(quick);
    return `${s.channels.toLocaleString('en')} public channels x ${s.subscribersPerChannel} subscribers; signed HTTP triggers round-robin over the channels, ${s.connections} connections x ${s.depth} pipelined (closed loop) for ${s.windowMs} ms`;
  },
  async run(target, context) {
    const s = sizes(context.quick);
    const endpoint = target.nodes[0]!;
    const group = await subscribeMany(endpoint, s.channels * s.subscribersPerChannel, (i) => `many-${i % s.channels}`, { concurrency: 100 });
    const http = await openHttpConnections(endpoint, s.connections);
    try {
      let next = 0;
      const request = () => triggerRequest(endpoint, benchApp, [`many-${next++ % s.channels}`], 'tick', timedData(padding));
      await pumpClosedLoop(http, s.depth, 300, request); // warm-up
      await sleep(200);
      group.counter.reset();
      group.counter.recording = true;
      const cpu = new CpuWindow(() => target.cpu());
      const result = await pumpClosedLoop(http, s.depth, s.windowMs, request);
      const deliveries = group.counter.deliveries;
      const usage = cpu.finish();
      await sleep(200);
      group.counter.recording = false;
      if (result.failed > 0) throw new Error(`trigger failed: ${result.firstError}`);
      return {
        deliveries_per_second: deliveries / result.seconds,
        triggers_per_second: result.ok / result.seconds,
        p99_ms: group.counter.latency.percentile(0.99),
        load_cpu_pct: usage.loadCpuPct,
        server_cpu_pct: usage.serverCpuPct,
      };
    } finally {
      http.forEach((connection) => connection.close());
      group.closeAll();
    }
  },
};
