import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts', signing: 'src/signing.ts', testing: 'src/testing/index.ts' },
  external: ['vitest', 'fast-check'],
  format: ['esm', 'cjs'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node20',
});
