import type { CaseContext } from '../case.js';
import { check, fail } from '../checks.js';
import { connectRaw, type Frame, type RawSocket } from '../clients/raw-socket.js';
import { openPusher, signedIn, type ClientIdentity, type PusherClient } from '../clients/pusher-client.js';
import { signer } from '../clients/server-sdk.js';
import type { AppCredentials, Endpoint } from '../target.js';

/** What several groups share: the feature app's clients, raw subscriptions and sign-ins, "nothing arrives". */

/** How long a case waits to be sure a frame does not come: longer than any delivery on a healthy server. */
const quietMs = 750;

export function featureApp(context: CaseContext): AppCredentials {
  const app = context.target.featureApp;
  if (!app) fail('the case needs --feature-app-id, --feature-app-key and --feature-app-secret');
  return app;
}

export function secondNode(context: CaseContext): Endpoint {
  const node = context.target.node2;
  if (!node) fail('the case needs --node2-port');
  return node;
}

/**
 * A pusher-js client of the feature app, signed in: with authorized connections enabled an anonymous
 * one would be closed at the timeout, and no feature case is about that but the one that says so.
 */
export async function signedInFeatureClient(context: CaseContext, identity: ClientIdentity = {}, node: Endpoint = context.target.node): Promise<PusherClient> {
  const client = openPusher(context, { node, app: featureApp(context), identity });
  await signedIn(context, client);
  return client;
}

/** `pusher:signin` over a raw socket, signed by the SDK; resolves with the `pusher:signin_success` frame. */
export async function signInRaw(socket: RawSocket, socketId: string, app: AppCredentials, user: { id: string; [field: string]: unknown }): Promise<Frame> {
  const after = socket.frames.length;
  socket.send({ event: 'pusher:signin', data: signer(app).authenticateUser(socketId, user) });
  return socket.next((frame) => frame.event === 'pusher:signin_success' || frame.event === 'pusher:error', 'pusher:signin_success', undefined, after).then((frame) => {
    if (frame.event === 'pusher:error') fail(`pusher:signin was refused: ${frame.raw}`);
    return frame;
  });
}

/** A raw connection of the feature app, signed in as a fresh user. */
export async function signedInRaw(context: CaseContext, node: Endpoint = context.target.node): Promise<{ socket: RawSocket; socketId: string }> {
  const app = featureApp(context);
  const connection = await connectRaw(context, { node, key: app.key });
  await signInRaw(connection.socket, connection.socketId, app, { id: context.unique('raw-user') });
  return connection;
}

/** Subscribes a raw socket (signing private and presence channels) and resolves with the server's answer for that channel. */
export async function subscribeRaw(
  context: CaseContext,
  connection: { socket: RawSocket; socketId: string },
  channel: string,
  options: { app?: AppCredentials; member?: { user_id: string; user_info?: Record<string, unknown> }; secret?: string } = {},
): Promise<Frame> {
  const app = options.app ?? context.target.app;
  const signing = signer({ ...app, secret: options.secret ?? app.secret });
  const after = connection.socket.frames.length;
  if (channel.startsWith('presence-')) connection.socket.subscribe(channel, signing.authorizeChannel(connection.socketId, channel, options.member ?? { user_id: context.unique('member') }));
  else if (channel.startsWith('private-')) {
    const auth = signing.authorizeChannel(connection.socketId, channel);
    // The shared secret is for pusher-js only; like pusher-js, a raw client does not send it.
    connection.socket.subscribe(channel, { auth: auth.auth });
  } else connection.socket.subscribe(channel);
  return connection.socket.next(
    (frame) => (frame.channel === channel && (frame.event === 'pusher_internal:subscription_succeeded' || frame.event === 'pusher:subscription_error')) || frame.event === 'pusher:error',
    `the answer to the subscription to ${channel}`,
    undefined,
    after,
  );
}

/** Fails unless the subscription answered with success. */
export function checkSubscribed(answer: Frame, channel: string): void {
  check(answer.event === 'pusher_internal:subscription_succeeded', `the subscription to ${channel} was answered ${answer.raw}, not pusher_internal:subscription_succeeded`);
}

/** Fails unless the subscription was refused: `pusher:subscription_error` for the channel, or a `pusher:error`. */
export function checkRefused(answer: Frame, channel: string): void {
  check(answer.event !== 'pusher_internal:subscription_succeeded', `the server accepted the subscription to ${channel}, which it must refuse`);
}

/**
 * Waits `ms`, then fails if `received` holds more than `allowed` entries: counted from the start of
 * the recording, so something that arrived early (before the wait) is caught as well.
 */
export async function atMost(context: CaseContext, allowed: number, received: () => readonly unknown[], what: string, ms = quietMs): Promise<void> {
  await context.sleep(ms);
  const all = received();
  if (all.length > allowed) fail(`${what}, but got ${all.length} (expected at most ${allowed}): ${JSON.stringify(all).slice(0, 300)}`);
}

/** Asks `probe` (an HTTP request, say) every 100 ms until it answers true; fails after `timeoutMs` (default 5 s). */
export async function eventually(context: CaseContext, probe: () => Promise<boolean>, what: string | (() => string), timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await probe()) return;
    if (Date.now() >= deadline) fail(`waited ${(timeoutMs / 1_000).toFixed(1)} s for ${typeof what === 'string' ? what : what()}`);
    await context.sleep(100);
  }
}
