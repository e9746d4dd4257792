import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { MessageChannel, Worker } from 'node:worker_threads';
import type { Logger } from '@org/protocol';
import { createScalerHub, type ScalerHub } from '@org/thread-scaler';
import { registerIdempotencyStoreMetrics, registerThreadHubMetrics, sumOfWorkers, type Exposition, type MetricsListener, type WorkerMetrics } from '@org/metrics';
import { Registry } from 'prom-client';
import type { Config } from '../config/schema.js';
import { listenOnMetricsPort } from '../metrics-port.js';
import { idempotencyHost, type IdempotencyHostOfPool } from '../idempotency/idempotency-host.js';
import { rateLimitCounters } from '../rate-limiting/create-rate-limits.js';
import type { SupervisedDaemon } from '../supervisor.js';
import { errorText, type FromWorker, type ToWorker, type WorkerData } from './control.js';
import { pickFreePort } from './free-port.js';
import { holdPort } from './port-lock.js';
import { registerWorkersGauge } from './workers-metric.js';

export interface WorkerPoolOptions {
  config: Config;
  count: number;
  allowUwsFallback: boolean;
  /** The worker thread's script (the built `worker.js` next to `bin.js`). */
  script: URL;
  /** `command.server`: worker life. */
  log: Logger;
  /** A worker's engine asked the cluster to restart (Redis `restart_server`). */
  onClusterRestart(): void;
  /** A worker hit an unexpected error, or its thread ended while it should be serving: the server's failure policy. */
  onFatal(error: Error, origin: string): void;
}

/** How long `/metrics` waits for every worker's registry: a stuck worker must not hang the scrape (it gets a 500). */
const metricsTimeoutMs = 5_000;

/** What a stopping worker gets to end its thread once it answered, before it is terminated. */
const exitGraceMs = 2_000;

interface PoolWorker {
  readonly index: number;
  readonly nodeId: string;
  readonly thread: Worker;
  readonly exited: Promise<void>;
}

/**
 * N worker threads serving one port, as one daemon for the supervisor: `listen`, `stopListening`
 * and `stop` reach every worker, and `/metrics` is their sum. Without Redis the workers share state
 * through a hub in this (the main) thread; with Redis each worker is a node of the cluster.
 */
export class WorkerPool implements SupervisedDaemon {
  readonly #options: WorkerPoolOptions;
  readonly #workers: PoolWorker[] = [];
  readonly #hub: ScalerHub | undefined;
  /** One set of local rate limit counters for every worker, so a limit holds per process, not per worker. */
  readonly #rateLimitCounters: SharedArrayBuffer | undefined;
  /** One idempotency key store for every worker without Redis, so a retry is recognised on any worker. */
  readonly #idempotency: IdempotencyHostOfPool | undefined;
  readonly #answers = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  readonly #mainThreadMetrics: Registry;
  #nextId = 0;
  #port = 0;
  #stopping: Promise<void> | undefined;
  #metricsListener: MetricsListener | undefined;
  /** This process's hold on host:port (port-lock.ts), from `listen` until the pool stops. */
  #releasePort: (() => void) | undefined;

