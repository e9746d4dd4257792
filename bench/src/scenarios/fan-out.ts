import { timedData, triggerRequest } from '../load/events.js';
import { subscribeMany, type SubscriberGroup } from '../load/subscribers.js';
import { benchApp } from '../load/signing.js';
import { openHttpConnections, pumpAtRate } from '../load/trigger-pump.js';
import type { HttpConnection } from '../load/http-client.js';
import type { Endpoint } from '../load/pusher-client.js';
import { CpuWindow, sleep } from '../measure/stats.js';
import type { RunningTarget } from '../targets/targets.js';
import type { RunResult, Scenario, ScenarioContext } from './scenario.js';

const sizes = (quick: boolean) => ({
  subscribers: quick ? 200 : 1_000,
  moderateEventsPerSecond: 50,
  moderateMs: quick ? 1_000 : 3_000,
  stepMs: quick ? 600 : 1_200,
  firstStep: 100,
  maxSteps: quick ? 6 : 9,
});

/** 64 bytes of padding, a typical small event. */
const padding = 'x'.repeat(64);

export interface StepResult {
  offeredEventsPerSecond: number;
  deliveriesPerSecond: number;
  p50: number;
  p99: number;
  loadCpuPct: number;
  serverCpuPct: number;
}

/** Waits until deliveries stop arriving for 150 ms (or 5 s pass). */
async function settle(group: SubscriberGroup): Promise<void> {
  const deadline = performance.now() + 5_000;
  let last = -1;
  while (group.counter.deliveries !== last && performance.now() < deadline) {
    last = group.counter.deliveries;
    await sleep(150);
  }
}

/** Triggers at `eventsPerSecond` for `ms` and measures what arrives. */
export async function measureStep(
  target: RunningTarget,
  group: SubscriberGroup,
  http: HttpConnection[],
  trigger: Endpoint,
  channels: string[],
  eventsPerSecond: number,
  ms: number,
): Promise<StepResult> {
  await settle(group);
  group.counter.reset();
  group.counter.recording = true;
  const cpu = new CpuWindow(() => target.cpu());
  let sent = 0;
  // Only what arrives inside the sending window counts toward the rate: a
  // backlog delivered later is queueing, not throughput.
  const started = performance.now();
  let inWindow = Number.NaN;
  const snapshot = setTimeout(() => (inWindow = group.counter.deliveries), ms);
  const result = await pumpAtRate(http, eventsPerSecond, ms, 512, () =>
    triggerRequest(trigger, benchApp, [channels[sent++ % channels.length]!], 'tick', timedData(padding)),
  );
  clearTimeout(snapshot);
  if (Number.isNaN(inWindow)) inWindow = group.counter.deliveries;
  const windowSeconds = Math.min(result.seconds, (performance.now() - started) / 1000);
  await settle(group);
  const usage = cpu.finish();
  group.counter.recording = false;
  if (result.failed > 0) throw new Error(`trigger failed: ${result.firstError}`);
  return {
    offeredEventsPerSecond: eventsPerSecond,
    deliveriesPerSecond: inWindow / windowSeconds,
    p50: group.counter.latency.percentile(0.5),
    p99: group.counter.latency.percentile(0.99),
    loadCpuPct: usage.loadCpuPct,
    serverCpuPct: usage.serverCpuPct,
  };
}

/**
 * Raises the trigger rate step by step (x2) until deliveries stop growing
 * with it; the step that delivered most is the saturation point.
 */
export async function rampToSaturation(
  run: (eventsPerSecond: number) => Promise<StepResult>,
  firstStep: number,
  maxSteps: number,
  expectedPerEvent: number,
  context: ScenarioContext,
): Promise<StepResult> {
  let best: StepResult | undefined;
  let rate = firstStep;
  for (let step = 0; step < maxSteps; step++, rate *= 2) {
    const result = await run(rate);
    context.log(`    ${rate} ev/s -> ${Math.round(result.deliveriesPerSecond)} deliveries/s, p99 ${result.p99.toFixed(1)} ms, server ${Math.round(result.serverCpuPct)}% CPU`);
    if (!best || result.deliveriesPerSecond > best.deliveriesPerSecond) best = result;
    // Saturated: less than 90% of the offered deliveries arrived.
    if (result.deliveriesPerSecond < 0.9 * rate * expectedPerEvent) break;
  }
  return best!;
}

async function runFanOut(target: RunningTarget, context: ScenarioContext): Promise<RunResult> {
  const { subscribers, moderateEventsPerSecond, moderateMs, stepMs, firstStep, maxSteps } = sizes(context.quick);
  const endpoint = target.nodes[0]!;
  const group = await subscribeMany(endpoint, subscribers, () => 'fanout', { probeEvery: 10 });
  const http = await openHttpConnections(endpoint, 4);
  try {
    const step = (rate: number, ms: number) => measureStep(target, group, http, endpoint, ['fanout'], rate, ms);
    await step(moderateEventsPerSecond, 300); // warm-up
    const moderate = await step(moderateEventsPerSecond, moderateMs);
    const saturation = await rampToSaturation((rate) => step(rate, stepMs), firstStep, maxSteps, subscribers, context);
    const closed = group.closedCount();
    if (closed > 0) context.log(`  ${closed} subscribers were closed by the server (backpressure?)`);
    return {
      deliveries_per_second: saturation.deliveriesPerSecond,
      moderate_p50_ms: moderate.p50,
      moderate_p99_ms: moderate.p99,
      saturation_p50_ms: saturation.p50,
      saturation_p99_ms: saturation.p99,
      saturation_events_per_second: saturation.offeredEventsPerSecond,
      closed_subscribers: closed,
      load_cpu_pct: saturation.loadCpuPct,
      server_cpu_pct: saturation.serverCpuPct,
    };
  } finally {
    http.forEach((connection) => connection.close());
    group.closeAll();
  }
}

/** 2. Fan-out: one channel, many subscribers, HTTP triggers at stepped rates. */
export const fanOutScenario: Scenario = {
  id: 'fan-out',
  title: '2. fan-out',
  baseline: 'ceiling',
  subject: 'daemon',
  metrics: [
    { key: 'deliveries_per_second', label: 'deliveries/s at saturation', unit: '/s', better: 'higher', target: { atLeast: 0.85 } },
    { key: 'moderate_p50_ms', label: 'latency p50 at 50 ev/s', unit: 'ms', better: 'lower' },
    { key: 'moderate_p99_ms', label: 'latency p99 at 50 ev/s', unit: 'ms', better: 'lower', target: { atMost: 1.5 } },
    { key: 'saturation_p50_ms', label: 'latency p50 at saturation', unit: 'ms', better: 'lower' },
    { key: 'saturation_p99_ms', label: 'latency p99 at saturation', unit: 'ms', better: 'lower' },
  ],
  describe: (quick) => {
    const s = sizes(quick);
    return `${s.subscribers} subscribers of one public channel; signed HTTP triggers (~100-byte data) at ${s.moderateEventsPerSecond} ev/s for latency, then ${s.firstStep} ev/s doubling every ${s.stepMs} ms until fewer than 90% of the deliveries arrive; latency on every 10th subscriber`;
  },
  run: runFanOut,
};
