import { createServer } from 'node:net';

/**
 * A port free on `host` now, for `port: 0` with several workers: each uWS listen on 0 would pick a
 * port of its own, so the main thread picks one and every worker listens on it.
 */
export function pickFreePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, host, () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error(`no port could be picked on ${host}`))));
    });
  });
}
