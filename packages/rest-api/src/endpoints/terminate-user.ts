import { defineEndpoint } from '../endpoint.js';

/**
 * `POST /apps/:appId/users/:userId/terminate_connections`: closes the user's
 * sockets on every node. The body (`{}` from the SDKs) only counts for `body_md5`.
 * Not rate-limited: it publishes no events and reads nothing.
 */
export const terminateUser = defineEndpoint({
  method: 'POST',
  path: '/users/:userId/terminate_connections',
  parse: ({ params }) => params.userId ?? '',
  cost: () => undefined,
  run(server, app, userId) {
    server.terminateUserConnections(app, userId);
    return Promise.resolve({});
  },
});
