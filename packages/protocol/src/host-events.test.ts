import { describe, expect, it } from 'vitest';
import { createApp } from './app.js';
import { createStaticAppProvider } from './app-provider.js';
import { hostEvents, type HostEventMap, type HostEventName } from './host-events.js';
import { RealtimeServer } from './realtime-server.js';
import { MemoryTransport, settle } from './testing/memory-transport.js';

const app = createApp({ id: '1', key: 'key', secret: 'secret' });

/** What an HTTP API (`@org/rest-api`) emits on the engine's events after an answer; it declares the event, the engine does not. */
function emitHttpApiResponse(server: RealtimeServer, payload: HostEventMap['Realtime.WebSocket.HttpApiEvent']): void {
  (server.events as unknown as { emit(event: string, payload: unknown): void }).emit('http.api.response', payload);
}

async function setup() {
  const server = new RealtimeServer({ apps: createStaticAppProvider([app]) });
  const transport = new MemoryTransport(server);
  const errors: unknown[] = [];
  server.events.onListenerError = (error) => errors.push(error);
  await server.start();
  return { server, transport, errors, host: hostEvents(server) };
}

describe('hostEvents', () => {
  it('reports every host event with its documented payload', async () => {
    const { server, transport, host } = await setup();
    const seen: { name: HostEventName; payload: HostEventMap[HostEventName] }[] = [];
    const names: HostEventName[] = [
      'Realtime.WebSocket.connectionEstablished',
      'Realtime.WebSocket.connectionClosed',
      'Realtime.WebSocket.channelCreated',
      'Realtime.WebSocket.channelRemoved',
      'Realtime.WebSocket.messageReceived',
      'Realtime.WebSocket.messageSent',
      'Realtime.WebSocket.HttpApiEvent',
    ];
    for (const name of names) host.on(name, (payload) => void seen.push({ name, payload }));

    const socket = await transport.connect({ appKey: 'key' });
    socket.receive({ event: 'pusher:subscribe', data: { channel: 'news' } });
    await settle();
    await server.trigger(app, { name: 'update', data: '{}', channels: ['news'] });
    emitHttpApiResponse(server, { app, method: 'POST', route: '/apps/:appId/events', status: 200 });
    socket.close(1000, 'bye');
    await settle();

    const byName = (name: HostEventName) => seen.filter((entry) => entry.name === name).map((entry) => entry.payload);
    const connection = socket.connection!;
    expect(byName('Realtime.WebSocket.connectionEstablished')).toEqual([{ connection, app, socketId: socket.socketId }]);
    expect(byName('Realtime.WebSocket.messageReceived')).toEqual([{ connection, app, event: 'pusher:subscribe', bytes: expect.any(Number) as number }]);
    expect(byName('Realtime.WebSocket.channelCreated')).toEqual([{ app, channel: 'news' }]);
    expect(byName('Realtime.WebSocket.messageSent')).toEqual([{ app, channel: 'news', event: 'update', recipients: 1, bytes: expect.any(Number) as number }]);
    expect(byName('Realtime.WebSocket.HttpApiEvent')).toEqual([{ app, method: 'POST', route: '/apps/:appId/events', status: 200 }]);
    expect(byName('Realtime.WebSocket.connectionClosed')).toEqual([{ connection, app, socketId: socket.socketId }]);
    expect(byName('Realtime.WebSocket.channelRemoved')).toEqual([{ app, channel: 'news' }]);
  });

  it('runs listeners after delivery: the subscriber already has the event when messageSent fires', async () => {
    const { server, transport, host } = await setup();
    const socket = await transport.connect({ appKey: 'key' });
    socket.receive({ event: 'pusher:subscribe', data: { channel: 'news' } });
    await settle();
    let framesWhenNotified = -1;
    host.on('Realtime.WebSocket.messageSent', () => void (framesWhenNotified = socket.events('update').length));
    await server.trigger(app, { name: 'update', data: '{}', channels: ['news'] });
    await settle();
    expect(framesWhenNotified).toBe(1);
  });

  it('keeps delivering when listeners throw, reject or never finish, and reports the failures', async () => {
    const { server, transport, host, errors } = await setup();
    host.on('Realtime.WebSocket.messageSent', () => {
      throw new Error('sync boom');
    });
    host.on('Realtime.WebSocket.messageSent', () => Promise.reject(new Error('async boom')));
    host.on('Realtime.WebSocket.messageSent', () => new Promise<void>(() => {}));
    let healthyCalls = 0;
    host.on('Realtime.WebSocket.messageSent', () => void healthyCalls++);

    const socket = await transport.connect({ appKey: 'key' });
    socket.receive({ event: 'pusher:subscribe', data: { channel: 'news' } });
    await settle();
    await server.trigger(app, { name: 'first', data: '{}', channels: ['news'] });
    await server.trigger(app, { name: 'second', data: '{}', channels: ['news'] });
    await settle();

    expect(socket.messages.filter((m) => m.channel === 'news' && !m.event.startsWith('pusher')).map((m) => m.event)).toEqual(['first', 'second']);
    expect(healthyCalls).toBe(2);
    expect(errors.map((error) => (error as Error).message).sort()).toEqual(['async boom', 'async boom', 'sync boom', 'sync boom']);
  });

  it('stops calling a listener after unsubscribe, and off() removes them all', async () => {
    const { transport, host } = await setup();
    let calls = 0;
    const unsubscribe = host.on('Realtime.WebSocket.connectionEstablished', () => void calls++);
    let otherCalls = 0;
    host.on('Realtime.WebSocket.connectionEstablished', () => void otherCalls++);
    await transport.connect({ appKey: 'key' });
    unsubscribe();
    await transport.connect({ appKey: 'key' });
    host.off();
    await transport.connect({ appKey: 'key' });
    expect([calls, otherCalls]).toEqual([1, 2]);
  });
});

describe('server.events', () => {
  it('reports an async engine listener that rejects instead of leaving the rejection unhandled', async () => {
    const { server, transport, errors } = await setup();
    server.events.on('connection.opened', async () => {
      throw new Error('listener rejected');
    });
    const socket = await transport.connect({ appKey: 'key' });
    await settle();
    expect(socket.events('pusher:connection_established')).toHaveLength(1);
    expect(errors.map((error) => (error as Error).message)).toEqual(['listener rejected']);
  });
});
