import { createStaticAppProvider, RealtimeServer, type Scaler } from '@org/protocol';
import { createPusherApiHandler, type PusherApiOptions } from '@org/rest-api';
import { createRateLimitedReporter, createUwsServer, type UwsServer } from '@org/transport-uws';
import { createWebhooks } from '@org/webhooks';
import { createMetrics, registerIdempotencyMetrics, registerIdempotencyStoreMetrics, type Metrics, type MetricsListener } from '@org/metrics';
import type { MessagePort } from 'node:worker_threads';
import type { Config } from './config/schema.js';
import { checkTlsFiles } from './config/tls-files.js';
import { toApp } from './config/to-apps.js';
import { withOperationalRoutes } from './http/operational-routes.js';
import { countedStore } from './idempotency/counted-store.js';
import { createIdempotency } from './idempotency/create-idempotency.js';
import type { Logging } from './logging.js';
import { listenOnMetricsPort } from './metrics-port.js';
import { createRateLimits } from './rate-limiting/create-rate-limits.js';
import { createConfiguredScaler } from './scaling/create-scaler.js';
import { registerWorkersGauge } from './workers/workers-metric.js';

export interface DaemonOptions {
  config: Config;
  logging: Logging;
  /** Cluster state and bus. Default: the Redis scaler when `scaling.enabled`, else the in-memory one. */
  scaler?: Scaler | undefined;
  /** Accept uWebSockets.js's slow JavaScript emulation. */
  allowUwsFallback?: boolean;
  /** Called when another node or `restart_server` asks the whole cluster to restart. */
  onClusterRestart?: () => void;
  /**
   * One worker thread of several (`workers` > 1): the port is shared with the other workers
   * (SO_REUSEPORT), `/metrics` on it answers `renderMetrics` (the sum over workers, made by the main
   * thread, which also runs `metrics.port`'s listener), and the process's default metrics are left
   * to the main thread. `nodeId` names this worker as a Redis node. `rateLimitCounters` are the
   * process's local rate limit counters, shared with the other workers; `idempotencyPort` reaches
   * the process's idempotency key store in the main thread (without Redis).
   */
  worker?: { renderMetrics: Metrics['render']; nodeId: string; rateLimitCounters?: SharedArrayBuffer | undefined; idempotencyPort?: MessagePort | undefined } | undefined;
}

export interface Daemon {
  readonly engine: RealtimeServer;
  readonly metrics: Metrics;
  /** The port listened on (after `listen`). */
  readonly port: number;
  /** Starts accepting WebSockets and HTTP on `port` (default: the configured one); resolves to the port. */
  listen(port?: number): Promise<number>;
  /** Stops accepting (the port is free once it resolves); open connections stay until `stop`. */
  stopListening(): Promise<void>;
  /** Stops accepting, tells clients to reconnect (4200), waits for in-flight HTTP, releases state. */
  stop(reason?: string): Promise<void>;
}

/**
 * Wires engine, scaler, HTTP API and transport for the configured default
 * server, without listening yet: a restart builds the next daemon first, so
 * the port is handed over with no gap in which reconnecting clients are refused.
 */
