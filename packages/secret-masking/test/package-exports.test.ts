import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Runs against the built output (turbo builds before testing), so a broken exports map fails here.
const dist = fileURLToPath(new URL('../dist/', import.meta.url));
const built = existsSync(`${dist}index.js`) && existsSync(`${dist}index.cjs`);
if (!built && process.env.CI === 'true') throw new Error('dist/ is missing: run `pnpm --filter @org/secret-masking build` before the tests');
if (!built) console.warn('package-exports.test.ts: skipped because dist/ is missing; run the build first');

describe.runIf(built)('published entry points', () => {
  it('ESM and CJS builds export the public API, and mask alike', async () => {
    const esm = (await import(`${dist}index.js`)) as Record<string, unknown>;
    const cjs = createRequire(import.meta.url)(`${dist}index.cjs`) as Record<string, unknown>;
    for (const mod of [esm, cjs]) {
      for (const name of ['createSecretMasker', 'urlCredentials', 'headerSecrets', 'isSecretKey', 'isSecretHeader', 'isUrlKey', 'safeString', 'SecretMaskingError', 'cutSecrets']) {
        expect(typeof mod[name], name).toBe('function');
      }
      const masker = (mod['createSecretMasker'] as (options: object) => { text(text: string): string })({ secrets: ['Zq7wK2pX9v'] });
      expect(masker.text('https://u:p@h/x Zq7wK2pX9v')).toBe('https://[redacted]@h/x [redacted]');
    }
  });
});
