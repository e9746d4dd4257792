import { defineGroup } from '../case.js';
import { check, checkEqual } from '../checks.js';
import { connectRaw } from '../clients/raw-socket.js';
import { openPusher, record, signedIn, userChannelReady } from '../clients/pusher-client.js';
import { serverSdk, signer } from '../clients/server-sdk.js';
import { docs } from './docs.js';
import { atMost, signInRaw } from './support.js';

export const userCases = defineGroup('users', [
  {
    id: 'users.signin',
    title: 'pusher.signin() gets pusher:signin_success, and pusher-js knows the user',
    docs: `${docs.userAuthentication}#client-side-sign-in`,
    async run(context) {
      const { node, app } = context.target;
      const user = { id: context.unique('user'), name: 'Signed In' };
      const client = openPusher(context, { node, app, identity: { user } });
      await signedIn(context, client);
      checkEqual(client.user.user_data, user, 'pusher-js\'s user.user_data');
    },
  },
  {
    id: 'users.signin-success-frame',
    title: 'pusher:signin_success carries user_data as the JSON string that was signed',
    docs: `${docs.protocol}#pusher-signin_success`,
    async run(context) {
      const { node, app } = context.target;
      const user = { id: context.unique('user'), user_info: { name: 'Raw' } };
      const { socket, socketId } = await connectRaw(context, { node, key: app.key });
      const success = await signInRaw(socket, socketId, app, user);
      const data = success.data as { user_data?: unknown };
      check(typeof data.user_data === 'string', `user_data must be a JSON string: ${success.raw}`);
      checkEqual(JSON.parse(data.user_data), user, 'the user_data');
    },
  },
  {
    id: 'users.bad-signin-refused',
    title: 'a pusher:signin signed with another secret is refused with 4009 (pusher:error or close code)',
    docs: `${docs.userAuthentication}#server-side-user-authentication`,
    async run(context) {
      const { node, app } = context.target;
      const { socket, socketId } = await connectRaw(context, { node, key: app.key });
      const after = socket.frames.length;
      socket.send({ event: 'pusher:signin', data: signer({ ...app, secret: `${app.secret}-wrong` }).authenticateUser(socketId, { id: context.unique('impostor') }) });
      const answer = await context.waitFor(
        () => socket.frames.slice(after).find((frame) => frame.event === 'pusher:error' || frame.event === 'pusher:signin_success') ?? socket.closed,
        'the server to refuse the sign-in',
      );
      if ('event' in answer) {
        check(answer.event === 'pusher:error', 'the server accepted a sign-in with a wrong signature');
        checkEqual((answer.data as { code?: unknown }).code, 4009, 'the pusher:error code');
      } else checkEqual(answer.code, 4009, 'the close code');
    },
  },
  {
    id: 'users.send-to-user',
    title: 'sendToUser reaches every connection the user signed in on, and no one else',
    docs: `${docs.sendToUser}`,
    async run(context) {
      const { node, app } = context.target;
      const user = { id: context.unique('user') };
      const phone = openPusher(context, { node, app, identity: { user } });
      const laptop = openPusher(context, { node, app, identity: { user } });
      const stranger = openPusher(context, { node, app });
      await Promise.all([signedIn(context, phone), signedIn(context, laptop), signedIn(context, stranger)]);
      const onPhone = record(phone.user, 'order-shipped');
      const onLaptop = record(laptop.user, 'order-shipped');
      const onStranger = record(stranger.user, 'order-shipped');
      await Promise.all([phone, laptop, stranger].map((client) => userChannelReady(context, client)));
      await serverSdk(context, node, app).sendToUser(user.id, 'order-shipped', { order: 9 });
      await context.waitFor(() => onPhone.length > 0 && onLaptop.length > 0, 'the event on both of the user\'s connections');
      checkEqual(onPhone[0], { order: 9 }, 'the event data');
      await atMost(context, 0, () => onStranger, 'another user must not get it');
    },
  },
  {
    id: 'users.terminate-connections',
    title: 'terminating a user\'s connections closes every connection signed in as them, and no other',
    docs: `${docs.terminate}`,
    async run(context) {
      const { node, app } = context.target;
      const user = { id: context.unique('user') };
      const first = await connectRaw(context, { node, key: app.key });
      const second = await connectRaw(context, { node, key: app.key });
      const other = await connectRaw(context, { node, key: app.key });
      await signInRaw(first.socket, first.socketId, app, user);
      await signInRaw(second.socket, second.socketId, app, user);
      await signInRaw(other.socket, other.socketId, app, { id: context.unique('other') });
      await serverSdk(context, node, app).terminateUserConnections(user.id);
      await first.socket.closedWithin('the first connection of the user to close');
      await second.socket.closedWithin('the second connection of the user to close');
      check(!other.socket.closed, `another user's connection was closed too (${JSON.stringify(other.socket.closed)})`);
      const after = other.socket.frames.length;
      other.socket.send({ event: 'pusher:ping', data: {} });
      await other.socket.next('pusher:pong', 'pusher:pong on the other user\'s connection', undefined, after);
    },
  },
]);
