import { defineGroup } from '../case.js';
import { check, checkEqual, fail } from '../checks.js';
import { connectRaw, openRaw } from '../clients/raw-socket.js';
import { connected, openPusher } from '../clients/pusher-client.js';
import { docs } from './docs.js';

export const connectionCases = defineGroup('connection', [
  {
    id: 'connection.established',
    title: 'the first frame is pusher:connection_established with a string data holding socket_id "<digits>.<digits>" and a positive integer activity_timeout',
    docs: `${docs.protocol}#pusher-connection_established`,
    async run(context) {
      const socket = await openRaw(context, { node: context.target.node, key: context.target.app.key });
      const first = await socket.next(() => true, 'the first frame');
      checkEqual(first.event, 'pusher:connection_established', 'the first frame\'s event');
      check(typeof first.rawData === 'string', `its data must be a JSON-encoded string, got ${first.raw}`);
      const data = first.data as { socket_id?: unknown; activity_timeout?: unknown };
      check(typeof data.socket_id === 'string' && /^\d+\.\d+$/.test(data.socket_id), `socket_id must be a string of two numbers joined by a dot, got ${JSON.stringify(data.socket_id)}`);
      check(Number.isInteger(data.activity_timeout) && (data.activity_timeout as number) > 0, `activity_timeout must be a positive integer of seconds, got ${JSON.stringify(data.activity_timeout)}`);
    },
  },
  {
    id: 'connection.pusher-js',
    title: 'pusher-js connects and learns its socket id',
    docs: `${docs.protocol}#pusher-connection_established`,
    async run(context) {
      const client = openPusher(context, { node: context.target.node, app: context.target.app });
      const socketId = await connected(context, client);
      check(/^\d+\.\d+$/.test(socketId), `pusher-js's socket_id is ${JSON.stringify(socketId)}`);
    },
  },
  {
    id: 'connection.ping-pong',
    title: 'a pusher:ping is answered with pusher:pong',
    docs: `${docs.protocol}#ping-and-pong-messages`,
    async run(context) {
      const { socket } = await connectRaw(context, { node: context.target.node, key: context.target.app.key });
      const after = socket.frames.length;
      socket.send({ event: 'pusher:ping', data: {} });
      await socket.next('pusher:pong', undefined, undefined, after);
    },
  },
  {
    id: 'connection.unknown-app-key',
    title: 'a connection to an unknown app key gets pusher:error 4001 and is closed with 4001',
    docs: `${docs.protocol}#error-codes`,
    async run(context) {
      const socket = await openRaw(context, { node: context.target.node, key: context.unique('no-such-key') });
      const close = await socket.closedWithin('the server to close the connection to an unknown key');
      checkEqual(close.code, 4001, 'the close code');
      const error = socket.frames.find((frame) => frame.event === 'pusher:error');
      if (error) checkEqual((error.data as { code?: unknown }).code, 4001, 'the pusher:error code');
      check(!socket.frames.some((frame) => frame.event === 'pusher:connection_established'), 'the server established a connection to an unknown key');
    },
  },
  {
    id: 'connection.unsupported-protocol',
    title: 'a connection asking for protocol 6 is closed with 4007 (unsupported protocol version)',
    docs: `${docs.protocol}#error-codes`,
    async run(context) {
      const socket = await openRaw(context, { node: context.target.node, key: context.target.app.key, query: 'protocol=6&client=js&version=8.4.0&flash=false' });
      const close = await socket.closedWithin('the server to close a protocol 6 connection');
      checkEqual(close.code, 4007, 'the close code');
    },
  },
  {
    id: 'connection.malformed-frame',
    title: 'a frame that is not JSON gets pusher:error with a 4200-4299 code, and the server goes on serving',
    docs: `${docs.protocol}#error-codes`,
    async run(context) {
      const { socket } = await connectRaw(context, { node: context.target.node, key: context.target.app.key });
      const after = socket.frames.length;
      socket.send('{"event":"pusher:subscribe", this is not JSON');
      const error = await socket.next('pusher:error', undefined, undefined, after);
      const code = (error.data as { code?: unknown }).code;
      check(typeof code === 'number' && code >= 4200 && code <= 4299, `the pusher:error code must be in 4200-4299 (reconnect), got ${error.raw}`);
      if (!socket.closed) {
        const beforePing = socket.frames.length;
        socket.send({ event: 'pusher:ping', data: {} });
        await socket.next('pusher:pong', 'pusher:pong on the same connection after the error', undefined, beforePing);
      } else {
        const again = await connectRaw(context, { node: context.target.node, key: context.target.app.key }).catch(() => undefined);
        if (!again) fail('after closing the connection, the server does not accept a new one');
      }
    },
  },
]);
