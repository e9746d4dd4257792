import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { run: 'src/run.ts', 'ceiling-bin': 'src/ceiling/ceiling-bin.ts', 'hostile-connection': 'src/hostile-connection.ts' },
  external: ['uWebSockets.js', 'ioredis'],
  format: ['esm'],
  dts: false,
  sourcemap: true,
  clean: true,
  target: 'node20',
});
