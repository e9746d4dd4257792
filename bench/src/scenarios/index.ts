import { clientEventsScenario } from './client-events.js';
import { cpuCostScenario } from './cpu-cost.js';
import { crossNodeScenario } from './cross-node.js';
import { crossNodeRoutedScenario } from './cross-node-routed.js';
import { fanOutScenario } from './fan-out.js';
import { httpApiScenario } from './http-api.js';
import { idleScenario } from './idle.js';
import { manyChannelsScenario } from './many-channels.js';
import { presenceChurnScenario } from './presence-churn.js';
import type { Scenario } from './scenario.js';

/** Every scenario, in report order. */
export const scenarios: Scenario[] = [
  idleScenario,
  fanOutScenario,
  manyChannelsScenario,
  httpApiScenario,
  clientEventsScenario,
  presenceChurnScenario,
  crossNodeScenario,
  crossNodeRoutedScenario,
  cpuCostScenario,
];
