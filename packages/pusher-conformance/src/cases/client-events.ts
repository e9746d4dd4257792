import { defineGroup } from '../case.js';
import { checkEqual, fail } from '../checks.js';
import { connectRaw } from '../clients/raw-socket.js';
import { openPusher, record, subscribed } from '../clients/pusher-client.js';
import { docs } from './docs.js';
import { checkSubscribed, atMost, subscribeRaw } from './support.js';

export const clientEventCases = defineGroup('client-events', [
  {
    id: 'client-events.private-relayed-not-to-sender',
    title: 'a client event on a private channel reaches the other subscribers, not the sender',
    docs: `${docs.events}#triggering-client-events`,
    async run(context) {
      const { node, app } = context.target;
      const name = context.unique('private-chat');
      const sender = await subscribed(context, openPusher(context, { node, app }), name);
      const listener = await subscribed(context, openPusher(context, { node, app }), name);
      const heard = record(listener, 'client-typing');
      const echoed = record(sender, 'client-typing');
      if (!sender.trigger('client-typing', { text: 'hi' })) fail('pusher-js refused to send the client event');
      const [event] = await context.waitFor(() => heard.length > 0 && heard, 'the client event on the other subscriber');
      checkEqual(event, { text: 'hi' }, 'the client event data');
      await atMost(context, 0, () => echoed, 'the sender must not get its own client event');
    },
  },
  {
    id: 'client-events.presence-user-id',
    title: 'a client event on a presence channel carries the sender\'s user_id (pusher-js metadata)',
    docs: `${docs.events}#user-id-in-client-events`,
    async run(context) {
      const { node, app } = context.target;
      const name = context.unique('presence-chat');
      const author = { user_id: context.unique('author') };
      const sender = await subscribed(context, openPusher(context, { node, app, identity: { presence: author } }), name);
      const listener = await subscribed(context, openPusher(context, { node, app }), name);
      const metadata: unknown[] = [];
      listener.bind('client-typing', (_data: unknown, meta: unknown) => metadata.push(meta));
      sender.trigger('client-typing', { text: 'hi' });
      const [meta] = await context.waitFor(() => metadata.length > 0 && metadata, 'the client event on the other member');
      checkEqual((meta as { user_id?: unknown } | undefined)?.user_id, author.user_id, 'metadata.user_id');
    },
  },
  {
    id: 'client-events.public-refused',
    title: 'a client event on a public channel is refused with pusher:error and relayed to nobody',
    docs: `${docs.events}#triggering-client-events`,
    async run(context) {
      const { node, app } = context.target;
      const name = context.unique('public');
      const sender = await connectRaw(context, { node, key: app.key });
      const listener = await connectRaw(context, { node, key: app.key });
      checkSubscribed(await subscribeRaw(context, sender, name), name);
      checkSubscribed(await subscribeRaw(context, listener, name), name);
      const after = sender.socket.frames.length;
      sender.socket.send({ event: 'client-shout', channel: name, data: {} });
      await sender.socket.next('pusher:error', 'pusher:error refusing the client event', undefined, after);
      await atMost(context, 0, () => listener.socket.frames.filter((frame) => frame.event === 'client-shout'), 'no subscriber may get a client event of a public channel');
    },
  },
  {
    id: 'client-events.not-subscribed-refused',
    title: 'a client event on a private channel the sender has not subscribed to is relayed to nobody',
    docs: `${docs.events}#triggering-client-events`,
    async run(context) {
      const { node, app } = context.target;
      const name = context.unique('private-chat');
      const outsider = await connectRaw(context, { node, key: app.key });
      const listener = await connectRaw(context, { node, key: app.key });
      checkSubscribed(await subscribeRaw(context, listener, name), name);
      outsider.socket.send({ event: 'client-intrude', channel: name, data: {} });
      await atMost(context, 0, () => listener.socket.frames.filter((frame) => frame.event === 'client-intrude'), 'a client event from a connection outside the channel must not be relayed');
    },
  },
  {
    id: 'client-events.disabled-app-refused',
    title: 'with client events disabled for the app, a client event is refused with pusher:error and relayed to nobody',
    docs: `${docs.events}#triggering-client-events`,
    needs: ['clientEventsOffApp'],
    async run(context) {
      const { node } = context.target;
      const app = context.target.clientEventsOffApp!;
      const name = context.unique('private-chat');
      const sender = await connectRaw(context, { node, key: app.key });
      const listener = await connectRaw(context, { node, key: app.key });
      checkSubscribed(await subscribeRaw(context, sender, name, { app }), name);
      checkSubscribed(await subscribeRaw(context, listener, name, { app }), name);
      const after = sender.socket.frames.length;
      sender.socket.send({ event: 'client-typing', channel: name, data: {} });
      await sender.socket.next('pusher:error', 'pusher:error refusing the client event', undefined, after);
      await atMost(context, 0, () => listener.socket.frames.filter((frame) => frame.event === 'client-typing'), 'a client event of an app with client events disabled must not be relayed');
    },
  },
]);
