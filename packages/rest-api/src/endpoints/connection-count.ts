import { defineEndpoint } from '../endpoint.js';

/** `GET /apps/:appId/connections`: the app's connections across the cluster. */
export const connectionCount = defineEndpoint({
  method: 'GET',
  path: '/connections',
  parse: () => undefined,
  cost: () => ({ kind: 'read', points: 1 }),
  run: async (server, app) => ({ connections: await server.connectionCount(app) }),
});
