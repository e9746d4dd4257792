import { describe, expect, it } from 'vitest';
import { createApp } from './app.js';
import { createStaticAppProvider } from './app-provider.js';
import { prepareTrigger, PreparedTrigger } from './http-operations.js';
import { RealtimeServer } from './realtime-server.js';
import { MemoryTransport, settle } from './testing/memory-transport.js';

const app = createApp({ id: '1', key: 'key', secret: 'secret' });
const small = createApp({ id: '2', key: 'key2', secret: 'secret2', maxMessageSize: 10 });

async function subscribed(channel: string) {
  const server = new RealtimeServer({ apps: createStaticAppProvider([app, small]) });
  const transport = new MemoryTransport(server);
  await server.start();
  const socket = await transport.connect({ appKey: 'key' });
  socket.receive({ event: 'pusher:subscribe', data: { channel } });
  await settle();
  return { server, socket };
}

describe('prepareTrigger', () => {
  it('checks once and encodes the data once: string data stays a JSON string, objects become JSON', () => {
    expect(prepareTrigger(app, { name: 'e', data: 'hi', channels: ['a'] }).encodedData).toBe('"hi"');
    expect(prepareTrigger(app, { name: 'e', data: { n: 1 }, channels: ['a'] }).encodedData).toBe('{"n":1}');
    expect(prepareTrigger(app, { name: 'e', data: undefined, channels: ['a'] }).encodedData).toBe('null');
  });

  it('throws the same typed errors the engine throws for a plain event', () => {
    expect(() => prepareTrigger(app, { name: 'e', data: 'x', channels: [] })).toThrow(expect.objectContaining({ code: 'INVALID_CHANNEL' }));
    expect(() => prepareTrigger(app, { name: 'e', data: 'x', channels: ['a'], info: ['nope'] })).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
    expect(() => prepareTrigger(small, { name: 'e', data: 'x'.repeat(11), channels: ['a'] })).toThrow(expect.objectContaining({ code: 'PAYLOAD_TOO_LARGE' }));
  });

  it('delivers a prepared trigger exactly as the plain event', async () => {
    const { server, socket } = await subscribed('news');
    await server.trigger(app, { name: 'update', data: { a: 1 }, channels: ['news'] });
    await server.trigger(app, prepareTrigger(app, { name: 'update', data: { a: 1 }, channels: ['news'] }));
    const updates = socket.frames.filter((frame) => frame.includes('"update"'));
    expect(updates).toHaveLength(2);
    expect(updates[1]).toBe(updates[0]);
  });

  it('is frozen, with copies of the arrays it checked: changing the caller\'s arrays or the trigger changes nothing', async () => {
    const { server, socket } = await subscribed('news');
    const channels = ['news'];
    const prepared = prepareTrigger(app, { name: 'update', data: 'x', channels });
    channels.push('bad channel!', ...Array.from({ length: 200 }, (_, i) => `c${i}`));
    expect(prepared.channels).toEqual(['news']);
    expect(Object.isFrozen(prepared) && Object.isFrozen(prepared.channels)).toBe(true);
    expect(() => (prepared.channels as string[]).push('more')).toThrow(TypeError);
    expect(() => Object.assign(prepared, { encodedData: '"y"' })).toThrow(TypeError);
    await server.trigger(app, prepared);
    expect(socket.frames.filter((frame) => frame.includes('"update"'))).toHaveLength(1);
  });

  it('checks a trigger again for a reloaded configuration of the same app id', async () => {
    const { server } = await subscribed('news');
    const prepared = prepareTrigger(app, { name: 'e', data: 'x'.repeat(11), channels: ['news'] });
    const reloaded = createApp({ id: '1', key: 'key', secret: 'secret', maxMessageSize: 10 });
    await expect(server.trigger(reloaded, prepared)).rejects.toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
  });

  it('checks a trigger prepared for another app again, against the app it is published to', async () => {
    const { server } = await subscribed('news');
    const prepared = prepareTrigger(app, { name: 'e', data: 'x'.repeat(11), channels: ['news'] });
    expect(prepared).toBeInstanceOf(PreparedTrigger);
    await expect(server.trigger(small, prepared)).rejects.toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
  });
});
