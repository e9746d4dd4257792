import { nodePackage } from '@org/dev-kit/tsup';
import { defineConfig } from 'tsup';

export default defineConfig(
  nodePackage({
    entry: { index: 'src/index.ts', signing: 'src/signing.ts', testing: 'src/testing/index.ts' },
    external: ['fast-check'],
  }),
);
