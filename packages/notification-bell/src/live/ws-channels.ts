import { NOTIFICATION_EVENT_NAMES, defaultChannelFor } from '@org/notifications/contract';
import { NotificationBellError } from '../errors.js';
import { isRecord } from '../normalize.js';
import type { WsChannelsConfig } from '../options.js';
import { authHeaders } from './auth-headers.js';
import type { LiveHandlers, LiveSource } from './live-source.js';

function privateChannelName(config: WsChannelsConfig, userId: string): string {
  return config.channel ?? defaultChannelFor(userId);
}

/** The slice of pusher-js we use; keeps our types independent of its internals. */
interface PusherChannelLike {
  bind(event: string, callback: (data: unknown) => void): unknown;
}
interface PusherLike {
  connection: { bind(event: string, callback: (data: unknown) => void): unknown; socket_id?: string };
  subscribe(name: string): PusherChannelLike;
  disconnect(): void;
}
type PusherConstructor = new (key: string, options: Record<string, unknown>) => PusherLike;

/**
 * Pusher-protocol connection to our realtime server. pusher-js is an optional
 * peer dependency, imported only here and only when this broadcaster is configured,
 * so pages that poll or use SSE never download it.
 */
export function connectWsChannels(config: WsChannelsConfig, userId: string, handlers: LiveHandlers): LiveSource {
  let pusher: PusherLike | undefined;
  let closed = false;

  void (async () => {
    let Pusher: PusherConstructor;
    try {
      const module = (await import('pusher-js')) as unknown as { default: PusherConstructor };
      Pusher = module.default;
    } catch (cause) {
      handlers.onError(new NotificationBellError('BROADCASTER_UNAVAILABLE', `broadcaster 'ws-channels' needs the pusher-js package (npm i pusher-js).`, { cause }));
      return;
    }
    if (closed) return;
    const secure = config.forceTLS ?? globalThis.location?.protocol === 'https:';
    const options: Record<string, unknown> = {
      cluster: config.wsCluster ?? 'mt1',
      forceTLS: secure,
      enabledTransports: secure ? ['wss'] : ['ws'],
      disableStats: true,
      channelAuthorization: {
        endpoint: config.authEndpoint,
        transport: 'ajax',
        // Read lazily so a rotated token is used on re-authorisation.
        headersProvider: () => authHeaders(),
      },
    };
    if (config.wsHost !== undefined) options.wsHost = config.wsHost;
    if (config.wsPort !== undefined) {
      options.wsPort = config.wsPort;
      options.wssPort = config.wsPort;
    }
    if (config.wsPath !== undefined) options.wsPath = config.wsPath;
    pusher = new Pusher(config.wsKey, options);
    pusher.connection.bind('state_change', (change) => {
      handlers.onHealthChange(isRecord(change) && change.current === 'connected');
    });
    pusher.connection.bind('error', (error) => handlers.onError(error));
    const channel = pusher.subscribe(privateChannelName(config, userId));
    // Fires on every (re)subscription, i.e. after each reconnect: the resync point.
    channel.bind('pusher:subscription_succeeded', () => handlers.onOpen());
    channel.bind('pusher:subscription_error', (status) =>
      handlers.onError(new NotificationBellError('HTTP_ERROR', `Channel authorisation failed at ${config.authEndpoint}.`, { cause: status })),
    );
    // Exactly the contract's event names: the store understands these and no others.
    for (const event of NOTIFICATION_EVENT_NAMES) {
      channel.bind(event, (data) => {
        if (isRecord(data)) handlers.onEvent({ event, data });
      });
    }
  })();

  return {
    close() {
      closed = true;
      pusher?.disconnect();
    },
    socketId: () => pusher?.connection.socket_id,
  };
}
