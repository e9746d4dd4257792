import { connectMany, PusherClient, type PusherFrame } from '../load/pusher-client.js';
import { benchApp, presenceChannelAuth } from '../load/signing.js';
import { CpuWindow, LatencySamples, sleep } from '../measure/stats.js';
import type { Scenario } from './scenario.js';

const sizes = (quick: boolean) => ({ channels: quick ? 10 : 20, churners: quick ? 40 : 100, windowMs: quick ? 1_000 : 3_000 });

function userIdOf(frame: PusherFrame): string | undefined {
  if (typeof frame.data !== 'string') return undefined;
  return (JSON.parse(frame.data) as { user_id?: string }).user_id;
}

/** 6. Presence churn: clients joining and leaving presence channels watched by one observer each. */
export const presenceChurnScenario: Scenario = {
  id: 'presence-churn',
  title: '6. presence churn',
  baseline: 'ceiling',
  subject: 'daemon',
  metrics: [
    { key: 'joins_per_second', label: 'presence joins/s', unit: '/s', better: 'higher', perServerCore: true },
    { key: 'member_added_p50_ms', label: 'member_added latency p50', unit: 'ms', better: 'lower' },
    { key: 'member_added_p99_ms', label: 'member_added latency p99', unit: 'ms', better: 'lower' },
  ],
  describe: (quick) => {
    const s = sizes(quick);
    return `${s.channels} presence channels with one observer each; ${s.churners} clients loop join (new user id each time) -> subscription_succeeded -> leave, for ${s.windowMs} ms; latency from the join frame to the observer's member_added`;
  },
  async run(target, context) {
    const s = sizes(context.quick);
    const endpoint = target.nodes[0]!;
    const channelOf = (index: number) => `presence-churn-${index % s.channels}`;
    const joinSentAt = new Map<string, number>();
    const latency = new LatencySamples();
    let recording = false;
    let removed = 0;

    const join = (client: PusherClient, channel: string, userId: string) => {
      const channelData = JSON.stringify({ user_id: userId, user_info: { name: userId } });
      joinSentAt.set(userId, performance.now());
      return client.subscribe(channel, { auth: presenceChannelAuth(benchApp, client.socketId, channel, channelData), channel_data: channelData });
    };

    const observers = await connectMany(s.channels, 32, async (index) => {
      const client = await PusherClient.connect(endpoint, benchApp.key);
      await join(client, channelOf(index), `observer-${index}`);
      client.onFrame = (frame) => {
        if (frame.event === 'pusher_internal:member_removed') removed++;
        if (frame.event !== 'pusher_internal:member_added') return;
        const userId = userIdOf(frame);
        const sentAt = userId === undefined ? undefined : joinSentAt.get(userId);
        if (sentAt !== undefined && recording) latency.add(performance.now() - sentAt);
        if (userId !== undefined) joinSentAt.delete(userId);
      };
      return client;
    });
    const churners = await connectMany(s.churners, 32, () => PusherClient.connect(endpoint, benchApp.key));

    let running = true;
    let joins = 0;
    const loops = churners.map(async (client, index) => {
      const channel = channelOf(index);
      for (let round = 0; running; round++) {
        await join(client, channel, `user-${index}-${round}`);
        joins++;
        client.unsubscribe(channel);
      }
    });
    try {
      await sleep(300); // warm-up
      joins = 0;
      removed = 0;
      recording = true;
      const cpu = new CpuWindow(() => target.cpu());
      await sleep(s.windowMs);
      const count = joins;
      const usage = cpu.finish();
      recording = false;
      running = false;
      await Promise.race([Promise.allSettled(loops), sleep(2_000)]);
      if (count === 0) throw new Error('no presence join completed');
      if (removed === 0) throw new Error('observers saw no member_removed');
      return {
        joins_per_second: count / usage.seconds,
        member_added_p50_ms: latency.percentile(0.5),
        member_added_p99_ms: latency.percentile(0.99),
        load_cpu_pct: usage.loadCpuPct,
        server_cpu_pct: usage.serverCpuPct,
      };
    } finally {
      running = false;
      [...observers, ...churners].forEach((client) => client.destroy());
    }
  },
};
