import { defineGroup } from '../case.js';
import { check, checkEqual } from '../checks.js';
import { connectRaw } from '../clients/raw-socket.js';
import type { Target } from '../target.js';
import { docs } from './docs.js';
import { featureApp, signedInRaw } from './support.js';

/** These cases wait for the server's user authentication timeout: their time is that plus the usual. */
const pastTheTimeout = (target: Target, defaultMs: number) => target.userAuthenticationTimeout * 1_000 + defaultMs;
/** A server that sweeps its timers may close a little after the timeout, never before it. */
const earlyToleranceMs = 500;

export const authorizedConnectionCases = defineGroup('authorized-connections', [
  {
    id: 'authorized-connections.anonymous-closed',
    title: 'a connection that does not sign in is closed with 4009 once the user authentication timeout has passed, not before',
    docs: `${docs.authorizedConnections}`,
    needs: ['featureApp', 'authorized-connections'],
    timeoutMs: pastTheTimeout,
    async run(context) {
      const app = featureApp(context);
      const timeoutMs = context.target.userAuthenticationTimeout * 1_000;
      const opened = Date.now();
      const { socket } = await connectRaw(context, { node: context.target.node, key: app.key });
      const close = await socket.closedWithin('the server to close the anonymous connection', timeoutMs + 5_000);
      const elapsed = Date.now() - opened;
      checkEqual(close.code, 4009, 'the close code');
      check(elapsed >= timeoutMs - earlyToleranceMs, `closed after ${elapsed} ms, before the ${timeoutMs} ms timeout`);
      const error = socket.frames.find((frame) => frame.event === 'pusher:error');
      if (error) checkEqual((error.data as { code?: unknown }).code, 4009, 'the pusher:error code');
    },
  },
  {
    id: 'authorized-connections.signed-in-kept',
    title: 'a connection that signed in is still open and served after the timeout',
    docs: `${docs.authorizedConnections}`,
    needs: ['featureApp', 'authorized-connections'],
    timeoutMs: pastTheTimeout,
    async run(context) {
      const { socket } = await signedInRaw(context);
      await context.sleep(context.target.userAuthenticationTimeout * 1_000 + 1_500);
      check(!socket.closed, `the signed-in connection was closed: ${JSON.stringify(socket.closed)}`);
      const after = socket.frames.length;
      socket.send({ event: 'pusher:ping', data: {} });
      await socket.next('pusher:pong', 'pusher:pong after the timeout', undefined, after);
    },
  },
]);