  private constructor(options: WorkerPoolOptions) {
    this.#options = options;
    this.#hub = options.config.scaling.enabled ? undefined : createScalerHub();
    this.#rateLimitCounters = rateLimitCounters(options.config);
    this.#mainThreadMetrics = new Registry();
    registerWorkersGauge(this.#mainThreadMetrics, options.count);
    if (this.#hub) registerThreadHubMetrics(this.#mainThreadMetrics, this.#hub.stats);
    this.#idempotency = idempotencyHost(options.config);
    if (this.#idempotency) registerIdempotencyStoreMetrics(this.#mainThreadMetrics, this.#idempotency.memory);
  }

  /** Starts `count` workers, each with its daemon built and not listening yet. */
  static async start(options: WorkerPoolOptions): Promise<WorkerPool> {
    const pool = new WorkerPool(options);
    try {
      await Promise.all(Array.from({ length: options.count }, (_, index) => pool.#spawn(index)));
    } catch (error) {
      await pool.#terminate();
      throw error;
    }
    return pool;
  }

  get port(): number {
    return this.#port;
  }

  get size(): number {
    return this.#workers.length;
  }

  #spawn(index: number): Promise<void> {
    const { config, allowUwsFallback, script, log } = this.#options;
    const host = hostname().replace(/[^A-Za-z0-9._-]/g, '').slice(0, 60) || 'node';
    const nodeId = `${host}-${process.pid}-${randomBytes(4).toString('hex')}-w${index}`;
    const channel = this.#hub ? new MessageChannel() : undefined;
    const idempotencyChannel = this.#idempotency ? new MessageChannel() : undefined;
    const data: WorkerData = { index, config, allowUwsFallback, nodeId, hubPort: channel?.port2, rateLimitCounters: this.#rateLimitCounters, idempotencyPort: idempotencyChannel?.port2 };
    const transferList = [channel?.port2, idempotencyChannel?.port2].filter((port) => port !== undefined);
    const thread = new Worker(script, { workerData: data, transferList, name: `realtime-worker-${index}` });
    if (channel) this.#hub!.attach(channel.port1, nodeId);
    if (idempotencyChannel) this.#idempotency!.host.attach(idempotencyChannel.port1);
    let onExit!: () => void;
    const exited = new Promise<void>((resolve) => (onExit = resolve));
    const worker: PoolWorker = { index, nodeId, thread, exited };
    this.#workers.push(worker);

    return new Promise<void>((resolve, reject) => {
      let started = false;
      thread.on('message', (message: FromWorker) => {
        switch (message.k) {
          case 'ready':
            started = true;
            resolve();
            return;
          case 'start-failed':
            reject(new Error(message.message));
            return;
          case 'answer': {
            const waiting = this.#answers.get(message.id);
            this.#answers.delete(message.id);
            if (message.ok) waiting?.resolve(message.value);
            else waiting?.reject(new Error(`worker ${index}: ${message.message}`));
            return;
          }
          case 'cluster-restart':
            // Every worker of a Redis cluster hears the restart; a pool already being replaced ignores the late ones.
            if (!this.#stopping) this.#options.onClusterRestart();
            return;
          case 'fatal': {
            const error = new Error(`worker ${index}: ${message.message}`);
            if (message.stack) error.stack = message.stack;
            this.#options.onFatal(error, message.origin);
            return;
          }
          case 'render-metrics':
            void this.renderMetrics().then(
              ({ contentType, body }) => this.#post(worker, { k: 'metrics-answer', id: message.id, ok: true, contentType, body }),
              (error: unknown) => this.#post(worker, { k: 'metrics-answer', id: message.id, ok: false, message: errorText(error) }),
            );
        }
      });
      thread.on('error', (error) => {
        if (!started) reject(error);
        else this.#options.onFatal(error, 'uncaughtException');
      });
      thread.on('exit', (code) => {
        onExit();
        // Its sockets' state is undone and the loss reported to a surviving worker; its idempotency port is let go.
        this.#hub?.detach(nodeId);
        if (idempotencyChannel) this.#idempotency!.host.detach(idempotencyChannel.port1);
        if (!started) reject(new Error(`worker ${index} ended (code ${code}) before it started`));
        else if (!this.#stopping) {
          log.error({ worker: index, code }, 'worker thread ended while serving');
          this.#options.onFatal(new Error(`worker ${index} ended with code ${code} while serving`), 'uncaughtException');
        }
      });
    });
  }

  #post(worker: PoolWorker, message: ToWorker): void {
    try {
      worker.thread.postMessage(message);
    } catch {
      // The thread is gone: its exit handler reports it.
    }
  }

  /** Asks one worker and waits for its answer; the worker's exit fails it. */
  #ask<T>(worker: PoolWorker, message: (id: number) => ToWorker): Promise<T> {
    const id = this.#nextId++;
    return new Promise<T>((resolve, reject) => {
      this.#answers.set(id, { resolve: resolve as (value: unknown) => void, reject });
      void worker.exited.then(() => {
        if (this.#answers.delete(id)) reject(new Error(`worker ${worker.index} ended before it answered`));
      });
      this.#post(worker, message(id));
    });
  }

  /**
   * Every worker listens on one port: the configured one, or for port 0 one picked here (a listen
   * on 0 in each worker would give each its own). Resolves to the port.
   */
  async listen(port?: number): Promise<number> {
    const server = this.#options.config.servers[this.#options.config.default]!;
    const chosen = port ?? (server.port === 0 ? await pickFreePort(server.host) : server.port);
    // Before any worker binds with SO_REUSEPORT: a second server process on this port is refused here.
    const release = await holdPort(server.host, chosen);
    this.#releasePort?.();
    this.#releasePort = release;
    const results = await Promise.allSettled(this.#workers.map((worker) => this.#ask<number>(worker, (id) => ({ k: 'listen', id, port: chosen }))));
    const failed = results.find((result) => result.status === 'rejected');
    if (failed) {
      await this.stopListening();
      throw failed.reason;
    }
    this.#port = chosen;
    const { metrics } = this.#options.config;
    if (metrics.enabled && metrics.port !== undefined) {
      try {
        this.#metricsListener = await listenOnMetricsPort({ host: metrics.host, port: metrics.port }, () => this.renderMetrics());
      } catch (error) {
        await this.stopListening();
        throw error;
      }
      this.#options.log.info({ host: metrics.host, port: this.#metricsListener.port }, 'metrics listening');
    }
    this.#options.log.info({ port: chosen, workers: this.#workers.length, scaling: this.#hub ? 'threads' : 'redis' }, 'workers listening');
    return chosen;
  }

  /**
   * Resolves once every worker has closed its listen socket (so the next daemon of a restart can
   * bind the port, exclusively if it is a lone one). The port lock is kept until `stop`: a failed
   * restart listens again here.
   */
  async stopListening(): Promise<void> {
    const closing = this.#metricsListener?.close();
    this.#metricsListener = undefined;
    await Promise.allSettled(this.#workers.map((worker) => this.#ask(worker, (id) => ({ k: 'stop-listening', id }))));
    await closing;
  }

  /** Every worker drains in parallel (clients get 4200), then its thread ends. */
  stop(reason?: string): Promise<void> {
    this.#stopping ??= (async () => {
      await this.#metricsListener?.close();
      this.#metricsListener = undefined;
      const results = await Promise.allSettled(this.#workers.map((worker) => this.#ask(worker, (id) => ({ k: 'stop', id, reason }))));
      await this.#terminate();
      this.#releasePort?.();
      this.#releasePort = undefined;
      const failed = results.find((result) => result.status === 'rejected');
      if (failed) throw failed.reason;
    })();
    return this.#stopping;
  }

  async #terminate(): Promise<void> {
    this.#stopping ??= Promise.resolve();
    await Promise.all(
      this.#workers.map(async (worker) => {
        const timer = setTimeout(() => void worker.thread.terminate(), exitGraceMs);
        this.#post(worker, { k: 'stop', id: -1, reason: undefined });
        await worker.exited;
        clearTimeout(timer);
      }),
    );
    this.#hub?.close();
    await this.#idempotency?.close();
  }

  /** Tests only: makes the first worker throw an uncaught error (it does so only with REALTIME_TEST_CRASH_WORKER set). */
  crashFirstWorkerForTest(): void {
    const [first] = this.#workers;
    if (first) this.#post(first, { k: 'test-crash' });
  }

  /**
   * `/metrics` for the whole server: every worker's registry summed (counters and gauges; prom-client's
   * cluster aggregation), the process's default metrics once, and `realtime_workers`.
   */
  async renderMetrics(): Promise<Exposition> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`a worker did not answer /metrics within ${metricsTimeoutMs} ms`)), metricsTimeoutMs).unref();
    });
    const perWorker = await Promise.race([Promise.all(this.#workers.map((worker) => this.#ask<WorkerMetrics>(worker, (id) => ({ k: 'metrics', id })))), timeout]).finally(() => clearTimeout(timer));
    return sumOfWorkers(perWorker, this.#mainThreadMetrics);
  }
}
