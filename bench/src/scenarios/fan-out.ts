import { timedData, triggerRequest } from '../load/events.js';
import { settle, subscribeMany, type SubscriberGroup } from '../load/subscribers.js';
import { benchApp } from '../load/signing.js';
import { openHttpConnections, pumpAtRate, pumpWindowed } from '../load/trigger-pump.js';
import type { HttpConnection } from '../load/http-client.js';
import type { Endpoint } from '../load/pusher-client.js';
import { CpuWindow } from '../measure/stats.js';
import type { RunningTarget } from '../targets/targets.js';
import type { RunResult, Scenario, ScenarioContext } from './scenario.js';

const sizes = (quick: boolean) => ({
  subscribers: quick ? 200 : 1_000,
  moderateEventsPerSecond: 50,
  moderateMs: quick ? 1_000 : 3_000,
  stepMs: quick ? 600 : 1_200,
  firstStep: 100,
  maxSteps: quick ? 5 : 8,
  windowEvents: 32,
  saturationMs: quick ? 1_000 : 2_500,
});

/** 64 bytes of padding, a typical small event. */
const padding = 'x'.repeat(64);

interface StepResult {
  offeredEventsPerSecond: number;
  deliveriesPerSecond: number;
  p50: number;
  p99: number;
  loadCpuPct: number;
  serverCpuPct: number;
}

/** Triggers at `eventsPerSecond` for `ms` and measures what arrives. */
async function measureStep(
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
 * Raises the trigger rate step by step (x2) until fewer than 90% of the
 * offered deliveries arrive; returns every step (the latency/throughput curve).
 */
async function rampUntilSaturated(
  run: (eventsPerSecond: number) => Promise<StepResult>,
  firstStep: number,
  maxSteps: number,
  expectedPerEvent: number,
  context: ScenarioContext,
): Promise<StepResult[]> {
  const steps: StepResult[] = [];
  for (let step = 0, rate = firstStep; step < maxSteps; step++, rate *= 2) {
    const result = await run(rate);
    steps.push(result);
    context.log(`    ${rate} ev/s -> ${Math.round(result.deliveriesPerSecond)} deliveries/s, p99 ${result.p99.toFixed(1)} ms, server ${Math.round(result.serverCpuPct)}% CPU, load ${Math.round(result.loadCpuPct)}% CPU`);
    if (result.deliveriesPerSecond < 0.9 * rate * expectedPerEvent) break;
  }
  return steps;
}

/** The flow-controlled maximum: deliveries/s with at most `windowEvents` events in flight. */
async function measureSaturation(
  target: RunningTarget,
  group: SubscriberGroup,
  http: HttpConnection[],
  trigger: Endpoint,
  channel: string,
  perEvent: number,
  windowEvents: number,
  ms: number,
): Promise<StepResult> {
  await settle(group);
  group.counter.reset();
  group.counter.recording = true;
  const cpu = new CpuWindow(() => target.cpu());
  const result = await pumpWindowed(http, group.counter, perEvent, windowEvents, ms, () =>
    triggerRequest(trigger, benchApp, [channel], 'tick', timedData(padding)),
  );
  const usage = cpu.finish();
  await settle(group);
  group.counter.recording = false;
  if (result.failed > 0) throw new Error(`trigger failed: ${result.firstError}`);
  return {
    offeredEventsPerSecond: result.ok / result.seconds,
    deliveriesPerSecond: result.deliveries / result.seconds,
    p50: group.counter.latency.percentile(0.5),
    p99: group.counter.latency.percentile(0.99),
    loadCpuPct: usage.loadCpuPct,
    serverCpuPct: usage.serverCpuPct,
  };
}

async function runFanOut(target: RunningTarget, context: ScenarioContext): Promise<RunResult> {
  const { subscribers, moderateEventsPerSecond, moderateMs, stepMs, firstStep, maxSteps, windowEvents, saturationMs } = sizes(context.quick);
  const endpoint = target.nodes[0]!;
  const group = await subscribeMany(endpoint, subscribers, () => 'fanout', { probeEvery: 10 });
  const http = await openHttpConnections(endpoint, 4);
  try {
    const step = (rate: number, ms: number) => measureStep(target, group, http, endpoint, ['fanout'], rate, ms);
    await step(moderateEventsPerSecond, 300); // warm-up
    const moderate = await step(moderateEventsPerSecond, moderateMs);
    const steps = await rampUntilSaturated((rate) => step(rate, stepMs), firstStep, maxSteps, subscribers, context);
    const saturation = await measureSaturation(target, group, http, endpoint, 'fanout', subscribers, windowEvents, saturationMs);
    context.log(`    flow-controlled (${windowEvents} events in flight): ${Math.round(saturation.deliveriesPerSecond)} deliveries/s, p99 ${saturation.p99.toFixed(1)} ms, server ${Math.round(saturation.serverCpuPct)}% CPU, load ${Math.round(saturation.loadCpuPct)}% CPU`);
    const closed = group.closedCount();
    if (closed > 0) context.log(`  ${closed} subscribers were closed by the server (backpressure?)`);
    const curve: RunResult = {};
    for (const s of steps) {
      curve[`step_${s.offeredEventsPerSecond}_deliveries_per_second`] = s.deliveriesPerSecond;
      curve[`step_${s.offeredEventsPerSecond}_p99_ms`] = s.p99;
    }
    return {
      deliveries_per_second: saturation.deliveriesPerSecond,
      moderate_p50_ms: moderate.p50,
      moderate_p99_ms: moderate.p99,
      saturation_p50_ms: saturation.p50,
      saturation_p99_ms: saturation.p99,
      best_step_deliveries_per_second: Math.max(...steps.map((s) => s.deliveriesPerSecond)),
      closed_subscribers: closed,
      load_cpu_pct: saturation.loadCpuPct,
      server_cpu_pct: saturation.serverCpuPct,
      ...curve,
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
    { key: 'deliveries_per_second', label: 'deliveries/s at saturation', unit: '/s', better: 'higher', target: { atLeast: 0.85 }, perServerCore: true },
    { key: 'moderate_p50_ms', label: 'latency p50 at 50 ev/s', unit: 'ms', better: 'lower' },
    { key: 'moderate_p99_ms', label: 'latency p99 at 50 ev/s', unit: 'ms', better: 'lower', target: { atMost: 1.5 } },
    { key: 'saturation_p50_ms', label: 'latency p50 at saturation', unit: 'ms', better: 'lower' },
    { key: 'saturation_p99_ms', label: 'latency p99 at saturation', unit: 'ms', better: 'lower' },
  ],
  describe: (quick) => {
    const s = sizes(quick);
    return `${s.subscribers} subscribers of one public channel; signed HTTP triggers (~100-byte data) at ${s.moderateEventsPerSecond} ev/s for latency, then open-loop steps from ${s.firstStep} ev/s doubling every ${s.stepMs} ms until fewer than 90% of the deliveries arrive; saturation = flow-controlled loop with at most ${s.windowEvents} events in flight for ${s.saturationMs} ms (robust to scheduling hiccups of a shared machine); latency on every 10th subscriber`;
  },
  run: runFanOut,
};
