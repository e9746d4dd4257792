import { getRequest, HttpConnection } from '../load/http-client.js';
import type { Endpoint } from '../load/pusher-client.js';

/**
 * The daemon's used V8 heap in bytes, from its Prometheus `/metrics`
 * (prom-client's default `nodejs_heap_size_used_bytes`); NaN when absent.
 * Splits RSS growth into JavaScript objects and native (uWS) memory.
 */
export async function daemonHeapUsed(endpoint: Endpoint): Promise<number> {
  const http = await HttpConnection.open(endpoint);
  try {
    const response = await http.fetch(getRequest(endpoint, '/metrics'));
    const match = /^\w*nodejs_heap_size_used_bytes(?:\{[^}]*\})? (\d+(?:\.\d+)?(?:e\+\d+)?)$/m.exec(response.body);
    return match ? Number(match[1]) : Number.NaN;
  } finally {
    http.close();
  }
}
