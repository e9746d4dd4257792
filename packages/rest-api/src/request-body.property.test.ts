import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { batchBodySchema, eventBodySchema, parseBatchBody, parseEventBody, parseJsonBody } from './request-body.js';

/** What a parse gives: the value, or the error's code and message. */
function outcome(parse: () => unknown): unknown {
  try {
    return { value: parse() };
  } catch (error) {
    return { code: (error as { code?: string }).code, message: (error as Error).message };
  }
}

const value: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom('', 'e', 'news', 'presence-a', '1234.5678', 'subscription_count', null, true, 0, -1, [], {}, ['a'], ['a', 'b'], ['a', 5], [null]),
  fc.string({ maxLength: 8 }),
  fc.jsonValue({ maxDepth: 2 }),
  fc.array(fc.oneof(fc.string({ maxLength: 4 }), fc.integer()), { maxLength: 3 }),
);
const fields = ['name', 'data', 'socket_id', 'info', 'channel', 'channels', 'other', '__proto__'];
const body = fc.dictionary(fc.constantFrom(...fields), value, { maxKeys: 7 });
/** A field that is mostly right (or absent), sometimes anything. */
const mostly = (right: fc.Arbitrary<unknown>) => fc.oneof({ weight: 6, arbitrary: right }, { weight: 1, arbitrary: value });
/** Mostly valid events: each field sometimes absent or replaced by anything. */
const nearlyValid = fc.record(
  {
    name: mostly(fc.constantFrom('e', 'order.shipped', '')),
    data: mostly(fc.constantFrom('{}', '', 'x')),
    channel: mostly(fc.constantFrom('news', '')),
    channels: mostly(fc.constantFrom(['a'], ['a', 'b'], [])),
    socket_id: mostly(fc.constantFrom('1.1', 'x')),
    info: mostly(fc.constantFrom('subscription_count', '')),
  },
  { requiredKeys: [] },
);

describe('the hand-written accept of trigger bodies', () => {
  it('gives what the zod schema gives for any event body: the same value, or the same 400', () => {
    fc.assert(
      fc.property(fc.oneof(body, nearlyValid), (json) => {
        const text = JSON.stringify(json);
        expect(outcome(() => parseEventBody(text, 64))).toEqual(outcome(() => parseJsonBody(text, eventBodySchema, 64)));
      }),
      { numRuns: 3_000 },
    );
  });

  it('gives what the zod schema gives for any batch body', () => {
    const item = fc.oneof(nearlyValid, body, value);
    fc.assert(
      fc.property(fc.oneof(fc.record({ batch: fc.array(item, { maxLength: 4 }) }), fc.record({ batch: value }), body), (json) => {
        const text = JSON.stringify(json);
        expect(outcome(() => parseBatchBody(text, 64))).toEqual(outcome(() => parseJsonBody(text, batchBodySchema, 64)));
      }),
      { numRuns: 3_000 },
    );
  });
});
