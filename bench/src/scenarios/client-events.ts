import { readSentAt } from '../load/events.js';
import { connectMany, PusherClient } from '../load/pusher-client.js';
import { benchApp, privateChannelAuth } from '../load/signing.js';
import { CpuWindow, LatencySamples, sleep } from '../measure/stats.js';
import type { Scenario } from './scenario.js';

const sizes = (quick: boolean) => ({ pairs: quick ? 50 : 200, window: 4, windowMs: quick ? 1_000 : 3_000 });

/** 5. Client events: pairs of clients on private channels bouncing `client-*` events. */
export const clientEventsScenario: Scenario = {
  id: 'client-events',
  title: '5. client events',
  baseline: 'ceiling',
  subject: 'daemon',
  metrics: [
    { key: 'messages_per_second', label: 'client events/s', unit: '/s', better: 'higher', target: { atLeast: 0.8 }, perServerCore: true },
    { key: 'p50_ms', label: 'latency p50 (saturated)', unit: 'ms', better: 'lower' },
    { key: 'p99_ms', label: 'latency p99 (saturated)', unit: 'ms', better: 'lower' },
  ],
  describe: (quick) => {
    const s = sizes(quick);
    return `${s.pairs} pairs of clients, each pair on its own private channel; each receipt is answered with a new client event, ${s.window} in flight per pair (closed loop) for ${s.windowMs} ms`;
  },
  async run(target, context) {
    const s = sizes(context.quick);
    const endpoint = target.nodes[0]!;
    const channelOf = (index: number) => `private-pair-${index >> 1}`;
    const clients = await connectMany(s.pairs * 2, 64, async (index) => {
      const client = await PusherClient.connect(endpoint, benchApp.key);
      const channel = channelOf(index);
      await client.subscribe(channel, { auth: privateChannelAuth(benchApp, client.socketId, channel) });
      return client;
    });
    let received = 0;
    let recording = false;
    let running = true;
    const latency = new LatencySamples();
    const prefixes = clients.map((_, index) => `{"event":"client-bounce","channel":"${channelOf(index)}","data":{"sent_at":`);
    const send = (index: number) => clients[index]!.sendText(`${prefixes[index]}${performance.now().toFixed(3)}}}`);
    clients.forEach((client, index) => {
      client.onRawFrame = (buffer, start, end) => {
        received++;
        if (recording) latency.add(performance.now() - readSentAt(buffer, start, end));
        if (running) send(index);
      };
    });
    try {
      for (let pair = 0; pair < s.pairs; pair++) for (let i = 0; i < s.window; i++) send(pair * 2);
      await sleep(300); // warm-up
      received = 0;
      recording = true;
      const cpu = new CpuWindow(() => target.cpu());
      await sleep(s.windowMs);
      const count = received;
      const usage = cpu.finish();
      recording = false;
      running = false;
      const closed = clients.filter((client) => client.closed).length;
      if (count === 0) throw new Error(`no client event arrived (${closed} clients closed)`);
      return {
        messages_per_second: count / usage.seconds,
        p50_ms: latency.percentile(0.5),
        p99_ms: latency.percentile(0.99),
        load_cpu_pct: usage.loadCpuPct,
        server_cpu_pct: usage.serverCpuPct,
      };
    } finally {
      running = false;
      clients.forEach((client) => client.destroy());
    }
  },
};
