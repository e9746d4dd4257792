import { defineConfig } from 'tsup';
// Relative: this package builds the preset it exports.
import { nodeApplication } from './src/tsup.js';

export default defineConfig(nodeApplication({ entry: { index: 'src/index.ts', tsup: 'src/tsup.ts' } }));
