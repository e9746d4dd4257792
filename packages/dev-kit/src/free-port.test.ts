import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { freePort } from './free-port.js';

function listenOn(port: number): Promise<() => Promise<void>> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(() => new Promise((done) => server.close(() => done()))));
  });
}

describe('freePort', () => {
  it('returns a port that can be bound on 127.0.0.1 right away', async () => {
    const port = await freePort();
    expect(Number.isInteger(port)).toBe(true);
    expect(port).toBeGreaterThan(0);
    expect(port).toBeLessThan(65_536);
    const close = await listenOn(port);
    await close();
  });

  it('does not return a port that is held open', async () => {
    const held = await freePort();
    const close = await listenOn(held);
    try {
      const ports = await Promise.all(Array.from({ length: 20 }, () => freePort()));
      expect(ports).not.toContain(held);
    } finally {
      await close();
    }
  });
});
