import { subscribeMany } from '../load/subscribers.js';
import { CpuWindow, sleep } from '../measure/stats.js';
import { daemonHeapUsed } from '../targets/daemon-heap.js';
import type { Scenario } from './scenario.js';

const sizes = (quick: boolean) => ({ connections: quick ? 1_000 : 10_000, channels: 100 });

/** 1. Idle: many connections, each subscribed to a public channel. */
export const idleScenario: Scenario = {
  id: 'idle',
  title: '1. idle connections',
  baseline: 'ceiling',
  subject: 'daemon',
  metrics: [
    { key: 'rss_per_connection', label: 'RSS per idle connection', unit: 'bytes', better: 'lower', target: { atMost: 1.3 } },
    { key: 'connect_rate', label: 'connect + subscribe rate', unit: 'conn/s', better: 'higher' },
  ],
  describe: (quick) => {
    const { connections, channels } = sizes(quick);
    return `${connections.toLocaleString('en')} connections, each subscribed to one of ${channels} public channels; 100 handshakes in flight`;
  },
  async run(target, context) {
    const { connections, channels } = sizes(context.quick);
    await sleep(300);
    const endpoint = target.nodes[0]!;
    const heap = () => (target.kind === 'ceiling' ? Promise.resolve(Number.NaN) : daemonHeapUsed(endpoint));
    const heapBefore = await heap();
    const rssBefore = target.rss();
    const cpu = new CpuWindow(() => target.cpu());
    const started = performance.now();
    const group = await subscribeMany(endpoint, connections, (i) => `idle-${i % channels}`, { concurrency: 100 });
    const seconds = (performance.now() - started) / 1000;
    const usage = cpu.finish();
    // Let lazy allocations and the first GCs settle before reading memory.
    await sleep(1_000);
    const rssAfter = target.rss();
    const heapAfter = await heap();
    const closed = group.closedCount();
    group.closeAll();
    if (closed > 0) context.log(`  ${closed} idle connections were closed by the server`);
    return {
      rss_per_connection: (rssAfter - rssBefore) / connections,
      connect_rate: connections / seconds,
      heap_per_connection: (heapAfter - heapBefore) / connections,
      load_cpu_pct: usage.loadCpuPct,
      server_cpu_pct: usage.serverCpuPct,
    };
  },
};
