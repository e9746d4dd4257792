import { defineConfig } from 'tsup';

export default defineConfig({
  // `index` registers nothing; `define` is the side-effect entry that registers <notification-bell>.
  entry: { index: 'src/index.ts', define: 'src/auto-define.ts' },
  format: ['esm'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'es2022',
  platform: 'browser',
  // Optional peer, loaded with import() only for the 'ws-channels' broadcaster.
  external: ['pusher-js'],
});
