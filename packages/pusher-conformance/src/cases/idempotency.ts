import { randomUUID } from 'node:crypto';
import { defineGroup } from '../case.js';
import { checkEqual } from '../checks.js';
import { openPusher, record, subscribed } from '../clients/pusher-client.js';
import { signedFetch, triggerRaw } from '../clients/signed-http.js';
import { atMost } from './support.js';

/**
 * `X-Idempotency-Key` on triggers is not in Pusher's documentation: servers that offer it (ours,
 * sockudo) answer a retry like the first request and publish it once. `--exclude idempotency` leaves
 * these cases out of a run that checks Pusher's documented behaviour only.
 */
const extensionDocs = 'not documented by Pusher (extension): X-Idempotency-Key on POST /events and /batch_events';

export const idempotencyCases = defineGroup('idempotency', [
  {
    id: 'idempotency.retried-trigger-delivered-once',
    title: 'a trigger retried with the same X-Idempotency-Key is answered 200 both times and delivered once',
    docs: extensionDocs,
    extension: true,
    async run(context) {
      const { node, app } = context.target;
      const name = context.unique('retried');
      const received = record(await subscribed(context, openPusher(context, { node, app }), name), 'charge');
      const headers = { 'x-idempotency-key': randomUUID() };
      const body = { name: 'charge', channels: [name], data: '{"amount":5}' };
      checkEqual((await triggerRaw(context, node, app, body, { headers })).status, 200, 'the first attempt\'s status');
      checkEqual((await triggerRaw(context, node, app, body, { headers })).status, 200, 'the retry\'s status');
      await context.waitFor(() => received.length > 0, 'the event');
      await atMost(context, 1, () => received, 'the retry must not be delivered again');
    },
  },
  {
    id: 'idempotency.retried-batch-delivered-once',
    title: 'a batch retried with the same X-Idempotency-Key is delivered once',
    docs: extensionDocs,
    extension: true,
    async run(context) {
      const { node, app } = context.target;
      const name = context.unique('retried');
      const received = record(await subscribed(context, openPusher(context, { node, app }), name), 'line');
      const headers = { 'x-idempotency-key': randomUUID() };
      const body = JSON.stringify({ batch: [{ channel: name, name: 'line', data: '1' }, { channel: name, name: 'line', data: '2' }] });
      for (const attempt of ['first attempt', 'retry']) {
        const answer = await signedFetch(context, node, app, { method: 'POST', path: `/apps/${app.id}/batch_events`, body, headers });
        checkEqual(answer.status, 200, `the ${attempt}'s status`);
      }
      await context.waitFor(() => received.length >= 2, 'both events of the batch');
      await atMost(context, 2, () => received, 'the retried batch must not be delivered again');
    },
  },
  {
    id: 'idempotency.different-keys-both-delivered',
    title: 'two triggers with different keys are both delivered',
    docs: extensionDocs,
    extension: true,
    async run(context) {
      const { node, app } = context.target;
      const name = context.unique('distinct');
      const received = record(await subscribed(context, openPusher(context, { node, app }), name), 'charge');
      const body = { name: 'charge', channels: [name], data: '{"amount":5}' };
      for (let attempt = 0; attempt < 2; attempt++) {
        checkEqual((await triggerRaw(context, node, app, body, { headers: { 'x-idempotency-key': randomUUID() } })).status, 200, 'the status');
      }
      await context.waitFor(() => received.length === 2, 'both events');
    },
  },
]);
