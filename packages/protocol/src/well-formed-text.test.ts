import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isWellFormedText } from './well-formed-text.js';

describe('isWellFormedText', () => {
  it('refuses a lone high or low surrogate wherever it stands, and accepts pairs', () => {
    expect(isWellFormedText('\ud800')).toBe(false);
    expect(isWellFormedText('a\udc00b')).toBe(false);
    expect(isWellFormedText('\udbff\ud800')).toBe(false);
    expect(isWellFormedText('😀 user')).toBe(true);
    expect(isWellFormedText('')).toBe(true);
  });

  it('agrees with encoding through UTF-8 and back for any string', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        expect(isWellFormedText(text)).toBe(Buffer.from(text, 'utf8').toString('utf8') === text);
      }),
      { numRuns: 2_000 },
    );
  });
});
