import { triggerRequest } from '../load/events.js';
import { subscribeMany } from '../load/subscribers.js';
import { benchApp } from '../load/signing.js';
import { openHttpConnections, pumpClosedLoop } from '../load/trigger-pump.js';
import type { HttpConnection } from '../load/http-client.js';
import type { Endpoint } from '../load/pusher-client.js';
import { CpuWindow, sleep } from '../measure/stats.js';
import type { RunningTarget } from '../targets/targets.js';
import type { Scenario } from './scenario.js';

const sizes = (quick: boolean) => ({ windowMs: quick ? 800 : 2_500, warmUpMs: quick ? 300 : 1_000, connections: 4, depth: 16, subscribers: 3 });

/** ~100 bytes of event data, like a typical app event. */
const data = JSON.stringify({ order: 1234, status: 'shipped', note: 'x'.repeat(48) });

async function requestsPerSecond(target: RunningTarget, http: HttpConnection[], endpoint: Endpoint, channel: string, windowMs: number, depth: number, warmUpMs: number) {
  // Signed once: a request stays valid for 600 s, and signing is the client's cost, not the server's.
  const request = triggerRequest(endpoint, benchApp, [channel], 'order.shipped', data);
  // Warm-up long enough for the daemon's HTTP path to be optimised (the first case ran slower with 300 ms).
  await pumpClosedLoop(http, depth, warmUpMs, () => request);
  const cpu = new CpuWindow(() => target.cpu());
  const result = await pumpClosedLoop(http, depth, windowMs, () => request);
  const usage = cpu.finish();
  if (result.failed > 0) throw new Error(`trigger failed: ${result.firstError}`);
  return { rate: result.ok / result.seconds, usage };
}

/** 4. HTTP API: signed trigger requests per second, to a channel with no subscribers and with a few. */
export const httpApiScenario: Scenario = {
  id: 'http-api',
  title: '4. HTTP API',
  baseline: 'ceiling',
  subject: 'daemon',
  metrics: [
    { key: 'empty_channel_rps', label: 'triggers/s, no subscribers', unit: 'req/s', better: 'higher', target: { atLeast: 0.7 }, perServerCore: true },
    { key: 'few_subscribers_rps', label: 'triggers/s, 3 subscribers', unit: 'req/s', better: 'higher', target: { atLeast: 0.7 }, perServerCore: true },
  ],
  describe: (quick) => {
    const s = sizes(quick);
    return `signed POST /apps/{id}/events (~100-byte data), ${s.connections} keep-alive connections x ${s.depth} pipelined (closed loop, like wrk) for ${s.windowMs} ms; the ceiling parses the JSON and publishes without checking the signature`;
  },
  async run(target, context) {
    const s = sizes(context.quick);
    const endpoint = target.nodes[0]!;
    const group = await subscribeMany(endpoint, s.subscribers, () => 'http-few');
    const http = await openHttpConnections(endpoint, s.connections);
    try {
      const empty = await requestsPerSecond(target, http, endpoint, 'http-empty', s.windowMs, s.depth, s.warmUpMs);
      await sleep(100);
      const few = await requestsPerSecond(target, http, endpoint, 'http-few', s.windowMs, s.depth, s.warmUpMs);
      return {
        empty_channel_rps: empty.rate,
        few_subscribers_rps: few.rate,
        load_cpu_pct: (empty.usage.loadCpuPct + few.usage.loadCpuPct) / 2,
        server_cpu_pct: (empty.usage.serverCpuPct + few.usage.serverCpuPct) / 2,
      };
    } finally {
      http.forEach((connection) => connection.close());
      group.closeAll();
    }
  },
};
