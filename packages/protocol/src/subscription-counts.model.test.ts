import * as vitest from 'vitest';
import { createMemoryCluster } from './testing/memory-cluster.js';
import { runSubscriptionCountModel } from './testing/subscription-count-model.js';

runSubscriptionCountModel(vitest, 'in-memory cluster, three engines', {
  engines: 3,
  createNodes: async (count) => {
    const cluster = createMemoryCluster();
    return Array.from({ length: count }, () => cluster.node());
  },
});
