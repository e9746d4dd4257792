import Echo from 'laravel-echo';
import { beforeAll, describe, expect, it } from 'vitest';
import { daemonConfig, testApp } from './helpers/apps.js';
import { backend, pusherClient, type ClientIdentity } from './helpers/clients.js';
import { startDaemon, type RunningDaemon } from './helpers/daemon.js';
import { waitFor } from './helpers/wait.js';

const app = testApp('echo');
let daemon: RunningDaemon;

beforeAll(async () => {
  daemon = await startDaemon(daemonConfig([app]));
});

/** Laravel Echo with the pusher broadcaster, on a pusher-js client whose auth the pusher SDK signs. */
function echo(identity: ClientIdentity = {}): Echo<'pusher'> {
  return new Echo({ broadcaster: 'pusher', key: app.key, client: pusherClient(daemon, app, identity) });
}

describe('Laravel Echo (pusher broadcaster)', () => {
  it('receives a namespaced Laravel event on a private channel', async () => {
    const received: unknown[] = [];
    const client = echo();
    client.private('orders.1').listen('OrderShipped', (event: unknown) => received.push(event));
    await waitFor(() => (client.connector.pusher.channel('private-orders.1')?.subscribed ? true : undefined), 'Echo to subscribe');
    await backend(daemon, app).trigger('private-orders.1', 'App\\Events\\OrderShipped', { order: { id: 1 } });
    await waitFor(() => received[0], 'the Laravel event');
    expect(received).toEqual([{ order: { id: 1 } }]);
  });

  it('fires .error() with the subscription error when the signature is refused', async () => {
    const errors: unknown[] = [];
    const subscribedCalls: unknown[] = [];
    echo({ signWithSecret: 'not-the-secret' })
      .private('forbidden')
      .subscribed(() => subscribedCalls.push(true))
      .error((error: unknown) => errors.push(error));
    await waitFor(() => errors[0], 'Echo .error()');
    expect(errors[0]).toEqual({ type: 'AuthError', error: expect.any(String), status: 401 });
    expect(subscribedCalls).toEqual([]);
  });

  it('fires .error() when the app auth endpoint refuses the channel', async () => {
    const errors: unknown[] = [];
    echo({ refuse: () => true }).private('refused').error((error: unknown) => errors.push(error));
    await waitFor(() => errors[0], 'Echo .error()');
    expect(errors[0]).toMatchObject({ type: 'AuthError' });
  });

  it('tracks presence with here/joining/leaving and relays whispers', async () => {
    const here: unknown[] = [];
    const joined: unknown[] = [];
    const left: unknown[] = [];
    const whispers: unknown[] = [];
    const first = echo({ presence: { user_id: '1', user_info: { name: 'Taylor' } } });
    first
      .join('chat.1')
      .here((members: unknown[]) => here.push(members))
      .joining((member: unknown) => joined.push(member))
      .leaving((member: unknown) => left.push(member))
      .listenForWhisper('typing', (data: unknown) => whispers.push(data));
    await waitFor(() => here[0], 'here()');
    expect(here[0]).toEqual([{ name: 'Taylor' }]);

    const second = echo({ presence: { user_id: '2', user_info: { name: 'Abigail' } } });
    const secondChannel = second.join('chat.1');
    await waitFor(() => joined[0], 'joining()');
    expect(joined).toEqual([{ name: 'Abigail' }]);

    await waitFor(() => (second.connector.pusher.channel('presence-chat.1')?.subscribed ? true : undefined), 'the second member to subscribe');
    secondChannel.whisper('typing', { name: 'Abigail' });
    await waitFor(() => whispers[0], 'the whisper');
    expect(whispers).toEqual([{ name: 'Abigail' }]);

    second.disconnect();
    await waitFor(() => left[0], 'leaving()');
    expect(left).toEqual([{ name: 'Abigail' }]);
  });
});
