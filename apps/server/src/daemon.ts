import { readFile } from 'node:fs/promises';
import { createPrivateKey } from 'node:crypto';
import { createStaticAppProvider, RealtimeServer, type Scaler } from '@org/protocol';
import { createPusherApi } from '@org/rest-api';
import { createUwsServer, type TlsOptions, type UwsServer } from '@org/transport-uws';
import type { Config } from './config/schema.js';
import { toApp } from './config/to-apps.js';
import type { Logging } from './logging.js';
import { createMetrics, type Metrics } from './metrics.js';

export interface DaemonOptions {
  config: Config;
  logging: Logging;
  /** Cluster state and bus; the in-memory scaler when omitted. */
  scaler?: Scaler | undefined;
  /** Accept uWebSockets.js's slow JavaScript emulation. */
  allowUwsFallback?: boolean;
}

export interface Daemon {
  readonly engine: RealtimeServer;
  readonly metrics: Metrics;
  readonly port: number;
  /** Stops accepting, tells clients to reconnect (4200), waits for in-flight HTTP, releases state. */
  stop(reason?: string): Promise<void>;
}

/** Fails early and clearly on unreadable certificate files or a key that does not decrypt. */
async function checkTls(tls: NonNullable<Config['servers'][string]['options']['tls']>): Promise<TlsOptions> {
  const read = async (key: string, file: string) => {
    try {
      return await readFile(file, 'utf8');
    } catch (error) {
      throw new Error(`servers.*.options.tls.${key}: cannot read ${file}: ${(error as Error).message}`);
    }
  };
  const key = await read('key', tls.key);
  await read('cert', tls.cert);
  if (tls.ca) await read('ca', tls.ca);
  try {
    createPrivateKey({ key, ...(tls.passphrase ? { passphrase: tls.passphrase } : {}) });
  } catch (error) {
    throw new Error(`servers.*.options.tls.key: ${tls.key} is not a usable private key (wrong passphrase?): ${(error as Error).message}`);
  }
  return { certFile: tls.cert, keyFile: tls.key, passphrase: tls.passphrase, caFile: tls.ca };
}

/** Wires engine, HTTP API and transport for the configured default server, and listens. */
export async function startDaemon(options: DaemonOptions): Promise<Daemon> {
  const { config, logging } = options;
  const serverConfig = config.servers[config.default];
  if (!serverConfig) throw new Error(`default: no server named "${config.default}"`);
  const log = logging.scope('socket.server');

  const apps = createStaticAppProvider(config.applications.map((app) => toApp(app, serverConfig)));
  const engine = new RealtimeServer({
    apps,
    ...(options.scaler ? { scaler: options.scaler } : {}),
    logger: (scope) => logging.scope(scope),
    protocolVersion: Number(serverConfig.protocol_version),
  });
  const metrics = createMetrics();
  metrics.observe(engine);

  const api = createPusherApi({
    server: engine,
    maxRequestSize: serverConfig.max_request_size,
    pathPrefix: serverConfig.path,
    ready: () => !engine.draining,
    metrics: () => metrics.render(),
    onResponse: ({ app, method, status }) => metrics.recordHttp(app?.id, method, status),
  });

  const tls = serverConfig.options.tls ? await checkTls(serverConfig.options.tls) : undefined;
  const transport: UwsServer = await createUwsServer({
    server: engine,
    fetch: api.fetch,
    host: serverConfig.host,
    port: serverConfig.port,
    path: serverConfig.path,
    tls,
    maxRequestSize: serverConfig.max_request_size,
    allowFallback: options.allowUwsFallback ?? false,
  });

  await engine.start();
  const port = await transport.listen();
  log.info({ host: serverConfig.host, port, path: serverConfig.path, tls: Boolean(tls) }, 'listening');

  return {
    engine,
    metrics,
    port,
    async stop(reason) {
      transport.stopListening();
      await engine.stop(reason);
      const deadline = Date.now() + serverConfig.shutdown_grace_period * 1000;
      while (transport.inFlightRequests > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      log.info({ port }, 'stopped');
    },
  };
}
