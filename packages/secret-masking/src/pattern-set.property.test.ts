import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { foldCase } from './case-fold.js';
import { PatternSet } from './pattern-set.js';

/** The rule the automaton must agree with, written the slow and obvious way: at each position, the longest string starting there. */
function naiveReplace(text: string, patterns: readonly string[], marker: string): string {
  const folded = foldCase(text);
  const sorted = [...new Set(patterns.filter(Boolean).map(foldCase))].sort((a, b) => b.length - a.length);
  let out = '';
  for (let i = 0; i < text.length; ) {
    const hit = sorted.find((pattern) => folded.startsWith(pattern, i));
    if (hit === undefined) {
      out += text[i];
      i++;
    } else {
      out += marker;
      i += hit.length;
    }
  }
  return out;
}

/** A small alphabet, so that strings overlap, share prefixes and suffixes, and occur by chance. */
const small = fc.string({ unit: fc.constantFrom('a', 'A', 'b', 'B', 'c', 'é', 'É', 'ß', '\ud83d', '\ude00'), maxLength: 12 });

describe('PatternSet, against the obvious implementation', () => {
  it('replaces exactly what a leftmost-longest, case-insensitive scan replaces', () => {
    fc.assert(
      fc.property(fc.array(small, { maxLength: 8 }), fc.string({ unit: fc.constantFrom('a', 'A', 'b', 'B', 'c', 'é', 'É', 'ß', '\ud83d', '\ude00', 'x'), maxLength: 60 }), (patterns, text) => {
        const set = PatternSet.of(patterns);
        expect(set ? set.replaceIn(text, '#') : text).toBe(naiveReplace(text, patterns, '#'));
        expect(set?.occursIn(text) ?? false).toBe(naiveReplace(text, patterns, '\u0000') !== text);
      }),
      { numRuns: 3_000 },
    );
  });

  it('folds case as a regex with the i flag does', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', minLength: 1, maxLength: 6 }), fc.string({ unit: 'binary', maxLength: 20 }), (pattern, text) => {
        const escaped = pattern.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
        expect(PatternSet.of([pattern])!.occursIn(text)).toBe(new RegExp(escaped, 'i').test(text));
      }),
      { numRuns: 3_000 },
    );
  });
});

describe('PatternSet', () => {
  it('returns the same string when nothing matches, and no set for no strings', () => {
    const text = 'nothing to see';
    expect(PatternSet.of(['Zq7w'])!.replaceIn(text, '#')).toBe(text);
    expect(PatternSet.of([])).toBeUndefined();
    expect(PatternSet.of([''])).toBeUndefined();
  });

  it('holds thousands of strings sharing prefixes and suffixes (a configuration of 5,000 apps)', () => {
    const secrets = Array.from({ length: 5_000 }, (_, i) => `secret-${i}-Zq7w`);
    const set = PatternSet.of(secrets)!;
    expect(set.replaceIn('a secret-4999-Zq7w b secret-12-Zq7wx secret-5000-Zq7w', '#')).toBe('a # b #x secret-5000-Zq7w');
  });
});
