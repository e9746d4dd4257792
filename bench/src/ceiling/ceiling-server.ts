import { createRequire } from 'node:module';
import type * as uWS from 'uWebSockets.js';
import { PresenceRoster } from './presence-roster.js';

type Uws = typeof uWS;

class CeilingError extends Error {
  override readonly name = 'CeilingError';
  constructor(
    readonly code: 'UWS_NOT_NATIVE' | 'LISTEN_FAILED',
    message: string,
  ) {
    super(message);
  }
}

/** Same test as @org/transport-uws's isNativeUws: the native App is a C++ function. */
function loadNativeUws(): Uws {
  const uws = createRequire(import.meta.url)('uWebSockets.js') as Uws;
  if (!Function.prototype.toString.call(uws.App).includes('[native code]')) {
    throw new CeilingError('UWS_NOT_NATIVE', 'uWebSockets.js fell back to its JavaScript emulation; the ceiling would be meaningless.');
  }
  return uws;
}

export interface CeilingServer {
  readonly port: number;
  close(): void;
}

interface SocketData {
  id: string;
  /** Presence channels joined, with the user id used there. */
  presence: Map<string, string> | undefined;
}

interface InboundFrame {
  event?: string;
  channel?: string;
  data?: { channel?: string; channel_data?: string };
}

const decoder = new TextDecoder();
const q = JSON.stringify;

/**
 * The ceiling: bare uWebSockets.js pub/sub that accepts just the Pusher frames
 * the scenarios send, with no auth, no limits and no checks. Channel names are
 * uWS topics; HTTP triggers are parsed once and published once.
 */
export function startCeilingServer(options: { host: string; port: number }): Promise<CeilingServer> {
  const uws = loadNativeUws();
  const app = uws.App();
  const roster = new PresenceRoster();
  let nextId = 0;

  app.ws<SocketData>('/app/:key', {
    // Same limits as the daemon's transport, so both buffer alike.
    maxPayloadLength: 24_096,
    maxBackpressure: 1024 * 1024,
    closeOnBackpressureLimit: 1,
    idleTimeout: 0,
    sendPingsAutomatically: false,
    upgrade(res, req, context) {
      res.upgrade<SocketData>(
        { id: `1.${++nextId}`, presence: undefined },
        req.getHeader('sec-websocket-key'),
        req.getHeader('sec-websocket-protocol'),
        req.getHeader('sec-websocket-extensions'),
        context,
      );
    },
    open(ws) {
      ws.send(`{"event":"pusher:connection_established","data":${q(`{"socket_id":"${ws.getUserData().id}","activity_timeout":120}`)}}`);
    },
    message(ws, message) {
      const text = decoder.decode(message);
      const frame = JSON.parse(text) as InboundFrame;
      const event = frame.event ?? '';
      if (event === 'pusher:subscribe') {
        const channel = frame.data?.channel ?? '';
        ws.subscribe(channel);
        if (!channel.startsWith('presence-')) {
          ws.send(`{"event":"pusher_internal:subscription_succeeded","channel":${q(channel)}}`);
          return;
        }
        const member = JSON.parse(frame.data?.channel_data ?? '{}') as { user_id: string; user_info?: unknown };
        const userId = String(member.user_id);
        (ws.getUserData().presence ??= new Map()).set(channel, userId);
        const added = roster.join(channel, userId, member.user_info);
        ws.send(`{"event":"pusher_internal:subscription_succeeded","channel":${q(channel)},"data":${q(roster.snapshot(channel))}}`);
        if (added) {
          ws.publish(channel, `{"event":"pusher_internal:member_added","channel":${q(channel)},"data":${q(q({ user_id: userId, user_info: member.user_info ?? {} }))}}`);
        }
      } else if (event === 'pusher:unsubscribe') {
        const channel = frame.data?.channel ?? '';
        ws.unsubscribe(channel);
        leavePresence(ws, channel);
      } else if (event === 'pusher:ping') {
        ws.send('{"event":"pusher:pong","data":{}}');
      } else if (event.startsWith('client-') && frame.channel) {
        // Relayed as received: the physical limit is parse once, publish once.
        ws.publish(frame.channel, text);
      }
    },
    close(ws) {
      const presence = ws.getUserData().presence;
      if (presence) for (const channel of presence.keys()) leavePresence(undefined, channel, presence.get(channel));
    },
  });

  function leavePresence(ws: uWS.WebSocket<SocketData> | undefined, channel: string, knownUserId?: string): void {
    const userId = knownUserId ?? ws?.getUserData().presence?.get(channel);
    if (userId === undefined) return;
    ws?.getUserData().presence?.delete(channel);
    if (roster.leave(channel, userId)) {
      app.publish(channel, `{"event":"pusher_internal:member_removed","channel":${q(channel)},"data":${q(q({ user_id: userId }))}}`);
    }
  }

  app.post('/apps/:id/events', (res) => {
    let aborted = false;
    res.onAborted(() => (aborted = true));
    const chunks: Buffer[] = [];
    res.onData((chunk, isLast) => {
      chunks.push(Buffer.from(new Uint8Array(chunk)));
      if (!isLast || aborted) return;
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { name: string; data: string; channel?: string; channels?: string[] };
      const channels = body.channels ?? (body.channel ? [body.channel] : []);
      for (const channel of channels) {
        app.publish(channel, `{"event":${q(body.name)},"channel":${q(channel)},"data":${q(body.data)}}`);
      }
      res.cork(() => res.writeStatus('200 OK').writeHeader('content-type', 'application/json').end('{}'));
    });
  });
  app.any('/*', (res) => void res.writeStatus('404 Not Found').end('{}'));

  return new Promise((resolve, reject) => {
    app.listen(options.host, options.port, (listenSocket) => {
      if (!listenSocket) return reject(new CeilingError('LISTEN_FAILED', `could not listen on ${options.host}:${options.port}`));
      resolve({
        port: uws.us_socket_local_port(listenSocket),
        close() {
          uws.us_listen_socket_close(listenSocket);
        },
      });
    });
  });
}
