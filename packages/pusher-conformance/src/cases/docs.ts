/**
 * The Pusher documentation pages the cases cite, as paths under https://pusher.com/docs/ (each case
 * adds the section's anchor). One place, so a moved page is fixed once.
 */
export const docs = {
  protocol: 'channels/library_auth_reference/pusher-websockets-protocol',
  httpApi: 'channels/library_auth_reference/rest-api',
  signatures: 'channels/library_auth_reference/auth-signatures',
  publicChannels: 'channels/using_channels/public-channels',
  privateChannels: 'channels/using_channels/private-channels',
  presenceChannels: 'channels/using_channels/presence-channels',
  encryptedChannels: 'channels/using_channels/encrypted-channels',
  cacheChannels: 'channels/using_channels/cache-channels',
  events: 'channels/using_channels/events',
  userAuthentication: 'channels/using_channels/user-authentication',
  watchlist: 'channels/using_channels/watchlist-events',
  authorizedConnections: 'channels/using_channels/authorized-connections',
  excludingRecipients: 'channels/server_api/excluding-event-recipients',
  sendToUser: 'channels/server_api/sending-events-to-authenticated-users',
  terminate: 'channels/server_api/terminating-user-connections',
  webhooks: 'channels/server_api/webhooks',
  subscriptionCount: 'channels/using_channels/events#subscription-count-events',
} as const;