export async function createDaemon(options: DaemonOptions): Promise<Daemon> {
  const { config, logging } = options;
  const serverConfig = config.servers[config.default];
  if (!serverConfig) throw new Error(`default: no server named "${config.default}"`);
  const log = logging.scope('socket.server');

  const apps = createStaticAppProvider(config.applications.map((app) => toApp(app, serverConfig, config.rate_limiter)));
  const { worker } = options;
  const configuredScaler = options.scaler ? undefined : createConfiguredScaler(config, logging, worker ? { nodeId: worker.nodeId } : {});
  const scaler = options.scaler ?? configuredScaler?.scaler;
  const engine = new RealtimeServer({
    apps,
    ...(scaler ? { scaler } : {}),
    logger: (scope) => logging.scope(scope),
    protocolVersion: Number(serverConfig.protocol_version),
  });
  const metrics = createMetrics(worker ? { processMetrics: false } : {});
  if (!worker) registerWorkersGauge(metrics.registry, 1);
  metrics.observe(engine);
  if (configuredScaler) metrics.observeScaler(configuredScaler.stats);
  const rateLimits = createRateLimits(config, log, { counters: worker?.rateLimitCounters, onRefused: (appId, kind) => metrics.recordRateLimited(appId, kind) });
  await rateLimits?.ready();
  const idempotency = createIdempotency(config, { port: worker?.idempotencyPort });
  const idempotencyObserver = registerIdempotencyMetrics(metrics.registry);
  if (idempotency?.memory) registerIdempotencyStoreMetrics(metrics.registry, idempotency.memory);
  logging.setDebugApps(config.applications.filter((app) => app.enable_debug).map((app) => app.id));
  const webhooks = createWebhooks({ events: engine.events, apps: config.applications, logger: logging.scope('webhooks'), observer: metrics.webhookObserver });
  metrics.observeWebhooks(() => webhooks.queues());

  const apiOptions: PusherApiOptions = {
    server: engine,
    maxRequestSize: serverConfig.max_request_size,
    pathPrefix: serverConfig.path,
    // The API emits `http.api.response` on the engine's events itself.
    onResponse: ({ app, method, status }) => metrics.recordHttp(app?.id, method, status),
    ...(rateLimits ? { rateLimit: rateLimits.rateLimit } : {}),
    ...(idempotency ? { idempotency: countedStore(idempotency.store, idempotencyObserver) } : {}),
  };
  // Every HTTP route (health, metrics, then the API's endpoints, preflights, 404/405) is answered from plain values on uWS.
  const http = withOperationalRoutes(createPusherApiHandler(apiOptions), {
    server: engine,
    pathPrefix: serverConfig.path,
    maxRequestSize: serverConfig.max_request_size,
    // On the public port only when enabled and not moved to a listener of its own (404 otherwise).
    metrics: config.metrics.enabled && config.metrics.port === undefined ? (worker?.renderMetrics ?? (() => metrics.render())) : undefined,
    onResponse: ({ method, status }) => metrics.recordHttp(undefined, method, status),
  });

  const tls = serverConfig.options.tls ? await checkTlsFiles(serverConfig.options.tls) : undefined;
  // A bug hit on every frame must not flood the log: the first of each kind at once, then one a minute with a count.
  const logTransportError = createRateLimitedReporter({
    write: (error, where, suppressed) => log.error({ err: error, where, suppressed }, 'an exception escaped the engine into a transport callback; caught, the server keeps running'),
  });
  const transport: UwsServer = await createUwsServer({
    server: engine,
    plain: http,
    host: serverConfig.host,
    port: serverConfig.port,
    path: serverConfig.path,
    tls,
    maxRequestSize: serverConfig.max_request_size,
    maxRequestHeadSize: serverConfig.max_request_head_size,
    allowFallback: options.allowUwsFallback ?? false,
    // Workers share the port; a lone daemon holds it exclusively (a second one on it fails to start).
    reusePort: worker !== undefined,
    onRefused: (reason) => metrics.recordTransportRefusal(reason),
    onError: (error, where) => {
      metrics.recordTransportError(where);
      logTransportError(error, where);
    },
  });

  const { onClusterRestart } = options;
  if (onClusterRestart) engine.events.on('cluster.restart', () => onClusterRestart());
  await engine.start();

  const separateMetrics = config.metrics.enabled && config.metrics.port !== undefined && !worker ? { host: config.metrics.host, port: config.metrics.port } : undefined;
  let metricsListener: MetricsListener | undefined;
  const stopMetricsListener = () => {
    const closing = metricsListener?.close();
    metricsListener = undefined;
    return closing;
  };

  let stopping: Promise<void> | undefined;
  return {
    engine,
    metrics,
    get port() {
      return transport.port;
    },
    async listen(port) {
      const listening = await transport.listen(port);
      if (separateMetrics) {
        try {
          metricsListener = await listenOnMetricsPort(separateMetrics, () => metrics.render());
        } catch (error) {
          transport.stopListening();
          throw error;
        }
        log.info({ host: separateMetrics.host, port: metricsListener.port }, 'metrics listening');
      }
      log.info({ host: serverConfig.host, port: listening, path: serverConfig.path, tls: Boolean(tls) }, 'listening');
      return listening;
    },
    stopListening: async () => {
      transport.stopListening();
      await stopMetricsListener();
    },
    stop(reason) {
      stopping ??= (async () => {
        transport.stopListening();
        await stopMetricsListener();
        await engine.stop(reason);
        const deadline = Date.now() + serverConfig.shutdown_grace_period * 1000;
        const webhooksDrained = webhooks.stop(deadline);
        await transport.drain(deadline);
        await webhooksDrained;
        await rateLimits?.close();
        await idempotency?.close();
        await configuredScaler?.close();
        // Idle keep-alive HTTP connections would otherwise still be served by this stopped daemon after a
        // restart (their triggers lost: its engine has no sockets), and would keep a worker thread's loop alive.
        transport.close();
        log.info({ port: transport.port }, 'stopped');
      })();
      return stopping;
    },
  };
}

/** `createDaemon` and `listen` on the configured port. */
export async function startDaemon(options: DaemonOptions): Promise<Daemon> {
  const daemon = await createDaemon(options);
  try {
    await daemon.listen();
  } catch (error) {
    await daemon.stop();
    throw error;
  }
  return daemon;
}
