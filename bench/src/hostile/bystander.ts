import { quantile } from '../measure/stats.js';
import { PusherClient, type Endpoint } from '../load/pusher-client.js';

/** One ping: when it was sent (performance.now()) and its round trip, ms. */
interface PingSample {
  sentAt: number;
  rttMs: number;
  /** True when the pong had not come back when the prober stopped: rttMs is a lower bound. */
  unanswered: boolean;
}

export interface PingSummary {
  pings: number;
  medianMs: number;
  p99Ms: number;
  maxMs: number;
  /** Pings still waiting for their pong at the end of the window (their wait counts as a lower bound). */
  unanswered: number;
}

const pong = Buffer.from('"pusher:pong"');

/**
 * A well-behaved client sharing the node with the attacker: it sends
 * `pusher:ping` and waits for `pusher:pong`, one at a time, at most one ping
 * per `minIntervalMs` (20 ms = 50 a second, half the default
 * `max_frames_per_second`, so the bystander never trips the limit itself).
 * A node that stalls shows up as long round trips, not as fewer samples only.
 */
export class Bystander {
  readonly #client: PusherClient;
  readonly #minIntervalMs: number;
  readonly #samples: PingSample[] = [];
  #running = false;
  #loop: Promise<void> | undefined;
  #outstanding: { sentAt: number; answered(): void } | undefined;

  private constructor(client: PusherClient, minIntervalMs: number) {
    this.#client = client;
    this.#minIntervalMs = minIntervalMs;
    client.onRawFrame = (buffer, start, end) => {
      if (buffer.subarray(start, end).includes(pong)) this.#outstanding?.answered();
    };
  }

  static async connect(endpoint: Endpoint, appKey: string, minIntervalMs = 20): Promise<Bystander> {
    return new Bystander(await PusherClient.connect(endpoint, appKey), minIntervalMs);
  }

  get closed(): boolean {
    return this.#client.closed;
  }

  /** Pings until `stop()`. */
  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#loop = this.#run();
  }

  /** Stops after the ping in flight; if its pong is late, its wait so far is recorded as a lower bound. */
  async stop(): Promise<void> {
    this.#running = false;
    const outstanding = this.#outstanding;
    if (outstanding) {
      this.#samples.push({ sentAt: outstanding.sentAt, rttMs: performance.now() - outstanding.sentAt, unanswered: true });
      outstanding.answered();
    }
    await this.#loop;
  }

  /** `count` pings, sequential, then stop (the baseline). */
  async measure(count: number): Promise<PingSummary> {
    const from = performance.now();
    for (let i = 0; i < count && !this.#client.closed; i++) await this.#ping();
    return this.summary(from, performance.now());
  }

  /** Pings sent between `from` and `to` (performance.now() values). */
  summary(from: number, to: number): PingSummary {
    const window = this.#samples.filter((sample) => sample.sentAt >= from && sample.sentAt <= to);
    const rtts = window.map((sample) => sample.rttMs);
    return {
      pings: window.length,
      medianMs: quantile(rtts, 0.5),
      p99Ms: quantile(rtts, 0.99),
      maxMs: rtts.length ? Math.max(...rtts) : Number.NaN,
      unanswered: window.filter((sample) => sample.unanswered).length,
    };
  }

  close(): void {
    this.#client.close();
  }

  async #run(): Promise<void> {
    while (this.#running && !this.#client.closed) await this.#ping();
  }

  async #ping(): Promise<void> {
    const sentAt = performance.now();
    await new Promise<void>((resolve) => {
      this.#outstanding = {
        sentAt,
        answered: () => {
          this.#outstanding = undefined;
          resolve();
        },
      };
      this.#client.send({ event: 'pusher:ping', data: {} });
    });
    const rttMs = performance.now() - sentAt;
    // stop() already recorded this one as unanswered when it resolved it.
    if (this.#samples.at(-1)?.sentAt !== sentAt) this.#samples.push({ sentAt, rttMs, unanswered: false });
    const wait = this.#minIntervalMs - rttMs;
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  }
}
