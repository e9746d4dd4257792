import { describe, expect, it } from 'vitest';
import { createSecretMasker } from './secret-masker.js';

/*
 * Hostile text of 256 KiB through every entry point. A scan that is quadratic
 * anywhere takes minutes on this much (chat-notifier's first URL regex took
 * 4.5 s on 64 KiB of `a.a.a…`); a linear one takes milliseconds. The bound is
 * generous for a loaded CI machine and still far below any quadratic time.
 */

const size = 256 * 1024;
const boundMs = 3_000;

const fill = (unit: string) => unit.repeat(Math.ceil(size / unit.length)).slice(0, size);

const hostile: Record<string, string> = {
  'a long scheme-like run': `${fill('a.')}://x`,
  'many URLs': fill('a://'),
  'a URL of many @': `https://${fill('a@')}`,
  'a URL of many ? and @ (the parser is asked)': `https://h/${fill('?@')}`,
  'many @': fill('@a'),
  'many user:password@': fill('a:a@'),
  'one long run of user:password@host': fill('u:p@h'),
  'HTML entity starts': fill('&a'),
  'an unclosed entity': `&${fill('a')}`,
  'percent runs': fill('%'),
  'JSON escapes': fill('\\u12'),
  'a secret’s long prefix, over and over': fill('a'),
  'case variants of secrets': fill('zQ7wK2pX9v-'),
  'base64-looking text': fill('QWJjZGVm'),
};

const secrets = [`${'a'.repeat(2_000)}b`, ...Array.from({ length: 2_000 }, (_, i) => `Zq7wK2pX9v-${i}`), 'short'];

describe('masking takes time linear in the text', () => {
  const masker = createSecretMasker({ secrets, identifiers: ['some-user-name'], rules: [{ maskText: (text) => text }] });

  it.each(Object.entries(hostile))('%s', (_name, text) => {
    for (const run of [masker.text, masker.echo, masker.secrets, (t: string) => masker.url(t), (t: string) => masker.header('x-echo', t)]) {
      const started = performance.now();
      const masked = run(text);
      const elapsed = performance.now() - started;
      expect(typeof masked).toBe('string');
      expect(elapsed).toBeLessThan(boundMs);
    }
  });

  it('builds a masker of thousands of secrets once, quickly, and cuts them all', () => {
    const many = Array.from({ length: 5_000 }, (_, i) => `secret-${i}-Zq7w`);
    const started = performance.now();
    const big = createSecretMasker({ secrets: many, minLength: 4 });
    const text = many.join(' ');
    const masked = big.text(text);
    expect(performance.now() - started).toBeLessThan(boundMs * 2);
    expect(masked).toBe(Array.from({ length: 5_000 }, () => '[redacted]').join(' '));
  });

  // Candidates taken from a hostile file (realtime-server's configuration errors): long, many, sharing their
  // start or their end (the rest of a line after each key on it). Millions of characters of them, built once.
  it.each([
    ['sharing nothing', (i: number) => `${i}-${'x'.repeat(2_000)}`],
    ['sharing their end', (i: number) => `${'x'.repeat(i % 2_000)}-${'y'.repeat(2_000)}`],
    ['sharing their start', (i: number) => `${'y'.repeat(2_000)}-${'x'.repeat(i % 2_000)}`],
  ])('builds a masker of 2,000 secrets of 2,000 characters %s quickly, and cuts them', (_name, secretOf) => {
    const long = Array.from({ length: 2_000 }, (_, i) => secretOf(i));
    const started = performance.now();
    const big = createSecretMasker({ secrets: long, minLength: 4, forms: 'plain' });
    const masked = big.secrets(`a ${long[1_234]!} b`);
    expect(performance.now() - started).toBeLessThan(boundMs * 2);
    expect(masked).toBe('a [redacted] b');
  });
});
