import fc from 'fast-check';
import type { Claim, ClaimToken, IdempotencyStore } from '../store.js';
import type { TestRunner } from './test-runner.js';

export interface StoreConformanceOptions {
  /**
   * `count` clients of one fresh backing store, each as a separate process or thread would hold
   * it (for the memory store, the same store `count` times). The suite closes every client.
   */
  clients(count: number, options: { windowMs: number; inFlightMs: number }): Promise<IdempotencyStore[]>;
  /** Property runs of the model-based test; default 50 (a shared Redis may want fewer). */
  modelRuns?: number;
}

let counter = 0;
/** A fresh app id per test and run keeps them apart on a shared backend. */
const freshApp = () => `conformance-${process.pid}-${Date.now().toString(36)}-${++counter}`;
const answer = { status: 200, body: '{"channels":{}}' };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * What every `IdempotencyStore` must do. This package runs it against the memory, worker-thread
 * and Redis stores; run it against yours with `runIdempotencyStoreConformance(vitest, name, options)`.
 */
export function runIdempotencyStoreConformance(runner: TestRunner, name: string, options: StoreConformanceOptions): void {
  const { describe, it, expect, afterEach } = runner;
  describe(`${name} idempotency store conformance`, () => {
    const opened: IdempotencyStore[] = [];
    const clients = async (count: number, windowMs = 60_000, inFlightMs = windowMs) => {
      const made = await options.clients(count, { windowMs, inFlightMs });
      opened.push(...made);
      return made;
    };
    afterEach(async () => {
      await Promise.all([...new Set(opened.splice(0))].map((store) => store.close()));
    });

    it('makes the first claim of a key first and a claim while it runs in-flight, from any client', async () => {
      const [a, b] = await clients(2);
      const app = freshApp();
      expect((await a!.claim(app, 'k')).status).toBe('first');
      expect(await a!.claim(app, 'k')).toEqual({ status: 'in-flight' });
      expect(await b!.claim(app, 'k')).toEqual({ status: 'in-flight' });
    });

    it('replays the completed answer to every client', async () => {
      const [a, b] = await clients(2);
      const app = freshApp();
      const claim = await a!.claim(app, 'k');
      if (claim.status !== 'first') return expect(claim.status).toBe('first');
      await a!.complete(claim.token, answer);
      expect(await a!.claim(app, 'k')).toEqual({ status: 'done', answer });
      expect(await b!.claim(app, 'k')).toEqual({ status: 'done', answer });
    });

    it('replays an answer with the digest of the request it answered, so another request with the key can be told apart', async () => {
      const [a, b] = await clients(2);
      const app = freshApp();
      const claim = await a!.claim(app, 'k');
      if (claim.status !== 'first') return expect(claim.status).toBe('first');
      const withRequest = { status: 200, body: '{}', request: 'n4bQgYhMfWWaL-qgxVrQFa' };
      await a!.complete(claim.token, withRequest);
      expect(await b!.claim(app, 'k')).toEqual({ status: 'done', answer: withRequest });
    });

    it('frees a released key, so the next claim anywhere is first', async () => {
      const [a, b] = await clients(2);
      const app = freshApp();
      const claim = await a!.claim(app, 'k');
      if (claim.status !== 'first') return expect(claim.status).toBe('first');
      await a!.release(claim.token);
      expect((await b!.claim(app, 'k')).status).toBe('first');
    });

    it('keeps keys apart per app and per key', async () => {
      const [a] = await clients(1);
      const [app, other] = [freshApp(), freshApp()];
      expect((await a!.claim(app, 'k')).status).toBe('first');
      expect((await a!.claim(other, 'k')).status).toBe('first');
      expect((await a!.claim(app, 'k2')).status).toBe('first');
      // Keys that a careless join would make equal.
      expect((await a!.claim(`${app}:x`, 'y')).status).toBe('first');
      expect((await a!.claim(app, 'x:y')).status).toBe('first');
    });

    it('never lets a stale token complete or release a later claim of its key', async () => {
      const [a, b] = await clients(2);
      const app = freshApp();
      const first = await a!.claim(app, 'k');
      if (first.status !== 'first') return expect(first.status).toBe('first');
      await a!.release(first.token);
      const second = await b!.claim(app, 'k');
      expect(second.status).toBe('first');
      await a!.complete(first.token, answer);
      await a!.release(first.token);
      expect(await b!.claim(app, 'k')).toEqual({ status: 'in-flight' });
    });

    it('forgets a key when its window has passed, done or in flight', async () => {
      const [a, b] = await clients(2, 200);
      const app = freshApp();
      const done = await a!.claim(app, 'done');
      const running = await a!.claim(app, 'running');
      if (done.status !== 'first') return expect(done.status).toBe('first');
      await a!.complete(done.token, answer);
      expect(running.status).toBe('first');
      await sleep(350);
      expect((await b!.claim(app, 'done')).status).toBe('first');
      expect((await b!.claim(app, 'running')).status).toBe('first');
    });

    it('frees a claim never completed after inFlightMs (its request died), while a completed one keeps the window from its claim', async () => {
      const [a, b] = await clients(2, 600, 150);
      const app = freshApp();
      const done = await a!.claim(app, 'done');
      const stuck = await a!.claim(app, 'stuck');
      if (done.status !== 'first') return expect(done.status).toBe('first');
      expect(stuck.status).toBe('first');
      await a!.complete(done.token, answer);
      await sleep(300);
      expect((await b!.claim(app, 'stuck')).status).toBe('first');
      expect(await b!.claim(app, 'done')).toEqual({ status: 'done', answer });
      // A completion after inFlightMs is too late: the key may have been claimed again.
      if (stuck.status === 'first') await a!.complete(stuck.token, answer);
      expect(await b!.claim(app, 'stuck')).toEqual({ status: 'in-flight' });
      await sleep(400);
      expect((await b!.claim(app, 'done')).status).toBe('first');
    });

    it('gives exactly one first to concurrent claims from several clients, as a model of the key says', async () => {
      const clientCount = 3;
      const [stores] = [await clients(clientCount)];
      type Step = { kind: 'burst'; key: number; from: number[] } | { kind: 'complete'; key: number } | { kind: 'release'; key: number };
      const step: fc.Arbitrary<Step> = fc.oneof(
        { weight: 3, arbitrary: fc.record({ kind: fc.constant('burst' as const), key: fc.nat(2), from: fc.array(fc.nat(clientCount - 1), { minLength: 1, maxLength: 6 }) }) },
        { weight: 1, arbitrary: fc.record({ kind: fc.constant('complete' as const), key: fc.nat(2) }) },
        { weight: 1, arbitrary: fc.record({ kind: fc.constant('release' as const), key: fc.nat(2) }) },
      );
      await fc.assert(
        fc.asyncProperty(fc.array(step, { maxLength: 12 }), async (steps) => {
          const app = freshApp();
          // The model: per key, the holding claim's token and, once completed, its answer.
          const model = new Map<number, { token: ClaimToken; body: string | undefined }>();
          for (const [index, current] of steps.entries()) {
            const key = `key-${current.key}`;
            const held = model.get(current.key);
            if (current.kind === 'burst') {
              const claims: Claim[] = await Promise.all(current.from.map((client) => stores[client]!.claim(app, key)));
              const firsts = claims.filter((claim) => claim.status === 'first');
              if (!held) {
                expect(firsts.length, `step ${index}: one first among ${claims.length} concurrent claims`).toBe(1);
                const first = firsts[0]!;
                if (first.status === 'first') model.set(current.key, { token: first.token, body: undefined });
                expect(claims.filter((claim) => claim.status !== 'first').every((claim) => claim.status === 'in-flight')).toBe(true);
              } else if (held.body === undefined) {
                expect(claims.every((claim) => claim.status === 'in-flight'), `step ${index}: in flight`).toBe(true);
              } else {
                expect(claims, `step ${index}: done`).toEqual(claims.map(() => ({ status: 'done', answer: { status: 200, body: held.body } })));
              }
            } else if (held && held.body === undefined) {
              const client = stores[index % clientCount]!;
              if (current.kind === 'complete') {
                const body = `{"step":${index}}`;
                await client.complete(held.token, { status: 200, body });
                held.body = body;
              } else {
                await client.release(held.token);
                model.delete(current.key);
              }
            }
          }
        }),
        { numRuns: options.modelRuns ?? 50 },
      );
    }, 60_000);
  });
}
