import { defineEndpoint } from '../endpoint.js';
import { infoAttributes } from './info-attributes.js';

/** `GET /apps/:appId/channels/:channelName?info=`: `occupied` plus the requested attributes. */
export const channelAttributes = defineEndpoint({
  method: 'GET',
  path: '/channels/:channelName',
  parse: ({ params, query }) => ({
    channel: params.channelName ?? '',
    info: infoAttributes(query, ['subscription_count', 'user_count', 'cache']),
  }),
  cost: () => ({ kind: 'read', points: 1 }),
  run: (server, app, { channel, info }) => server.channel(app, channel, info),
});
