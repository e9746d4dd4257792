import { privateNodePackage } from '@org/dev-kit/tsup';
import { defineConfig } from 'tsup';

export default defineConfig(
  privateNodePackage({
    entry: { index: 'src/index.ts', bin: 'src/bin.ts' },
    dts: { entry: { index: 'src/index.ts' } },
  }),
);
