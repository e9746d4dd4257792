import { beforeAll, describe, expect, it } from 'vitest';
import { daemonConfig, testApp } from './helpers/apps.js';
import { backend } from './helpers/clients.js';
import { startDaemon, type RunningDaemon } from './helpers/daemon.js';
import { connectRaw, type RawSocket } from './helpers/raw-socket.js';
import { sleep } from './helpers/wait.js';

const alpha = testApp('alpha');
const beta = testApp('beta');
let daemon: RunningDaemon;

beforeAll(async () => {
  daemon = await startDaemon(daemonConfig([alpha, beta]));
});

async function subscribe(app: typeof alpha, channel: string, userId = 'same-user'): Promise<{ socket: RawSocket; socketId: string }> {
  const connection = await connectRaw(daemon, app.key);
  const sdk = backend(daemon, app);
  if (channel.startsWith('presence-')) connection.socket.subscribe(channel, sdk.authorizeChannel(connection.socketId, channel, { user_id: userId }));
  else if (channel.startsWith('private-')) connection.socket.subscribe(channel, sdk.authorizeChannel(connection.socketId, channel));
  else connection.socket.subscribe(channel);
  await connection.socket.next('pusher_internal:subscription_succeeded');
  return connection;
}

/** A ping round trip: everything the daemon sent before the pong has arrived. */
async function flush(socket: RawSocket): Promise<void> {
  socket.send({ event: 'pusher:ping', data: {} });
  await socket.next('pusher:pong');
}

describe('applications are isolated from each other', () => {
  it('delivers an event only to subscribers of the app it was triggered for', async () => {
    const a = await subscribe(alpha, 'shared-name');
    const b = await subscribe(beta, 'shared-name');
    await backend(daemon, alpha).trigger('shared-name', 'only-alpha', {});
    await a.socket.next('only-alpha');
    await flush(b.socket);
    expect(b.socket.received.some((frame) => frame.event === 'only-alpha')).toBe(false);
  });

  it('keeps presence members and counts per app', async () => {
    await subscribe(alpha, 'presence-shared', 'a-user');
    const b = await subscribe(beta, 'presence-shared', 'b-user');
    await sleep(100);
    expect(b.socket.received.some((frame) => frame.event === 'pusher_internal:member_added')).toBe(false);
    const users = await (await backend(daemon, beta).get({ path: '/channels/presence-shared/users' })).json();
    expect(users).toEqual({ users: [{ id: 'b-user' }] });
  });

  it('refuses a private channel signed with another app secret', async () => {
    const { socket, socketId } = await connectRaw(daemon, beta.key);
    socket.subscribe('private-cross', backend(daemon, alpha).authorizeChannel(socketId, 'private-cross'));
    expect((await socket.next('pusher:subscription_error')).data).toMatchObject({ type: 'AuthError', status: 401 });
  });

  it('terminates a user only in the app that asked', async () => {
    const a = await subscribe(alpha, 'presence-term', 'twin');
    const b = await subscribe(beta, 'presence-term', 'twin');
    await backend(daemon, alpha).terminateUserConnections('twin');
    expect((await a.socket.closedWithin()).code).toBe(4009);
    await flush(b.socket);
    expect(b.socket.isOpen).toBe(true);
  });

  it('does not relay client events across apps', async () => {
    const sender = await subscribe(alpha, 'private-chat-x');
    const sameApp = await subscribe(alpha, 'private-chat-x');
    const otherApp = await subscribe(beta, 'private-chat-x');
    sender.socket.send({ event: 'client-hi', channel: 'private-chat-x', data: {} });
    await sameApp.socket.next('client-hi');
    await flush(otherApp.socket);
    expect(otherApp.socket.received.some((frame) => frame.event === 'client-hi')).toBe(false);
  });

  it('refuses HTTP API calls signed with another app credentials with 401', async () => {
    const impostor = backend(daemon, { ...alpha, id: beta.id });
    await expect(impostor.get({ path: '/channels' })).rejects.toMatchObject({ status: 401 });
  });

  it('excludes socket_id only within its own app', async () => {
    const a = await subscribe(alpha, 'excl');
    const b = await subscribe(beta, 'excl');
    await backend(daemon, beta).trigger('excl', 'e', {}, { socket_id: a.socketId });
    await b.socket.next('e');
  });
});
