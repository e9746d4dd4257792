import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Checks the built package (turbo builds before testing): what `@org/notifications/contract` resolves to.
const root = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as { exports: Record<string, Record<string, Record<string, string>>> };
const contract = pkg.exports['./contract'];

describe('the ./contract subpath', () => {
  it('points import and require at built types and an empty JS module', () => {
    const files = [contract?.import?.types, contract?.import?.default, contract?.require?.types, contract?.require?.default];
    expect(files).toEqual(['./dist/contract.d.ts', './dist/contract.js', './dist/contract.d.cts', './dist/contract.cjs']);
    for (const file of files) expect([file, existsSync(`${root}${file}`)]).toEqual([file, true]);
  });

  it('is self-contained types: no imports in its .d.ts, no runtime exports', async () => {
    const dts = readFileSync(`${root}dist/contract.d.ts`, 'utf8');
    expect(dts).not.toMatch(/^\s*import\b|require\(/m);
    for (const name of ['NotificationResource', 'NotificationAction', 'NotificationIcon', 'ActionType', 'ListResponse', 'UnreadListResponse', 'ItemResponse', 'MutationResponse', 'MarkAllReadResponse', 'DeleteResponse', 'ErrorResponse', 'NotificationLiveEventName', 'NotificationLiveEvents', 'NotificationLiveEventPayload', 'NotificationLiveEvent']) {
      expect(dts).toMatch(new RegExp(`\\b${name}\\b`));
    }
    const esm = (await import(`${root}dist/contract.js`)) as Record<string, unknown>;
    expect(Object.keys(esm)).toEqual([]);
  });
});
