import type { ConformanceCase } from '../case.js';
import { authorizedConnectionCases } from './authorized-connections.js';
import { cacheChannelCases } from './cache-channels.js';
import { clientEventCases } from './client-events.js';
import { connectionCases } from './connection.js';
import { encryptedChannelCases } from './encrypted-channels.js';
import { httpApiCases } from './http-api.js';
import { idempotencyCases } from './idempotency.js';
import { limitCases } from './limits.js';
import { presenceChannelCases } from './presence-channels.js';
import { privateChannelCases } from './private-channels.js';
import { publicChannelCases } from './public-channels.js';
import { subscriptionCountCases } from './subscription-count.js';
import { twoNodeCases } from './two-nodes.js';
import { userCases } from './users.js';
import { watchlistCases } from './watchlist.js';
import { webhookCases } from './webhooks.js';

/** Every case, in the order of `groupNames`. */
export const allCases: readonly ConformanceCase[] = [
  ...connectionCases,
  ...publicChannelCases,
  ...privateChannelCases,
  ...presenceChannelCases,
  ...encryptedChannelCases,
  ...cacheChannelCases,
  ...clientEventCases,
  ...userCases,
  ...watchlistCases,
  ...subscriptionCountCases,
  ...authorizedConnectionCases,
  ...httpApiCases,
  ...idempotencyCases,
  ...limitCases,
  ...webhookCases,
  ...twoNodeCases,
];
