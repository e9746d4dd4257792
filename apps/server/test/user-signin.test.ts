import { beforeAll, describe, expect, it } from 'vitest';
import { daemonConfig, testApp } from './helpers/apps.js';
import { backend, pusherClient } from './helpers/clients.js';
import { startDaemon, type RunningDaemon } from './helpers/daemon.js';
import { connectRaw, type RawSocket } from './helpers/raw-socket.js';
import { sleep, waitFor } from './helpers/wait.js';

const app = testApp('users');
let daemon: RunningDaemon;

beforeAll(async () => {
  daemon = await startDaemon(daemonConfig([app]));
});

/** A pusher-js client signed in as `id`, with its server-to-user channel ready; collects `event`. */
async function signedIn(id: string, event: string): Promise<{ client: ReturnType<typeof pusherClient>; received: unknown[] }> {
  const client = pusherClient(daemon, app, { user: { id, name: id.toUpperCase() } });
  const received: unknown[] = [];
  client.user.bind(event, (data: unknown) => received.push(data));
  client.signin();
  await waitFor(() => (client.user.serverToUserChannel?.subscribed ? true : undefined), `${id} to sign in`);
  return { client, received };
}

async function signInRaw(user: { id: string; [field: string]: unknown }): Promise<RawSocket> {
  const { socket, socketId } = await connectRaw(daemon, app.key);
  socket.send({ event: 'pusher:signin', data: backend(daemon, app).authenticateUser(socketId, user) });
  await socket.next('pusher:signin_success');
  return socket;
}

describe('user sign-in and server-to-user events', () => {
  it('answers pusher:signin with pusher:signin_success carrying the signed user_data', async () => {
    const { socket, socketId } = await connectRaw(daemon, app.key);
    const signed = backend(daemon, app).authenticateUser(socketId, { id: 'raw-user', name: 'Raw' });
    socket.send({ event: 'pusher:signin', data: signed });
    const success = await socket.next('pusher:signin_success');
    expect(success).toEqual({ event: 'pusher:signin_success', data: { user_data: signed.user_data } });
  });

  it('signs pusher-js in (pusher.signin) and exposes user_data', async () => {
    const { client } = await signedIn('dora', 'noop');
    expect(client.user.user_data).toEqual({ id: 'dora', name: 'DORA' });
  });

  it('delivers sendToUser events to every socket of that user and to nobody else', async () => {
    const first = await signedIn('erin', 'direct');
    const second = await signedIn('erin', 'direct');
    const other = await signedIn('frank', 'direct');
    await backend(daemon, app).sendToUser('erin', 'direct', { note: 'for erin' });
    await waitFor(() => (first.received.length && second.received.length ? true : undefined), 'both of erin\'s sockets');
    expect(first.received).toEqual([{ note: 'for erin' }]);
    expect(second.received).toEqual([{ note: 'for erin' }]);
    await sleep(150);
    expect(other.received).toEqual([]);
  });

  it('does not deliver server-to-user events to a socket that is not signed in', async () => {
    const { socket } = await connectRaw(daemon, app.key);
    socket.subscribe('#server-to-user-gina');
    const refused = await socket.next('pusher:subscription_error');
    expect(refused.data).toMatchObject({ type: 'AuthError', status: 401 });
    const gina = await signInRaw({ id: 'gina' });
    await backend(daemon, app).sendToUser('gina', 'ping-user', { ok: true });
    expect((await gina.next('ping-user')).data).toBe('{"ok":true}');
    await sleep(100);
    expect(socket.received.some((frame) => frame.event === 'ping-user')).toBe(false);
  });

  it('closes a bad sign-in with pusher:error 4009 and close 4009', async () => {
    const { socket, socketId } = await connectRaw(daemon, app.key);
    const signed = backend(daemon, { ...app, secret: 'wrong-secret' }).authenticateUser(socketId, { id: 'mallory' });
    socket.send({ event: 'pusher:signin', data: signed });
    expect((await socket.next('pusher:error')).data).toMatchObject({ code: 4009 });
    expect((await socket.closedWithin()).code).toBe(4009);
  });

  it('closes a sign-in without user_data with 4009', async () => {
    const { socket } = await connectRaw(daemon, app.key);
    socket.send({ event: 'pusher:signin', data: { auth: `${app.key}:abc` } });
    expect((await socket.closedWithin()).code).toBe(4009);
  });

  it('terminates every connection of a user with 4009 through terminateUserConnections, leaving others connected', async () => {
    const victim = await signedIn('hank', 'noop');
    const victimRaw = await signInRaw({ id: 'hank' });
    const bystander = await signedIn('ivy', 'noop');
    const errors: { data?: { code?: number } }[] = [];
    victim.client.connection.bind('error', (error: { data?: { code?: number } }) => errors.push(error));

    const response = await backend(daemon, app).terminateUserConnections('hank');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({});

    expect((await victimRaw.next('pusher:error')).data).toMatchObject({ code: 4009 });
    expect((await victimRaw.closedWithin()).code).toBe(4009);
    await waitFor(() => (errors.some((error) => error.data?.code === 4009) ? true : undefined), 'pusher-js to see 4009');
    // 4000-4099 tells pusher-js not to reconnect.
    await waitFor(() => (victim.client.connection.state !== 'connected' ? true : undefined), 'pusher-js to leave the connected state');
    await sleep(300);
    expect(victim.client.connection.state).not.toBe('connected');
    expect(bystander.client.connection.state).toBe('connected');
  });

  it('terminates a user known only as a presence member', async () => {
    const { socket, socketId } = await connectRaw(daemon, app.key);
    socket.subscribe('presence-hall', backend(daemon, app).authorizeChannel(socketId, 'presence-hall', { user_id: 'jack' }));
    await socket.next('pusher_internal:subscription_succeeded');
    await backend(daemon, app).terminateUserConnections('jack');
    expect((await socket.closedWithin()).code).toBe(4009);
  });
});
