import { nodePackage } from '@org/dev-kit/tsup';
import { defineConfig } from 'tsup';

export default defineConfig(
  nodePackage({
    // `contract` holds only types: its .d.ts is the point, its JS is an empty module that
    // bundlers can resolve when a client imports the subpath without `import type`.
    entry: { index: 'src/index.ts', contract: 'src/contract.ts', testing: 'src/testing/index.ts' },
  }),
);
