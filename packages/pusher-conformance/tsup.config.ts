import { nodeApplication } from '@org/dev-kit/tsup';
import { defineConfig } from 'tsup';

export default defineConfig(nodeApplication({ entry: { index: 'src/index.ts', bin: 'src/bin.ts' } }));
