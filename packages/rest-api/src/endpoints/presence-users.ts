import { defineEndpoint } from '../endpoint.js';

/** `GET /apps/:appId/channels/:channelName/users`: members of a presence channel (400 for others). */
export const presenceUsers = defineEndpoint({
  method: 'GET',
  path: '/channels/:channelName/users',
  parse: ({ params }) => params.channelName ?? '',
  cost: () => ({ kind: 'read', points: 1 }),
  run: async (server, app, channel) => ({ users: await server.users(app, channel) }),
});
