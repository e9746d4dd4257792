import type { ApiRoute } from '../endpoint.js';
import { channelAttributes } from './channel-attributes.js';
import { connectionCount } from './connection-count.js';
import { listChannels } from './list-channels.js';
import { presenceUsers } from './presence-users.js';
import { terminateUser } from './terminate-user.js';
import { triggerBatch } from './trigger-batch.js';
import { triggerEvent } from './trigger-event.js';

/** Every endpoint under `/apps/:appId`. */
export const endpoints: readonly ApiRoute[] = [
  triggerEvent,
  triggerBatch,
  listChannels,
  channelAttributes,
  presenceUsers,
  terminateUser,
  connectionCount,
];
