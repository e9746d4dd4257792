/** The q-quantile (0..1) of `values` by nearest rank; NaN when empty. */
export function quantile(values: ArrayLike<number>, q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = Float64Array.from(values).sort();
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank]!;
}

export function median(values: number[]): number {
  return quantile(values.filter((value) => !Number.isNaN(value)), 0.5);
}

/** Latency samples in ms, kept in a growable typed array (no per-sample objects). */
export class LatencySamples {
  #values = new Float64Array(4096);
  #length = 0;

  add(ms: number): void {
    if (Number.isNaN(ms)) return;
    if (this.#length === this.#values.length) {
      const grown = new Float64Array(this.#values.length * 2);
      grown.set(this.#values);
      this.#values = grown;
    }
    this.#values[this.#length++] = ms;
  }

  get count(): number {
    return this.#length;
  }

  reset(): void {
    this.#length = 0;
  }

  percentile(q: number): number {
    return quantile(this.#values.subarray(0, this.#length), q);
  }
}

/** Measures this process's CPU (the load generator's) and the server's over one window. */
export class CpuWindow {
  readonly #startWall = performance.now();
  readonly #startLoad = process.cpuUsage();
  readonly #startServer: number;

  constructor(private readonly serverCpu: () => number) {
    this.#startServer = serverCpu();
  }

  /** Percent of one core used by the load generator and by the server since the window opened. */
  finish(): { loadCpuPct: number; serverCpuPct: number; seconds: number } {
    const seconds = (performance.now() - this.#startWall) / 1000;
    const load = process.cpuUsage(this.#startLoad);
    return {
      seconds,
      loadCpuPct: ((load.user + load.system) / 1e6 / seconds) * 100,
      serverCpuPct: ((this.serverCpu() - this.#startServer) / seconds) * 100,
    };
  }
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
