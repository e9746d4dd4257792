import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cutSecrets } from './cut-secrets.js';
import { createSecretMasker } from './secret-masker.js';

/** Characters that overlap, fold, escape in JSON, percent-encode and base64 differently. */
const unit = fc.constantFrom('a', 'A', 'b', 'é', 'É', '/', '"', '%', '4', '0', '+', '=', ' ');
const secret = fc.string({ unit, minLength: 1, maxLength: 8 });

describe('cutSecrets cuts exactly what one masker of all the secrets cuts', () => {
  it.each(['all', 'plain'] as const)('forms: %s, however the forms are split over automata', (forms) => {
    fc.assert(
      fc.property(
        fc.array(secret, { maxLength: 8 }),
        fc.array(fc.oneof(fc.string({ unit, maxLength: 6 }), secret), { maxLength: 10 }),
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 1, max: 6 }),
        (secrets, pieces, batchChars, minLength) => {
          // The text holds the secrets' forms by chance and on purpose: raw, upper-cased, JSON-escaped, percent-encoded.
          const text = pieces.concat(secrets.flatMap((s) => [s.toUpperCase(), JSON.stringify(s).slice(1, -1), encodeURIComponent(s)])).join('');
          const masker = createSecretMasker({ secrets, minLength, forms, marker: '#' });
          expect(cutSecrets(text, secrets, { minLength, forms, marker: '#', batchChars })).toBe(masker.secrets(text));
        },
      ),
      { numRuns: 1_500 },
    );
  });
});
