import { createLocalScaler } from './local-scaler.js';
import { runScalerConformance } from './testing/scaler-conformance.js';

runScalerConformance('in-memory', { create: async () => createLocalScaler(), multiNode: false });
