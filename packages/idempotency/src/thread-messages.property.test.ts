import { MessageChannel } from 'node:worker_threads';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createMemoryStore } from './memory-store.js';
import { createPortStore } from './port-store.js';
import { createIdempotencyHost } from './thread-host.js';
import { checkRequest } from './thread-messages.js';

/** Values shaped almost like requests, and anything at all. */
const nearRequest = fc.oneof(
  fc.anything(),
  fc.record({ id: fc.oneof(fc.integer(), fc.double(), fc.string()), op: fc.constantFrom('claim', 'complete', 'release', 'drop'), appId: fc.anything(), key: fc.anything(), token: fc.anything(), answer: fc.anything() }, { requiredKeys: [] }),
);

describe('what a worker may post to the host', () => {
  it('is checked without throwing, and only well-formed requests pass', () => {
    fc.assert(
      fc.property(nearRequest, (value) => {
        const request = checkRequest(value);
        if (!request) return;
        expect(Number.isSafeInteger(request.id)).toBe(true);
        if (request.op === 'claim') expect([typeof request.appId, typeof request.key]).toEqual(['string', 'string']);
        else expect(typeof request.token.id).toBe('string');
      }),
      { numRuns: 2_000 },
    );
  });

  it('leaves the store as it was when it is not a request, and the host keeps serving', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(nearRequest.filter((value) => checkRequest(value) === undefined), { maxLength: 20 }), async (junk) => {
        const backing = createMemoryStore();
        const host = createIdempotencyHost(backing);
        const { port1, port2 } = new MessageChannel();
        host.attach(port1);
        for (const value of junk) {
          try {
            port2.postMessage(value);
          } catch {
            // Not cloneable (a function, a symbol): it never reaches the host.
          }
        }
        const store = createPortStore(port2);
        expect((await store.claim('app', 'k')).status).toBe('first');
        expect(backing.size).toBe(1);
        await store.close();
        host.close();
      }),
      { numRuns: 100 },
    );
  });
});
