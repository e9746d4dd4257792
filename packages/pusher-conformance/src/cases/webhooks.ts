import { defineGroup, type CaseContext } from '../case.js';
import { check, checkEqual, fail } from '../checks.js';
import { connected, openPusher, subscribed } from '../clients/pusher-client.js';
import type { Target } from '../target.js';
import { eventsFor, type ReceivedWebhook, type WebhookEvent } from '../webhook-receiver.js';
import { docs } from './docs.js';

/** Pusher delays member_removed and channel_vacated a few seconds (a quick re-join cancels them): these cases wait longer. */
const delayedEventMs = 10_000;
const withDelayedEvents = (_target: Target, defaultMs: number) => defaultMs + delayedEventMs;

/** Waits for a webhook event of `channel` named `name` and checks its request: signature, content type, time_ms. */
async function webhookEvent(context: CaseContext, channel: string, name: string, timeoutMs = 5_000): Promise<{ event: WebhookEvent; request: ReceivedWebhook }> {
  const inbox = context.webhooks;
  if (!inbox) fail('the case needs --webhook-port');
  const found = await context.waitFor(
    () => eventsFor(inbox, channel).find(({ event }) => event.name === name),
    () => `a ${name} webhook for ${channel} (received for it: ${JSON.stringify(eventsFor(inbox, channel).map(({ event }) => event.name))})`,
    timeoutMs,
  );
  check(found.request.valid, `the ${name} webhook's X-Pusher-Key / X-Pusher-Signature do not verify with the pusher SDK (headers ${JSON.stringify(found.request.headers)})`);
  checkEqual(found.request.headers['content-type'], 'application/json', 'the Content-Type');
  check(typeof found.request.timeMs === 'number', `time_ms must be a number: ${found.request.body.slice(0, 200)}`);
  return found;
}

export const webhookCases = defineGroup('webhooks', [
  {
    id: 'webhooks.channel-occupied-vacated',
    title: 'channel_occupied when a channel gets its first subscriber and channel_vacated after the last leaves, signed',
    docs: `${docs.webhooks}#channel-existence-events`,
    needs: ['webhooks'],
    timeoutMs: withDelayedEvents,
    async run(context) {
      const { node, app } = context.target;
      const name = context.unique('hooked');
      const client = openPusher(context, { node, app });
      await subscribed(context, client, name);
      await webhookEvent(context, name, 'channel_occupied');
      client.unsubscribe(name);
      await webhookEvent(context, name, 'channel_vacated', delayedEventMs);
    },
  },
  {
    id: 'webhooks.member-added-removed',
    title: 'member_added and member_removed with the user_id for a presence channel',
    docs: `${docs.webhooks}#presence-events`,
    needs: ['webhooks'],
    timeoutMs: withDelayedEvents,
    async run(context) {
      const { node, app } = context.target;
      const name = context.unique('presence-hooked');
      const member = { user_id: context.unique('member') };
      const client = openPusher(context, { node, app, identity: { presence: member } });
      await subscribed(context, client, name);
      const added = await webhookEvent(context, name, 'member_added');
      checkEqual(added.event.user_id, member.user_id, 'member_added user_id');
      client.disconnect();
      const removed = await webhookEvent(context, name, 'member_removed', delayedEventMs);
      checkEqual(removed.event.user_id, member.user_id, 'member_removed user_id');
    },
  },
  {
    id: 'webhooks.client-event',
    title: 'client_event with the channel, event name, data and socket_id of the sender',
    docs: `${docs.webhooks}#client-events`,
    needs: ['webhooks'],
    async run(context) {
      const { node, app } = context.target;
      const name = context.unique('private-hooked');
      const sender = openPusher(context, { node, app });
      const socketId = await connected(context, sender);
      const channel = await subscribed(context, sender, name);
      await subscribed(context, openPusher(context, { node, app }), name);
      channel.trigger('client-note', { text: 'hello' });
      const { event } = await webhookEvent(context, name, 'client_event');
      checkEqual(event.event, 'client-note', 'the webhook\'s event');
      checkEqual(event.socket_id, socketId, 'the webhook\'s socket_id');
      const data = typeof event.data === 'string' ? (JSON.parse(event.data) as unknown) : event.data;
      checkEqual(data, { text: 'hello' }, 'the webhook\'s data');
    },
  },
  {
    id: 'webhooks.one-event-per-request',
    title: 'without batch webhooks enabled, each request carries exactly one event',
    docs: `${docs.webhooks}#batching-webhooks`,
    needs: ['webhooks'],
    async run(context) {
      const { node, app } = context.target;
      const names = [context.unique('single'), context.unique('single'), context.unique('single')];
      const client = openPusher(context, { node, app });
      // Three channels occupied in one burst: a batching server would put them in one request.
      await Promise.all(names.map((name) => subscribed(context, client, name)));
      for (const name of names) await webhookEvent(context, name, 'channel_occupied');
      const inbox = context.webhooks!;
      const requests = new Set(names.flatMap((name) => eventsFor(inbox, name).map(({ request }) => request)));
      for (const request of requests) checkEqual(request.events.length, 1, `events in one webhook request (body ${request.body.slice(0, 300)})`);
    },
  },
]);
