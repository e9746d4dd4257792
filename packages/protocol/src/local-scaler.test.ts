import * as vitest from 'vitest';
import { createLocalScaler } from './local-scaler.js';
import { runScalerConformance } from './testing/scaler-conformance.js';

runScalerConformance(vitest, 'in-memory', { create: async () => createLocalScaler(), multiNode: false });
