import { defineGroup } from '../case.js';
import { checkEqual } from '../checks.js';
import { connectRaw } from '../clients/raw-socket.js';
import { openPusher, record, subscribed } from '../clients/pusher-client.js';
import { serverSdk } from '../clients/server-sdk.js';
import { docs } from './docs.js';
import { checkRefused, atMost, subscribeRaw } from './support.js';

export const privateChannelCases = defineGroup('private-channels', [
  {
    id: 'private-channels.authorized',
    title: 'pusher-js subscribes to a private channel with a signature from the SDK and receives its events',
    docs: `${docs.privateChannels}#subscribe`,
    async run(context) {
      const { node, app } = context.target;
      const name = context.unique('private-orders');
      const received = record(await subscribed(context, openPusher(context, { node, app }), name), 'shipped');
      await serverSdk(context, node, app).trigger(name, 'shipped', { id: 7 });
      const [event] = await context.waitFor(() => received.length > 0 && received, 'the event on the private channel');
      checkEqual(event, { id: 7 }, 'the event data');
    },
  },
  {
    id: 'private-channels.bad-signature',
    title: 'a subscription signed with another secret is refused (pusher:subscription_error or pusher:error) and gets no events',
    docs: `${docs.signatures}#private-channel`,
    async run(context) {
      const { node, app } = context.target;
      const name = context.unique('private-vault');
      const connection = await connectRaw(context, { node, key: app.key });
      checkRefused(await subscribeRaw(context, connection, name, { secret: `${app.secret}-wrong` }), name);
      await serverSdk(context, node, app).trigger(name, 'leak', { secret: true });
      await atMost(context, 0, () => connection.socket.frames.filter((frame) => frame.event === 'leak'), 'a refused connection must get no events of the channel');
    },
  },
  {
    id: 'private-channels.missing-auth',
    title: 'a subscription to a private channel without auth is refused',
    docs: `${docs.protocol}#channel-authorization`,
    async run(context) {
      const { node, app } = context.target;
      const name = context.unique('private-vault');
      const connection = await connectRaw(context, { node, key: app.key });
      const after = connection.socket.frames.length;
      connection.socket.send({ event: 'pusher:subscribe', data: { channel: name } });
      const answer = await connection.socket.next(
        (frame) => frame.channel === name || frame.event === 'pusher:error',
        `the answer to an unsigned subscription to ${name}`,
        undefined,
        after,
      );
      checkRefused(answer, name);
    },
  },
]);
