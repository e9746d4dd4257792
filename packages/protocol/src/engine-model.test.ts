import * as vitest from 'vitest';
import { createLocalScaler } from './local-scaler.js';
import { createMemoryCluster } from './testing/memory-cluster.js';
import { runEngineModelConformance, type EngineModelAction } from './testing/engine-model.js';

/** Sequences the model found wrong before the fixes they are named for; always tried first. */
const regressions: EngineModelAction[][][] = [
  // pusher-js leave-and-rejoin while another member joins: the leave's removal must not land after the re-join.
  [
    [{ op: 'subscribe', slot: 3, channel: 'presence-room' }, { op: 'subscribe', slot: 0, channel: 'presence-room' }],
    [{ op: 'unsubscribe', slot: 3, channel: 'presence-room' }, { op: 'subscribe', slot: 3, channel: 'presence-room' }],
  ],
  // A user's second socket on another node rejoins: a late member_removed must not drop the user from its own list.
  [[{ op: 'subscribe', slot: 0, channel: 'presence-room' }], [{ op: 'rejoin', slot: 1, channel: 'presence-room' }, { op: 'rejoin', slot: 0, channel: 'presence-room' }]],
  // A user leaves on one node and returns on another while a third member subscribes: the late member_removed is stale.
  [
    [{ op: 'subscribe', slot: 1, channel: 'presence-room' }],
    [
      { op: 'unsubscribe', slot: 0, channel: 'presence-room' },
      { op: 'reconnect', slot: 1, channel: 'presence-room' },
      { op: 'subscribe', slot: 0, channel: 'presence-room' },
      { op: 'subscribe', slot: 3, channel: 'presence-room' },
    ],
    [{ op: 'subscribe', slot: 0, channel: 'presence-room' }],
  ],
  // Two rejoins back to back, then another member: the socket must end subscribed and receiving.
  [[{ op: 'rejoin', slot: 0, channel: 'presence-room' }, { op: 'rejoin', slot: 0, channel: 'presence-room' }, { op: 'subscribe', slot: 2, channel: 'presence-room' }]],
];

runEngineModelConformance(vitest, 'in-memory scaler, one engine', {
  engines: 1,
  examples: regressions,
  createNodes: async () => [createLocalScaler()],
});

runEngineModelConformance(vitest, 'in-memory cluster, three engines', {
  engines: 3,
  examples: regressions,
  createNodes: async (count) => {
    const cluster = createMemoryCluster();
    return Array.from({ length: count }, () => cluster.node());
  },
});
