import { listenForMetrics, type Exposition, type MetricsListener } from '@org/metrics';

/**
 * `metrics.port`'s listener on `metrics.host`: `GET /metrics` alone, on a port of its own. A
 * failure names the config key, as the server's other start-up errors do.
 */
export async function listenOnMetricsPort(where: { host: string; port: number }, render: () => Promise<Exposition>): Promise<MetricsListener> {
  try {
    return await listenForMetrics({ host: where.host, port: where.port, render });
  } catch (error) {
    throw new Error(`metrics.port: ${(error as Error).message}`, { cause: error });
  }
}
