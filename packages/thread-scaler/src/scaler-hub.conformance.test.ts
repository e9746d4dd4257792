import * as vitest from 'vitest';
import { afterAll } from 'vitest';
import { runRoutingConformance, runScalerConformance, runWatchlistModelConformance } from '@org/protocol/testing';
import { createScalerHub } from './scaler-hub.js';

// One hub for the whole suite, as in a process: every node the suite makes is a port to it.
const hub = createScalerHub();
afterAll(() => hub.close());

runScalerConformance(vitest, 'threads', { create: async () => hub.node(), multiNode: true });

runRoutingConformance(vitest, 'threads', { create: async () => hub.node(), multiNode: true });

runWatchlistModelConformance(vitest, 'threads', { engines: 3, runs: 25, createNodes: async (count) => Array.from({ length: count }, () => hub.node()) });
