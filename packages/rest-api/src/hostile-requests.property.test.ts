import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticatedTrigger, hostileRequest } from '../test/support/hostile-arbitraries.js';
import { answerProblem, startHarness, survivesUrlParsing, type Answer, type EntryPoint, type Harness, type HostileRequest } from '../test/support/property-harness.js';

let harness: Harness;
beforeAll(async () => {
  // Room for 5,000-level nesting and huge strings to reach the JSON parser instead of the size limit.
  harness = await startHarness({ maxRequestSize: 100_000 });
});
afterAll(() => harness.close());

/** `PROPERTY_SCALE=20` runs every property twenty times as long (a longer hunt, by hand). */
const scale = Number(process.env['PROPERTY_SCALE'] ?? 1);
const runs = (count: number) => Math.max(1, Math.round(count * scale));
/** A timed-out property keeps running in the background and would overlap the next one. */
const timeout = 20_000 * Math.max(1, scale);

const entryPoints: readonly EntryPoint[] = ['fetch', 'plain'];
const isTrigger = (request: HostileRequest) => request.method === 'POST' && /\/(batch_)?events$/.test(request.path);

/**
 * Sends the request through both entry points and checks each answer: well
 * formed, reported to `onResponse` as sent, no 500, and when refused, nothing
 * published, no socket closed, nothing charged to the rate limiter.
 */
async function checkBothWays(request: HostileRequest, statuses?: Map<number, number>): Promise<Record<EntryPoint, Answer>> {
  await harness.ensureSubscribers();
  const answers = {} as Record<EntryPoint, Answer>;
  for (const via of entryPoints) {
    const before = await harness.state();
    const charged = harness.rateLimitCalls.length;
    const answer = await harness.send(via, request);
    answers[via] = answer;
    statuses?.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
    expect(answerProblem(request, answer), `${via}: ${answer.status} ${answer.body.slice(0, 300)}`).toBeUndefined();
    expect(harness.unexpectedErrors).toEqual([]);
    expect(harness.lastReported.status).toBe(answer.status);
    if (answer.status >= 400) {
      const after = await harness.state();
      expect(after, `${via}: a ${answer.status} (${answer.body.slice(0, 200)}) changed the engine from ${JSON.stringify(before)} to ${JSON.stringify(after)}`).toEqual(before);
      if (isTrigger(request)) expect(harness.rateLimitCalls.length, `${via}: a refused trigger was charged (${answer.status} ${answer.body.slice(0, 300)})`).toBe(charged);
    }
  }
  // A target a URL parser leaves alone is the same request to both: the answers must agree.
  if (survivesUrlParsing(request)) {
    const pick = ({ status, headers, body }: Answer) => ({ status, contentType: headers['content-type'], body });
    expect(pick(answers.plain)).toEqual(pick(answers.fetch));
  }
  return answers;
}

describe('hostile HTTP API requests (hono app and plain handler)', () => {
  it('any method, path, query, headers and body get a well-formed 2xx/4xx and a refusal changes nothing', async () => {
    await fc.assert(
      fc.asyncProperty(hostileRequest, async (request) => {
        await checkBothWays(request);
      }),
      { numRuns: runs(300) },
    );
  }, timeout);

  it('authenticated triggers with hostile bodies reach validation and never publish when refused', async () => {
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(authenticatedTrigger, async (request) => {
        await checkBothWays(request, statuses);
      }),
      { numRuns: runs(300) },
    );
    // The generator is worth something only if it reaches both sides of validation.
    expect(statuses.get(200) ?? 0).toBeGreaterThan(0);
    expect(statuses.get(400) ?? 0).toBeGreaterThan(0);
  }, timeout);

  it('a Content-Length that lies about the body is answered, not thrown (fetch only: a server framing by it never passes it on)', async () => {
    await fc.assert(
      fc.asyncProperty(
        authenticatedTrigger,
        fc.oneof(fc.constantFrom('-1', 'abc', '1e3', '0x10', '', ' 5', '99999999999999999999', '100001'), fc.nat().map(String)),
        async (request, length) => {
          const withLength = { ...request, headers: { ...request.headers, 'content-length': length } };
          const answer = await harness.send('fetch', withLength);
          expect(answerProblem(withLength, answer), `${answer.status} ${answer.body.slice(0, 300)}`).toBeUndefined();
          expect(harness.unexpectedErrors).toEqual([]);
        },
      ),
      { numRuns: runs(100) },
    );
  }, timeout);
});
