import type { ClusterState } from '@org/protocol';
import type { HubNode } from './hub-node.js';
import type { ScalerHubStats } from './hub-stats.js';
import type { InterestTable } from './interest-table.js';

/** What the hub's parts share: the one cluster state, the attached nodes, the counters and who listens where. */
export interface HubCore {
  readonly state: ClusterState;
  readonly nodes: Map<string, HubNode>;
  readonly stats: ScalerHubStats;
  readonly interest: InterestTable;
}
