import { randomBytes } from 'node:crypto';
import PusherServer from 'pusher';
import Pusher from 'pusher-js';
import { afterAll } from 'vitest';
import type { TestApp } from './apps.js';
import type { RunningDaemon } from './daemon.js';
import { waitFor } from './wait.js';

/** A 32-byte master key for end-to-end encrypted channels, shared by the SDK and the auth handler. */
export const encryptionMasterKeyBase64 = randomBytes(32).toString('base64');

/** The official Node server SDK, pointed at the daemon. */
export function backend(daemon: RunningDaemon, app: TestApp): PusherServer {
  return new PusherServer({
    appId: app.id,
    key: app.key,
    secret: app.secret,
    host: '127.0.0.1',
    port: String(daemon.port),
    useTLS: false,
    encryptionMasterKeyBase64,
  });
}

export interface ClientIdentity {
  /** The presence member this client joins presence channels as; default `{ user_id: 'u1' }`. */
  presence?: { user_id: string; user_info?: Record<string, unknown> };
  /** The user this client signs in as with `pusher.signin()`; default `{ id: 'u1' }`. */
  user?: { id: string; [field: string]: unknown };
  /** Channels whose authorization the app's auth endpoint refuses (the handler reports an error). */
  refuse?: (channel: string) => boolean;
  /** Sign with this secret instead of the app's: the daemon must then refuse the signature. */
  signWithSecret?: string;
}

const clients = new Set<Pusher>();

/** Every pusher-js client a test file creates is disconnected when the file ends. */
afterAll(() => {
  for (const client of clients) client.disconnect();
  clients.clear();
});

/**
 * pusher-js's Node build on the daemon's WebSocket only. Channel authorization
 * and user authentication are signed in-process by the `pusher` SDK, exactly
 * what an app's auth endpoint would return.
 */
export function pusherClient(daemon: RunningDaemon, app: TestApp, identity: ClientIdentity = {}): Pusher {
  const signer = backend(daemon, { ...app, secret: identity.signWithSecret ?? app.secret });
  const presence = identity.presence ?? { user_id: 'u1' };
  const user = identity.user ?? { id: 'u1' };
  const client = new Pusher(app.key, {
    wsHost: '127.0.0.1',
    wsPort: daemon.port,
    forceTLS: false,
    enabledTransports: ['ws'],
    cluster: 'local',
    disableStats: true,
    channelAuthorization: {
      endpoint: '/pusher/auth',
      transport: 'ajax',
      customHandler: ({ socketId, channelName }, callback) => {
        if (identity.refuse?.(channelName)) {
          callback(new Error(`the app refuses ${channelName}`), null);
          return;
        }
        callback(
          null,
          channelName.startsWith('presence-')
            ? signer.authorizeChannel(socketId, channelName, presence)
            : signer.authorizeChannel(socketId, channelName),
        );
      },
    },
    userAuthentication: {
      endpoint: '/pusher/user-auth',
      transport: 'ajax',
      customHandler: ({ socketId }, callback) => callback(null, signer.authenticateUser(socketId, user)),
    },
  });
  clients.add(client);
  return client;
}

/** Resolves once the client's connection state is `connected`. */
export async function connected(client: Pusher, timeoutMs = 5_000): Promise<string> {
  await waitFor(() => (client.connection.state === 'connected' ? true : undefined), 'pusher-js to connect', timeoutMs);
  return client.connection.socket_id;
}

/** Subscribes and resolves once `pusher:subscription_succeeded` fired. */
export function subscribed(client: Pusher, channelName: string, timeoutMs = 5_000): Promise<ReturnType<Pusher['subscribe']>> {
  const channel = client.subscribe(channelName);
  return waitFor(() => (channel.subscribed ? channel : undefined), `subscription to ${channelName}`, timeoutMs);
}

/** Disconnects now (instead of at the end of the file). */
export function disconnect(client: Pusher): void {
  client.disconnect();
  clients.delete(client);
}
