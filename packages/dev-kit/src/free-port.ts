import { createServer } from 'node:net';
import { DevKitError } from './errors.js';

/**
 * A port that was free a moment ago on 127.0.0.1: listen on port 0, read the
 * port the OS picked, release it. Another process may take it before the
 * caller binds; tests bind at once, so that window is accepted.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (address && typeof address === 'object' ? resolve(address.port) : reject(new DevKitError('NO_PORT', 'the OS gave no port'))));
    });
  });
}
