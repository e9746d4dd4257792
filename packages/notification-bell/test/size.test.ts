import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { packageRoot } from './harness.js';

/** The bell (side-effect entry, with lit) without pusher-js must stay under 20 KB min+gzip. */
const BUDGET_BYTES = 20 * 1024;

describe('size budget', () => {
  it('keeps the bell without pusher-js under 20 KB min+gzip, and pusher-js out of the bundle', async () => {
    const result = await build({
      entryPoints: [join(packageRoot, 'src', 'auto-define.ts')],
      bundle: true,
      minify: true,
      format: 'esm',
      target: 'es2022',
      write: false,
      external: ['pusher-js'],
      logLevel: 'silent',
    });
    const code = result.outputFiles[0]?.contents ?? new Uint8Array();
    const gzipped = gzipSync(code, { level: 9 }).byteLength;
    mkdirSync(join(packageRoot, 'artifacts'), { recursive: true });
    writeFileSync(join(packageRoot, 'artifacts', 'size.json'), JSON.stringify({ minified: code.byteLength, gzipped, budget: BUDGET_BYTES }, null, 2));
    console.log(`[notification-bell] bundle: ${code.byteLength} B minified, ${gzipped} B min+gzip (budget ${BUDGET_BYTES} B)`);
    expect(gzipped).toBeLessThan(BUDGET_BYTES);
    // pusher-js stays a lazy import, not inlined.
    expect(new TextDecoder().decode(code)).toContain('import("pusher-js")');
  });
});
