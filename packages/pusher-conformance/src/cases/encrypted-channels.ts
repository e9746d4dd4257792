import { defineGroup } from '../case.js';
import { check, checkEqual } from '../checks.js';
import { connectRaw } from '../clients/raw-socket.js';
import { openPusher, record, subscribed } from '../clients/pusher-client.js';
import { serverSdk } from '../clients/server-sdk.js';
import { docs } from './docs.js';
import { checkSubscribed, atMost, subscribeRaw } from './support.js';

export const encryptedChannelCases = defineGroup('encrypted-channels', [
  {
    id: 'encrypted-channels.end-to-end',
    title: 'pusher-js decrypts an event the SDK encrypted on private-encrypted-*, while the wire carries only nonce and ciphertext',
    docs: `${docs.encryptedChannels}`,
    async run(context) {
      const { node, app } = context.target;
      const name = context.unique('private-encrypted-vault');
      const decrypted = record(await subscribed(context, openPusher(context, { node, app }), name), 'secret');
      const wire = await connectRaw(context, { node, key: app.key });
      checkSubscribed(await subscribeRaw(context, wire, name), name);
      await serverSdk(context, node, app).trigger(name, 'secret', { pin: '1234' });
      const [event] = await context.waitFor(() => decrypted.length > 0 && decrypted, 'the decrypted event in pusher-js');
      checkEqual(event, { pin: '1234' }, 'the decrypted data');
      const frame = await wire.socket.next('secret', 'the encrypted event on the raw socket');
      const payload = frame.data as { nonce?: unknown; ciphertext?: unknown };
      check(typeof payload.nonce === 'string' && typeof payload.ciphertext === 'string', `the relayed data must be {nonce, ciphertext}: ${frame.raw}`);
      check(!frame.raw.includes('1234'), 'the plaintext went over the wire');
    },
  },
  {
    id: 'encrypted-channels.client-events-refused',
    title: 'a client event on a private-encrypted-* channel is refused and relayed to nobody',
    docs: `${docs.encryptedChannels}#limitations`,
    async run(context) {
      const { node, app } = context.target;
      const name = context.unique('private-encrypted-chat');
      const sender = await connectRaw(context, { node, key: app.key });
      const listener = await connectRaw(context, { node, key: app.key });
      checkSubscribed(await subscribeRaw(context, sender, name), name);
      checkSubscribed(await subscribeRaw(context, listener, name), name);
      const after = sender.socket.frames.length;
      sender.socket.send({ event: 'client-plain', channel: name, data: { text: 'not encrypted' } });
      await sender.socket.next('pusher:error', 'pusher:error refusing the client event', undefined, after);
      await atMost(context, 0, () => listener.socket.frames.filter((frame) => frame.event === 'client-plain'), 'the other subscriber must not get the client event');
    },
  },
]);
