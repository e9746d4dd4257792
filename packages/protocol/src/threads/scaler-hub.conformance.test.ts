import { afterAll } from 'vitest';
import { runRoutingConformance } from '../testing/routing-conformance.js';
import { runScalerConformance } from '../testing/scaler-conformance.js';
import { createScalerHub } from './scaler-hub.js';

// One hub for the whole suite, as in a process: every node the suite makes is a port to it.
const hub = createScalerHub();
afterAll(() => hub.close());

runScalerConformance('threads', { create: async () => hub.node(), multiNode: true });

runRoutingConformance('threads', { create: async () => hub.node(), multiNode: true });
