import Pusher from 'pusher-js';
import type { CaseContext } from '../case.js';
import { fail } from '../checks.js';
import type { AppCredentials, Endpoint } from '../target.js';
import { signer } from './server-sdk.js';

export type PusherClient = Pusher;
export type PusherChannel = ReturnType<Pusher['subscribe']>;

export interface ClientIdentity {
  /** The member this client joins presence channels as; default `{ user_id: <unique> }`. */
  presence?: { user_id: string; user_info?: Record<string, unknown> };
  /** The user `pusher.signin()` signs in as (may carry `watchlist`); default `{ id: <unique> }`. */
  user?: { id: string; [field: string]: unknown };
  /** Channels the app's auth endpoint refuses, as an app's would with a 403. */
  refuse?: (channel: string) => boolean;
  /** Sign with this secret instead of the app's: the server must refuse the signature. */
  signWithSecret?: string;
}

export interface OpenPusherOptions {
  node: Endpoint;
  app: AppCredentials;
  identity?: ClientIdentity;
}

/**
 * pusher-js's Node build on the server's WebSocket transport only. Channel authorization and user
 * authentication are signed in-process by the `pusher` SDK, exactly what an app's auth endpoints
 * return. The client is disconnected when the case ends.
 */
export function openPusher(context: CaseContext, options: OpenPusherOptions): PusherClient {
  const { node, app, identity = {} } = options;
  const signing = signer({ ...app, secret: identity.signWithSecret ?? app.secret });
  const presence = identity.presence ?? { user_id: context.unique('member') };
  const user = identity.user ?? { id: context.unique('user') };
  const client = new Pusher(app.key, {
    wsHost: node.host,
    wsPort: node.port,
    wssPort: node.port,
    forceTLS: node.tls,
    // The WebSocket transport only; with forceTLS pusher-js runs this same 'ws' transport over wss://.
    enabledTransports: ['ws'],
    cluster: 'conformance',
    disableStats: true,
    channelAuthorization: {
      endpoint: '/pusher/auth',
      transport: 'ajax',
      customHandler: ({ socketId, channelName }, callback) => {
        if (identity.refuse?.(channelName)) {
          callback(new Error(`the app refuses ${channelName}`), null);
          return;
        }
        callback(null, channelName.startsWith('presence-') ? signing.authorizeChannel(socketId, channelName, presence) : signing.authorizeChannel(socketId, channelName));
      },
    },
    userAuthentication: {
      endpoint: '/pusher/user-auth',
      transport: 'ajax',
      customHandler: ({ socketId }, callback) => callback(null, signing.authenticateUser(socketId, user)),
    },
  });
  context.defer(() => client.disconnect());
  return client;
}

/** Resolves with the socket id once pusher-js is connected; fails as soon as pusher-js gives up. */
export function connected(context: CaseContext, client: PusherClient): Promise<string> {
  return context.waitFor(() => {
    const state = client.connection.state;
    if (state === 'failed' || state === 'unavailable') fail(`pusher-js could not connect: its connection is ${state}`);
    return state === 'connected' ? client.connection.socket_id : undefined;
  }, 'pusher-js to connect');
}

/** Subscribes and resolves once `pusher:subscription_succeeded` fired; fails on `pusher:subscription_error`. */
export async function subscribed(context: CaseContext, client: PusherClient, name: string): Promise<PusherChannel> {
  const channel = client.subscribe(name);
  let refused: unknown;
  channel.bind('pusher:subscription_error', (error: unknown) => (refused = error));
  return context.waitFor(() => {
    if (refused !== undefined) fail(`the subscription to ${name} was refused: ${JSON.stringify(refused)}`);
    return channel.subscribed ? channel : undefined;
  }, `the subscription to ${name} to succeed`);
}

/** Every payload `emitter` emits for `event`, in order, from now on. */
export function record<T = unknown>(emitter: { bind(event: string, callback: (data: T) => void): unknown }, event: string): T[] {
  const received: T[] = [];
  emitter.bind(event, (data: T) => received.push(data));
  return received;
}

/** Signs in and resolves once pusher-js got `pusher:signin_success` (its `user.user_data` is set). */
export async function signedIn(context: CaseContext, client: PusherClient): Promise<void> {
  let error: unknown;
  client.user.bind('pusher:signin_error', (data: unknown) => (error = data));
  client.signin();
  await context.waitFor(() => {
    if (error !== undefined) fail(`pusher-js reported pusher:signin_error: ${JSON.stringify(error)}`);
    return client.user.user_data !== null || undefined;
  }, 'pusher:signin_success');
}

/**
 * After `pusher:signin_success` pusher-js subscribes to the user's own channel (`#server-to-user-<id>`);
 * events sent to the user before that subscription is answered are not for this connection yet.
 */
export function userChannelReady(context: CaseContext, client: PusherClient): Promise<true> {
  return context.waitFor(() => (client.user.serverToUserChannel?.subscribed ? true : undefined), "pusher-js's subscription to the user's own channel");
}
