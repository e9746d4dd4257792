import * as vitest from 'vitest';
import { afterAll } from 'vitest';
import { runSubscriptionCountModel } from '@org/protocol/testing';
import { createScalerHub } from './scaler-hub.js';

// One hub for the suite, as in a process (each generated run uses an app of its own): every engine is a worker's port to it.
const hub = createScalerHub();
afterAll(() => hub.close());

runSubscriptionCountModel(vitest, 'thread hub, three workers', { engines: 3, createNodes: async (count) => Array.from({ length: count }, () => hub.node()) });
