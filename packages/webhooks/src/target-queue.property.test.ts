import { silentLogger } from '@org/protocol';
import fc from 'fast-check';
import { MockAgent } from 'undici';
import { describe, expect, it } from 'vitest';
import { TargetQueue, type DeliveryObserver } from './target-queue.js';
import { toWebhookTarget } from './webhook-target.js';

const app = { id: 'model', key: 'model-key', secret: 'model-secret' };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The queue against a model of what it owes: whatever the receiver answers and however events
 * arrive, it never has more than `maxConcurrentRequests` requests in flight nor more than
 * `maxQueueBytes` waiting, and every event ends exactly once, delivered or counted as dropped.
 */
describe('a webhook queue, for any receiver and any burst', () => {
  it('bounds requests in flight and bytes waiting, and accounts for every event exactly once', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          maxConcurrentRequests: fc.integer({ min: 1, max: 4 }),
          batched: fc.boolean(),
          maxQueueBytes: fc.integer({ min: 1_024, max: 8_192 }),
          // Each request's answer, in the order the receiver gets them (then 200 for the rest).
          answers: fc.array(fc.constantFrom(200, 200, 500, 503), { maxLength: 60 }),
          // Bursts of events, with a pause after each.
          bursts: fc.array(fc.record({ events: fc.integer({ min: 1, max: 40 }), pauseMs: fc.integer({ min: 0, max: 5 }) }), { minLength: 1, maxLength: 5 }),
        }),
        async ({ maxConcurrentRequests, batched, maxQueueBytes, answers, bursts }) => {
          const agent = new MockAgent();
          agent.disableNetConnect();
          let requests = 0;
          agent
            .get('http://hook.test')
            .intercept({ path: '/webhook', method: 'POST' })
            .reply(() => ({ statusCode: answers[requests++] ?? 200, data: 'ok' }))
            .delay(1)
            .persist();
          const counts = { delivered: 0, dropped: 0 };
          const observer: DeliveryObserver = {
            delivered: (_app, events) => void (counts.delivered += events),
            failed: () => {},
            dropped: (_app, _reason, events) => void (counts.dropped += events),
          };
          const queue = new TargetQueue({
            app,
            target: toWebhookTarget({ url: 'http://hook.test/webhook' }),
            dispatcher: agent,
            timeoutMs: 1_000,
            retry: { initialDelayMs: 1, maxDelayMs: 4, factor: 2, retryWindowMs: 30 },
            batch: batched ? { windowMs: 2, maxEvents: 5 } : undefined,
            maxConcurrentRequests,
            maxQueueBytes,
            observer,
            log: silentLogger,
            random: () => 0.5,
          });
          let added = 0;
          const check = () => {
            expect(queue.inFlight).toBeLessThanOrEqual(maxConcurrentRequests);
            expect(queue.queuedBytes).toBeLessThanOrEqual(maxQueueBytes);
          };
          for (const burst of bursts) {
            for (let i = 0; i < burst.events; i++) {
              queue.add({ name: 'channel_occupied', channel: `c-${added++}` });
              check();
            }
            await sleep(burst.pauseMs);
            check();
          }
          await queue.drain(Date.now() + 5_000);
          check();
          expect(queue.idle).toBe(true);
          expect(counts.delivered + counts.dropped).toBe(added);
          await agent.close();
        },
      ),
      { numRuns: 40 },
    );
  }, 60_000);
});
