import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { run: 'src/run.ts', 'ceiling-bin': 'src/ceiling/ceiling-bin.ts' },
  external: ['uWebSockets.js'],
  format: ['esm'],
  dts: false,
  sourcemap: true,
  clean: true,
  target: 'node20',
});
