import { defineConfig } from 'tsup';
// Relative: this package builds the preset it exports.
import { privateNodePackage } from './src/tsup.js';

export default defineConfig(privateNodePackage({ entry: { index: 'src/index.ts', tsup: 'src/tsup.ts' } }));
