import { defineGroup } from '../case.js';
import { checkEqual } from '../checks.js';
import { connectRaw } from '../clients/raw-socket.js';
import { triggerRaw } from '../clients/signed-http.js';
import { docs } from './docs.js';
import { checkRefused, checkSubscribed, subscribeRaw } from './support.js';

/** A unique name padded to exactly `length` characters with allowed characters. */
function nameOfLength(base: string, length: number): string {
  return `${base}-${'x'.repeat(Math.max(0, length - base.length - 1))}`.slice(0, length);
}

export const limitCases = defineGroup('limits', [
  {
    id: 'limits.channel-name-length',
    title: 'a channel name of 164 characters is accepted; 165 is refused',
    docs: `${docs.protocol}#channel-names`,
    async run(context) {
      const { node, app } = context.target;
      const connection = await connectRaw(context, { node, key: app.key });
      const longest = nameOfLength(context.unique('long'), 164);
      checkSubscribed(await subscribeRaw(context, connection, longest), longest);
      const tooLong = nameOfLength(context.unique('long'), 165);
      checkRefused(await subscribeRaw(context, connection, tooLong), tooLong);
    },
  },
  {
    id: 'limits.event-name-length',
    title: 'an event name of 200 characters is accepted by the HTTP API; 201 is answered 400',
    docs: `${docs.httpApi}#post-event-trigger-an-event`,
    async run(context) {
      const { node, app } = context.target;
      const channel = context.unique('limits');
      const ok = await triggerRaw(context, node, app, { name: 'e'.repeat(200), channels: [channel], data: '{}' });
      checkEqual(ok.status, 200, `the status for 200 characters (body ${ok.text})`);
      const tooLong = await triggerRaw(context, node, app, { name: 'e'.repeat(201), channels: [channel], data: '{}' });
      checkEqual(tooLong.status, 400, 'the status for 201 characters');
    },
  },
  {
    id: 'limits.event-data-size',
    title: 'event data of 10,000 bytes is accepted; data past the limit (10 KB, --max-event-data-bytes) is answered 413',
    docs: `${docs.httpApi}#post-event-trigger-an-event`,
    async run(context) {
      const { node, app, maxEventDataBytes } = context.target;
      const channel = context.unique('limits');
      const accepted = Math.min(10_000, maxEventDataBytes);
      const ok = await triggerRaw(context, node, app, { name: 'big', channels: [channel], data: 'd'.repeat(accepted) });
      checkEqual(ok.status, 200, `the status for ${accepted} bytes (body ${ok.text.slice(0, 200)})`);
      const tooBig = await triggerRaw(context, node, app, { name: 'big', channels: [channel], data: 'd'.repeat(maxEventDataBytes + 1) });
      checkEqual(tooBig.status, 413, `the status for ${maxEventDataBytes + 1} bytes`);
    },
  },
  {
    id: 'limits.channels-per-trigger',
    title: 'a trigger to 100 channels is accepted; 101 is answered 400',
    docs: `${docs.httpApi}#post-event-trigger-an-event`,
    async run(context) {
      const { node, app } = context.target;
      const base = context.unique('fan');
      const channels = (count: number) => Array.from({ length: count }, (_, index) => `${base}-${index}`);
      const ok = await triggerRaw(context, node, app, { name: 'fan', channels: channels(100), data: '{}' });
      checkEqual(ok.status, 200, `the status for 100 channels (body ${ok.text})`);
      const tooMany = await triggerRaw(context, node, app, { name: 'fan', channels: channels(101), data: '{}' });
      checkEqual(tooMany.status, 400, 'the status for 101 channels');
    },
  },
]);
