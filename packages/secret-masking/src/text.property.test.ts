import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { foldCase } from './case-fold.js';
import { createSecretMasker } from './secret-masker.js';

const anyText = fc.oneof(fc.string({ unit: 'binary', maxLength: 200 }), fc.string({ unit: 'grapheme', maxLength: 80 }), fc.string({ unit: fc.constantFrom(...':/@?#%&;\\u"\'<> aZ09.=+'), maxLength: 120 }));

describe('masking any text', () => {
  it('answers a string for any input through every entry point, never throws', () => {
    const masker = createSecretMasker({ secrets: ['Zq7wK2pX9v', 'ab'], identifiers: ['someone'] });
    fc.assert(
      fc.property(anyText, fc.string({ maxLength: 20 }), (text, name) => {
        for (const masked of [masker.text(text), masker.echo(text), masker.secrets(text), masker.url(text), masker.url(text, { secretPath: true }), masker.header(name, text)]) {
          expect(typeof masked).toBe('string');
        }
      }),
      { numRuns: 2_000 },
    );
  });

  it('cuts a known secret from any text around it, in any case', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', minLength: 6, maxLength: 30 }), anyText, anyText, fc.boolean(), (secret, before, after, upper) => {
        // A secret that holds the marker could be made again from it; none does in practice.
        fc.pre(!secret.includes('[') && !secret.includes(']'));
        const masker = createSecretMasker({ secrets: [secret] });
        const shown = upper ? secret.toUpperCase() : secret;
        for (const masked of [masker.secrets(`${before}${shown}${after}`), masker.text(`${before}${shown}${after}`)]) {
          expect(foldCase(masked)).not.toContain(foldCase(secret));
        }
      }),
      { numRuns: 2_000 },
    );
  });

  it('leaves a text with no URL, no @ and no known secret as it was', () => {
    const masker = createSecretMasker({ secrets: ['Zq7wK2pX9v'] });
    fc.assert(
      fc.property(anyText, (text) => {
        fc.pre(!text.includes('://') && !text.includes('@') && !foldCase(text).includes(foldCase('Zq7wK2pX9v')));
        expect(masker.text(text)).toBe(text);
      }),
      { numRuns: 2_000 },
    );
  });

  it('never shows the userinfo, query or fragment of a URL, whatever punctuation they hold', () => {
    const punctuation = fc.string({ unit: fc.constantFrom(...'-_.~!$&\'()*+,;=:%/?#@'), maxLength: 6 });
    const core = fc.stringMatching(/^[A-Za-z0-9]{10}$/);
    /** A part with a distinctive core, which must never be shown, among characters that confuse a URL reader. */
    const part = fc.tuple(punctuation, core, punctuation).map(([before, middle, after]) => ({ text: `${before}Zq${middle}${after}`, core: `Zq${middle}` }));
    const format = fc.constantFrom('marked', 'compact', 'bare') as fc.Arbitrary<'marked' | 'compact' | 'bare'>;
    // A query value holds no raw & or = (they would start another item, whose name the marked format shows).
    const value = part.filter((p) => !/[&=]/.test(p.text));
    fc.assert(
      fc.property(part, part, value, part, format, (user, password, query, fragment, urlFormat) => {
        const url = `https://${user.text}:${password.text}@host.example/path?name=${query.text}#${fragment.text}`;
        const masker = createSecretMasker({ urlFormat });
        for (const masked of [masker.url(url), masker.text(`see ${url} now`)]) {
          for (const hidden of [user, password, query, fragment]) expect(masked, url).not.toContain(hidden.core);
        }
      }),
      { numRuns: 3_000 },
    );
  });
});
