import { defineGroup, type CaseContext } from '../case.js';
import { check, checkEqual, checkOneOf } from '../checks.js';
import { openPusher, record, subscribed } from '../clients/pusher-client.js';
import { serverSdk } from '../clients/server-sdk.js';
import { signedFetch, triggerRaw } from '../clients/signed-http.js';
import { docs } from './docs.js';
import { featureApp, signedInFeatureClient } from './support.js';

const event = (channel: string) => ({ name: 'probe', channels: [channel], data: '{"n":1}' });

/** GET on the main app, signed. */
function get(context: CaseContext, path: string, params: Record<string, string> = {}) {
  const { node, app } = context.target;
  return signedFetch(context, node, app, { method: 'GET', path: `/apps/${app.id}${path}`, params });
}

export const httpApiCases = defineGroup('http-api', [
  {
    id: 'http-api.trigger-answers-json',
    title: 'POST /events answers 200 with a JSON object body',
    docs: `${docs.httpApi}#post-event-trigger-an-event`,
    async run(context) {
      const answer = await triggerRaw(context, context.target.node, context.target.app, event(context.unique('public')));
      checkEqual(answer.status, 200, `the status (body ${answer.text})`);
      check(typeof answer.json === 'object' && answer.json !== null && !Array.isArray(answer.json), `the body must be a JSON object, got ${JSON.stringify(answer.text)}`);
    },
  },
  {
    id: 'http-api.bad-signature',
    title: 'a request signed with another secret is answered 401',
    docs: `${docs.httpApi}#generating-authentication-signatures`,
    async run(context) {
      const { node, app } = context.target;
      const answer = await triggerRaw(context, node, app, event(context.unique('public')), { secret: `${app.secret}-wrong` });
      checkEqual(answer.status, 401, 'the status');
    },
  },
  {
    id: 'http-api.missing-auth',
    title: 'a request without auth parameters is answered 401',
    docs: `${docs.httpApi}#generating-authentication-signatures`,
    async run(context) {
      const { node, app } = context.target;
      const answer = await triggerRaw(context, node, app, event(context.unique('public')), { unsigned: true });
      checkEqual(answer.status, 401, 'the status');
    },
  },
  {
    id: 'http-api.timestamp-window',
    title: 'auth_timestamp within ±600 s is accepted; 601 s in the past or the future is answered 401',
    docs: `${docs.httpApi}#generating-authentication-signatures`,
    async run(context) {
      const { node, app } = context.target;
      const now = Math.floor(Date.now() / 1_000);
      for (const [offset, expected] of [[-590, 200], [590, 200], [-601 - 5, 401], [601 + 5, 401]] as const) {
        const answer = await triggerRaw(context, node, app, event(context.unique('public')), { timestamp: now + offset });
        checkEqual(answer.status, expected, `the status with auth_timestamp ${offset > 0 ? '+' : ''}${offset} s`);
      }
    },
  },
  {
    id: 'http-api.body-md5',
    title: 'a body_md5 that is not the body\'s MD5 is answered 401',
    docs: `${docs.httpApi}#generating-authentication-signatures`,
    async run(context) {
      const { node, app } = context.target;
      const answer = await triggerRaw(context, node, app, event(context.unique('public')), { bodyMd5: '0'.repeat(32) });
      checkEqual(answer.status, 401, 'the status');
    },
  },
  {
    id: 'http-api.unknown-app',
    title: 'a request to an app id the server does not have is refused with 401, 403 or 404 (the reference names no status for it)',
    docs: `${docs.httpApi}#general`,
    async run(context) {
      const { node, app } = context.target;
      const id = context.unique('no-such-app');
      const answer = await signedFetch(context, node, app, { method: 'POST', path: `/apps/${id}/events`, body: JSON.stringify(event('public')) });
      checkOneOf(answer.status, [401, 403, 404], 'the status');
    },
  },
  {
    id: 'http-api.invalid-json',
    title: 'a body that is not JSON is answered 400',
    docs: `${docs.httpApi}#general`,
    async run(context) {
      const answer = await triggerRaw(context, context.target.node, context.target.app, '{"name":"probe",');
      checkEqual(answer.status, 400, 'the status');
    },
  },
  {
    id: 'http-api.channels-filter-by-prefix',
    title: 'GET /channels lists exactly the occupied channels starting with filter_by_prefix',
    docs: `${docs.httpApi}#get-channels-fetch-info-for-multiple-channels`,
    async run(context) {
      const { node, app } = context.target;
      const prefix = context.unique('listed');
      const client = openPusher(context, { node, app });
      await subscribed(context, client, `${prefix}-a`);
      await subscribed(context, client, `${prefix}-b`);
      await subscribed(context, client, context.unique('unlisted'));
      const answer = await get(context, '/channels', { filter_by_prefix: prefix });
      checkEqual(answer.status, 200, `the status (body ${answer.text})`);
      const channels = (answer.json as { channels?: Record<string, unknown> }).channels;
      checkEqual(Object.keys(channels ?? {}).sort(), [`${prefix}-a`, `${prefix}-b`], 'the channels listed');
    },
  },
  {
    id: 'http-api.user-count-needs-presence-prefix',
    title: 'GET /channels?info=user_count without filter_by_prefix=presence- is answered 400',
    docs: `${docs.httpApi}#get-channels-fetch-info-for-multiple-channels`,
    async run(context) {
      const answer = await get(context, '/channels', { info: 'user_count', filter_by_prefix: 'private-' });
      checkEqual(answer.status, 400, 'the status');
    },
  },
  {
    id: 'http-api.channel-occupied',
    title: 'GET /channels/{name} says occupied for a subscribed channel and not for an empty one',
    docs: `${docs.httpApi}#get-channel-fetch-info-for-one-channel`,
    async run(context) {
      const { node, app } = context.target;
      const busy = context.unique('busy');
      await subscribed(context, openPusher(context, { node, app }), busy);
      const occupied = await get(context, `/channels/${busy}`);
      checkEqual(occupied.status, 200, `the status (body ${occupied.text})`);
      checkEqual((occupied.json as { occupied?: unknown }).occupied, true, `occupied of ${busy}`);
      const empty = await get(context, `/channels/${context.unique('empty')}`);
      checkEqual(empty.status, 200, 'the status for an empty channel');
      checkEqual((empty.json as { occupied?: unknown }).occupied, false, 'occupied of an empty channel');
    },
  },
  {
    id: 'http-api.presence-user-count',
    title: 'GET /channels/presence-*?info=user_count counts distinct users (one user on two connections counts once)',
    docs: `${docs.httpApi}#get-channel-fetch-info-for-one-channel`,
    async run(context) {
      const { node, app } = context.target;
      const name = context.unique('presence-room');
      const twin = { user_id: context.unique('twin') };
      await subscribed(context, openPusher(context, { node, app, identity: { presence: twin } }), name);
      await subscribed(context, openPusher(context, { node, app, identity: { presence: twin } }), name);
      await subscribed(context, openPusher(context, { node, app }), name);
      const answer = await get(context, `/channels/${name}`, { info: 'user_count' });
      checkEqual(answer.status, 200, `the status (body ${answer.text})`);
      checkEqual((answer.json as { user_count?: unknown }).user_count, 2, 'user_count');
    },
  },
  {
    id: 'http-api.presence-users',
    title: 'GET /channels/presence-*/users lists the members\' ids; a non-presence channel is answered 400',
    docs: `${docs.httpApi}#get-users`,
    async run(context) {
      const { node, app } = context.target;
      const name = context.unique('presence-room');
      const ids = [context.unique('u'), context.unique('u')];
      for (const id of ids) await subscribed(context, openPusher(context, { node, app, identity: { presence: { user_id: id } } }), name);
      const answer = await get(context, `/channels/${name}/users`);
      checkEqual(answer.status, 200, `the status (body ${answer.text})`);
      const users = (answer.json as { users?: { id?: unknown }[] }).users ?? [];
      checkEqual(users.map((user) => user.id).sort(), [...ids].sort(), 'the users listed');
      const notPresence = await get(context, `/channels/${context.unique('public')}/users`);
      checkEqual(notPresence.status, 400, 'the status for a non-presence channel');
    },
  },
  {
    id: 'http-api.info-subscription-count',
    title: 'a trigger with info=subscription_count answers each channel\'s count (an app with subscription counting)',
    docs: `${docs.httpApi}#post-event-trigger-an-event`,
    needs: ['featureApp', 'subscription-count'],
    async run(context) {
      const { node } = context.target;
      const app = featureApp(context);
      const name = context.unique('counted');
      await subscribed(context, await signedInFeatureClient(context), name);
      await subscribed(context, await signedInFeatureClient(context), name);
      const answer = await triggerRaw(context, node, app, { ...event(name), info: 'subscription_count' });
      checkEqual(answer.status, 200, `the status (body ${answer.text})`);
      checkEqual((answer.json as { channels?: Record<string, unknown> }).channels?.[name], { subscription_count: 2 }, `channels["${name}"]`);
    },
  },
  {
    id: 'http-api.batch-events',
    title: 'POST /batch_events delivers every event of the batch',
    docs: `${docs.httpApi}#post-batch-events-trigger-multiple-events`,
    async run(context) {
      const { node, app } = context.target;
      const names = [context.unique('batch'), context.unique('batch'), context.unique('batch')];
      const client = openPusher(context, { node, app });
      const received = await Promise.all(names.map(async (name) => record(await subscribed(context, client, name), 'item')));
      await serverSdk(context, node, app).triggerBatch(names.map((channel, index) => ({ channel, name: 'item', data: { index } })));
      await context.waitFor(() => received.every((events) => events.length === 1), 'each event of the batch');
      checkEqual(received.map((events) => events[0]), [{ index: 0 }, { index: 1 }, { index: 2 }], 'the events received');
    },
  },
  {
    id: 'http-api.batch-max-10',
    title: 'a batch of 10 events is accepted; a batch of 11 is refused (400 or 413)',
    docs: `${docs.httpApi}#post-batch-events-trigger-multiple-events`,
    async run(context) {
      const { node, app } = context.target;
      const batch = (size: number) => JSON.stringify({ batch: Array.from({ length: size }, (_, index) => ({ channel: context.unique('batch'), name: 'item', data: String(index) })) });
      const ten = await signedFetch(context, node, app, { method: 'POST', path: `/apps/${app.id}/batch_events`, body: batch(10) });
      checkEqual(ten.status, 200, `the status for 10 events (body ${ten.text})`);
      const eleven = await signedFetch(context, node, app, { method: 'POST', path: `/apps/${app.id}/batch_events`, body: batch(11) });
      checkOneOf(eleven.status, [400, 413], 'the status for 11 events');
    },
  },
]);
