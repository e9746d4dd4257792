import { describe, expect, it } from 'vitest';
import { cutSecrets } from './cut-secrets.js';
import { SecretMaskingError } from './errors.js';

describe('cutSecrets', () => {
  it('cuts every form the masker would, by default', () => {
    const secret = 'Zq9/wK2p';
    const text = `a ${secret} b ${encodeURIComponent(secret)} c ${Buffer.from(secret).toString('base64')} d ${secret.toLowerCase()}`;
    expect(cutSecrets(text, [secret])).toBe('a [redacted] b [redacted] c [redacted] d [redacted]');
  });

  it('cuts the longest of overlapping secrets even when they are held by different automata', () => {
    // batchChars 1: each form is its own automaton; the merge still finds the longest at each place.
    expect(cutSecrets('x s3cr3t-long y s3cr3t z', ['s3cr3t', 's3cr3t-long'], { batchChars: 1, minLength: 4 })).toBe('x [redacted] y [redacted] z');
  });

  it('keeps its memory bounded and its time linear on millions of characters of long candidates', () => {
    // 2,000 candidates of 2,000 characters sharing nothing, a text holding three of them: 4 million characters of forms.
    const candidates = Array.from({ length: 2_000 }, (_, i) => `${String(i).padStart(4, '0')}-${'y'.repeat(1_995)}`);
    const text = `${candidates[1_999]!} and ${candidates[0]!} and ${candidates[777]!.toUpperCase()}`;
    const started = performance.now();
    expect(cutSecrets(text, candidates, { forms: 'plain', batchChars: 100_000 })).toBe('[redacted] and [redacted] and [redacted]');
    expect(performance.now() - started).toBeLessThan(6_000);
  });

  it('skips a plain candidate longer than the text before building its forms', () => {
    const huge = Array.from({ length: 20_000 }, (_, i) => `${i}-${'x'.repeat(4_000)}`);
    const started = performance.now();
    expect(cutSecrets('short text', huge, { forms: 'plain' })).toBe('short text');
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it.each([
    [{ batchChars: 0 }, 'batchChars must be an integer ≥ 1, got the number 0'],
    [{ forms: 'raw' }, 'forms must be one of all, plain, got a string of 3 characters'],
    [{ minLength: -1 }, 'minLength must be an integer ≥ 1, got the number -1'],
  ])('refuses %o, naming the key', (options, message) => {
    expect(() => cutSecrets('text', ['secret'], options as never)).toThrow(new SecretMaskingError('INVALID_MASKING_OPTIONS', message));
  });

  it('refuses secrets that are not strings, naming only their type', () => {
    expect(() => cutSecrets('text', [42] as never)).toThrow('@org/secret-masking: secrets must be an iterable of strings, got the number 42');
  });
});
