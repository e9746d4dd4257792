import * as vitest from 'vitest';
import { createLocalScaler } from './local-scaler.js';
import { createMemoryCluster } from './testing/memory-cluster.js';
import { runWatchlistModelConformance } from './testing/watchlist-model.js';

runWatchlistModelConformance(vitest, 'in-memory scaler, one engine', { engines: 1, runs: 30, createNodes: async () => [createLocalScaler()] });

runWatchlistModelConformance(vitest, 'in-memory cluster, three engines', {
  engines: 3,
  runs: 60,
  createNodes: async (count) => {
    const cluster = createMemoryCluster();
    return Array.from({ length: count }, () => cluster.node());
  },
});
