import { nodePackage } from '@org/dev-kit/tsup';
import { defineConfig } from 'tsup';

export default defineConfig(
  nodePackage({
    entry: { index: 'src/index.ts', testing: 'src/testing/index.ts' },
    external: ['fast-check'],
  }),
);
