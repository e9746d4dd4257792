import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testStore } from '../test/support/idempotency-store.js';
import { answerProblem, startHarness, type EntryPoint, type Harness, type HostileRequest } from '../test/support/property-harness.js';
import { mainApp, signedQuery } from '../test/support/test-fixture.js';
import { PusherApiError } from './errors.js';
import { idempotencyKey } from './idempotency.js';

const store = testStore();
let harness: Harness;
beforeAll(async () => {
  harness = await startHarness({ idempotency: store });
});
afterAll(() => harness.close());

/** The rule, written out as the README states it: 1..255 characters from space to `~`, no space at either end. */
const isValidKey = (key: string) => key.length >= 1 && key.length <= 255 && [...key].every((char) => char >= ' ' && char <= '~') && !key.startsWith(' ') && !key.endsWith(' ');

/** Keys a client might send: valid ones, and huge, empty, NUL, control, unicode and space-edged ones. */
const hostileKey = fc.oneof(
  fc.string({ minLength: 1, maxLength: 40, unit: fc.constantFrom(...'abcXYZ019-_:./ ~!'.split('')) }),
  fc.string({ maxLength: 300, unit: 'binary' }),
  fc.string({ maxLength: 20, unit: 'grapheme' }),
  fc.constantFrom('', ' ', '\0', 'a\0b', '\r\n', 'k'.repeat(255), 'k'.repeat(256), 'k'.repeat(100_000), ' k', 'k ', 'a, b', 'é', '\u{1F600}', '\uD800'),
);

/** What the fetch entry point's `Headers` would refuse to carry at all (NUL, CR, LF, beyond Latin-1). */
const fetchCannotSend = (value: string) => /[\0\r\n]/.test(value) || [...value].some((char) => char.codePointAt(0)! > 0xff);
/** `Headers` strips HTTP whitespace at both ends; a plain server passes the value as read. */
const asReceived = (via: EntryPoint, value: string) => (via === 'fetch' ? value.replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, '') : value);

function triggerWithKey(key: string): HostileRequest {
  const body = JSON.stringify({ name: 'paid', channels: ['a'], data: 'x' });
  const path = `/apps/${mainApp.id}/events`;
  return { method: 'POST', path, query: signedQuery({ method: 'POST', path, body }), headers: { 'content-type': 'application/json', 'x-idempotency-key': key }, body: new TextEncoder().encode(body) };
}

describe('X-Idempotency-Key validation', () => {
  it('accepts exactly the keys the rule allows and refuses every other with a 400 PusherApiError, never another throw', () => {
    fc.assert(
      fc.property(hostileKey, (key) => {
        let accepted: string | undefined;
        try {
          accepted = idempotencyKey({ 'x-idempotency-key': key });
        } catch (error) {
          expect(error).toBeInstanceOf(PusherApiError);
          expect((error as PusherApiError).status).toBe(400);
        }
        expect(accepted === key).toBe(isValidKey(key));
      }),
      { numRuns: 2_000 },
    );
  });

  it('through both entry points: a valid key publishes once and replays the answer, any other is a 400 that claims and publishes nothing', async () => {
    await fc.assert(
      fc.asyncProperty(hostileKey, fc.constantFrom<EntryPoint>('plain', 'fetch'), async (sent, via) => {
        fc.pre(via === 'plain' || !fetchCannotSend(sent));
        store.reset();
        await harness.ensureSubscribers();
        const key = asReceived(via, sent);
        const before = await harness.state();
        const first = await harness.send(via, triggerWithKey(sent));
        const retry = await harness.send(via, triggerWithKey(sent));
        const after = await harness.state();
        const request = triggerWithKey(sent);
        for (const answer of [first, retry]) expect(answerProblem(request, answer), `${answer.status} ${answer.body.slice(0, 200)}`).toBeUndefined();
        expect(harness.unexpectedErrors).toEqual([]);
        const published = after.sockets[0]!.frames - before.sockets[0]!.frames;
        if (isValidKey(key)) {
          expect([first.status, retry.status]).toEqual([200, 200]);
          expect(retry.body).toBe(first.body);
          expect(retry.headers['x-idempotent-replay']).toBe('true');
          expect(published).toBe(1);
          expect(store.calls).toEqual([`claim ${mainApp.id} ${key}`, `complete ${mainApp.id} ${key}`, `claim ${mainApp.id} ${key}`]);
        } else {
          expect([first.status, retry.status]).toEqual([400, 400]);
          expect(after).toEqual(before);
          expect(store.calls).toEqual([]);
        }
      }),
      { numRuns: 150 },
    );
  }, 60_000);
});
