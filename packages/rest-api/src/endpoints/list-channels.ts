import { defineEndpoint } from '../endpoint.js';
import { infoAttributes } from './info-attributes.js';

/** `GET /apps/:appId/channels?filter_by_prefix=&info=`: the occupied channels. */
export const listChannels = defineEndpoint({
  method: 'GET',
  path: '/channels',
  parse: ({ query }) => ({
    prefix: query.get('filter_by_prefix') || undefined,
    info: infoAttributes(query, ['subscription_count', 'user_count']),
  }),
  cost: () => ({ kind: 'read', points: 1 }),
  async run(server, app, options) {
    // The engine refuses user_count without a presence- prefix (400), as Pusher does.
    return { channels: await server.channels(app, options) };
  },
});
