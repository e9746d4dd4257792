import { timedData, triggerRequest } from '../load/events.js';
import { benchApp } from '../load/signing.js';
import { settle, subscribeMany } from '../load/subscribers.js';
import { openHttpConnections, pumpAtRate } from '../load/trigger-pump.js';
import { sleep } from '../measure/stats.js';
import type { RunningTarget } from '../targets/targets.js';
import type { RunResult, Scenario, ScenarioContext } from './scenario.js';

/**
 * Server CPU per unit of work at fixed offered rates, well below saturation: CPU microseconds per
 * delivery (fan-out) and per HTTP trigger (no subscribers). A rate at saturation divided by a CPU
 * share (the per-server-core rows) moves with every scheduling hiccup of a busy 2-core machine;
 * CPU used for a known amount of work does far less. Made for `--workers N` (N workers against 1).
 */
const sizes = (quick: boolean) => ({
  subscribers: quick ? 200 : 1_000,
  fanOutEventsPerSecond: 40,
  fanOutMs: quick ? 1_500 : 4_000,
  requestsPerSecond: quick ? 500 : 2_000,
  requestsMs: quick ? 1_500 : 3_000,
});

const padding = 'x'.repeat(64);

async function runCpuCost(target: RunningTarget, context: ScenarioContext): Promise<RunResult> {
  const s = sizes(context.quick);
  const endpoint = target.nodes[0]!;
  const group = await subscribeMany(endpoint, s.subscribers, () => 'fan', { probeEvery: 1_000_000 });
  const http = await openHttpConnections(endpoint, 4);
  try {
    // Warm-up: JIT, and (with workers) the first messages between threads.
    await pumpAtRate(http, s.fanOutEventsPerSecond, 500, 512, () => triggerRequest(endpoint, benchApp, ['fan'], 'tick', timedData(padding)));
    await settle(group);

    group.counter.reset();
    const fanOutStart = target.cpu();
    const fanOut = await pumpAtRate(http, s.fanOutEventsPerSecond, s.fanOutMs, 512, () => triggerRequest(endpoint, benchApp, ['fan'], 'tick', timedData(padding)));
    await settle(group);
    const fanOutCpu = target.cpu() - fanOutStart;
    const deliveries = group.counter.deliveries;
    if (fanOut.failed > 0) throw new Error(`trigger failed: ${fanOut.firstError}`);

    // Warm-up of the request path in every worker (each thread has its own JIT), then measured.
    await pumpAtRate(http, s.requestsPerSecond, s.requestsMs / 2, 512, () => triggerRequest(endpoint, benchApp, ['nobody-here'], 'tick', timedData(padding)));
    await sleep(200);
    const requestsStart = target.cpu();
    const requests = await pumpAtRate(http, s.requestsPerSecond, s.requestsMs, 512, () => triggerRequest(endpoint, benchApp, ['nobody-here'], 'tick', timedData(padding)));
    const requestsCpu = target.cpu() - requestsStart;
    if (requests.failed > 0) throw new Error(`trigger failed: ${requests.firstError}`);

    const result: RunResult = {
      cpu_us_per_delivery: (fanOutCpu * 1e6) / deliveries,
      cpu_us_per_request: (requestsCpu * 1e6) / requests.ok,
      deliveries,
      requests: requests.ok,
      closed_subscribers: group.closedCount(),
    };
    context.log(`    ${deliveries} deliveries: ${result['cpu_us_per_delivery']!.toFixed(2)} µs CPU each; ${requests.ok} requests: ${result['cpu_us_per_request']!.toFixed(1)} µs CPU each`);
    return result;
  } finally {
    for (const connection of http) connection.close();
    group.closeAll();
  }
}

export const cpuCostScenario: Scenario = {
  id: 'cpu-cost',
  title: '9. CPU per unit',
  baseline: 'ceiling',
  subject: 'daemon',
  metrics: [
    { key: 'cpu_us_per_delivery', label: 'server CPU per delivery (fan-out)', unit: 'µs', better: 'lower' },
    { key: 'cpu_us_per_request', label: 'server CPU per HTTP trigger', unit: 'µs', better: 'lower' },
  ],
  describe: (quick) => {
    const s = sizes(quick);
    return `server CPU (all threads, /proc/<pid>/stat) for a known amount of work at fixed rates below saturation: ${s.subscribers} subscribers of one channel, ${s.fanOutEventsPerSecond} triggers/s for ${s.fanOutMs} ms (CPU per delivery), then ${s.requestsPerSecond} triggers/s to a channel without subscribers for ${s.requestsMs / 2} ms of warm-up and ${s.requestsMs} ms measured (CPU per request); 4 keep-alive HTTP connections`;
  },
  run: runCpuCost,
};
