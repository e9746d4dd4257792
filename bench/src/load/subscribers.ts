import { connectMany, PusherClient, type Endpoint } from './pusher-client.js';
import { readSentAt } from './events.js';
import { LatencySamples, sleep } from '../measure/stats.js';
import { benchApp } from './signing.js';

/** Counts every delivered frame; probe sockets also record trigger -> receipt latency. */
export class DeliveryCounter {
  deliveries = 0;
  readonly latency = new LatencySamples();
  /** Latency is only recorded while true (warm-up and drain are excluded). */
  recording = false;
  /** `onReach` runs once when `deliveries` reaches this (flow control without polling). */
  wakeAt = Number.POSITIVE_INFINITY;
  onReach: (() => void) | undefined;

  /** Called by the subscribers' frame handlers. */
  delivered(): void {
    if (++this.deliveries >= this.wakeAt) {
      this.wakeAt = Number.POSITIVE_INFINITY;
      this.onReach?.();
    }
  }

  reset(): void {
    this.deliveries = 0;
    this.latency.reset();
  }
}

export interface SubscriberGroup {
  clients: PusherClient[];
  counter: DeliveryCounter;
  /** Clients the server closed (e.g. for backpressure) since they subscribed. */
  closedCount(): number;
  closeAll(): void;
}

/** Waits until the group's deliveries stop arriving for 150 ms (or 5 s pass). */
export async function settle(group: SubscriberGroup): Promise<void> {
  const deadline = performance.now() + 5_000;
  let last = -1;
  while (group.counter.deliveries !== last && performance.now() < deadline) {
    last = group.counter.deliveries;
    await sleep(150);
  }
}

/**
 * Connects `count` clients, subscribes client i to `channelOf(i)` and
 * switches them to raw counting; every `probeEvery`-th one measures latency.
 */
export async function subscribeMany(
  endpoint: Endpoint,
  count: number,
  channelOf: (index: number) => string,
  options: { probeEvery?: number; concurrency?: number } = {},
): Promise<SubscriberGroup> {
  const counter = new DeliveryCounter();
  const probeEvery = options.probeEvery ?? 1;
  const clients = await connectMany(count, options.concurrency ?? 64, async (index) => {
    const client = await PusherClient.connect(endpoint, benchApp.key);
    await client.subscribe(channelOf(index));
    const probe = index % probeEvery === 0;
    client.onRawFrame = probe
      ? (buffer, start, end) => {
          if (counter.recording) counter.latency.add(performance.now() - readSentAt(buffer, start, end));
          counter.delivered();
        }
      : () => counter.delivered();
    return client;
  });
  return {
    clients,
    counter,
    closedCount: () => clients.filter((client) => client.closed).length,
    closeAll: () => clients.forEach((client) => client.destroy()),
  };
}
