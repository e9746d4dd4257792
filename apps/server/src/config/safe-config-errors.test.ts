import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isSecretKey as sharedIsSecretKey } from '@org/secret-masking';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './load-config.js';
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

  it('cut a secret from a real configuration error in another case (an unknown key the old replace left quoted)', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'realtime-config-')), 'case.yaml');
    writeFileSync(path, 'applications:\n  - { id: 1, key: k, secret: ZqwKpXvBmNsLetters }\nzqwkpxvbmnsletters: 1\n');
    const error = await loadConfig({ file: path, env: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toContain('(root): Unrecognized key: "[redacted]"');
    expect((error as Error).message.toLowerCase()).not.toContain('zqwkpxvbmnsletters');
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

  it('cut every candidate when they are more than one automaton holds (millions of characters of candidates)', () => {
    const long = Array.from({ length: 600 }, (_, i) => `${String(i).padStart(3, '0')}-${'y'.repeat(3_996)}`);
    const prefix = long[3]!.slice(0, 20);
    // 2.4 million characters of candidates: three automata, the first holding long[0], the last long[599] and the prefix.
    const message = `${long[599]!} and ${prefix} then ${long[0]!} and ${long[3]!}`;
    expect(redactSecrets(message, [prefix, ...long])).toBe('[redacted] and [redacted] then [redacted] and [redacted]');
  });
});
