import { isSecretKey as sharedIsSecretKey } from '@org/secret-masking';
import { describe, expect, it } from 'vitest';
import { isSecretKey, redactSecrets } from './safe-config-errors.js';

describe('configuration errors use @org/secret-masking’s one rule', () => {
  it('judge keys by the package’s isSecretKey itself, not a copy', () => {
    expect(isSecretKey).toBe(sharedIsSecretKey);
  });

  it('cut a secret however a message writes it: any case, JSON-escaped (the old raw, case-sensitive replace missed both)', () => {
    const secret = 'Zq9"wK2p\\Secret';
    const message = `servers.main.tls: "${JSON.stringify(secret).slice(1, -1)}" and ${secret.toUpperCase()} and ${secret}`;
    expect(redactSecrets(message, [secret])).toBe('servers.main.tls: "[redacted]" and [redacted] and [redacted]');
  });

  it('cut the longest secret where two overlap, and leave values under the minimum length', () => {
    expect(redactSecrets('a s3cr3t-long b s3cr3t c abc', ['s3cr3t', 's3cr3t-long', 'abc'])).toBe('a [redacted] b [redacted] c abc');
  });

  it('stay fast on many long candidates from hostile text (only the plain forms of those that fit in the message are built)', () => {
    const candidates = Array.from({ length: 20_000 }, (_, i) => `${i}-${'x'.repeat(4_000)}`);
    const started = performance.now();
    expect(redactSecrets('applications.0.key: Invalid input', candidates)).toBe('applications.0.key: Invalid input');
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});
