import { nodeApplication } from '@org/dev-kit/tsup';
import { defineConfig } from 'tsup';

export default defineConfig(
  nodeApplication({
    entry: { run: 'src/run.ts', 'ceiling-bin': 'src/ceiling/ceiling-bin.ts', 'hostile-connection': 'src/hostile-connection.ts' },
    external: ['uWebSockets.js', 'ioredis'],
    dts: false,
  }),
);
