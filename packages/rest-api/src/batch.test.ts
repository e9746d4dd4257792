import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { otherApp, signedFetch, startApi, type ApiFixture } from '../test/support/test-fixture.js';

let api: ApiFixture;
beforeEach(async () => {
  api = await startApi();
});
afterEach(async () => {
  await api.close();
});

const postBatch = (body: unknown, app = undefined as typeof otherApp | undefined) =>
  signedFetch(api.baseUrl, { method: 'POST', path: `/apps/${(app ?? { id: 'app-1' }).id}/batch_events`, body: JSON.stringify(body), ...(app ? { app } : {}) });

describe('POST /apps/:appId/batch_events', () => {
  it('publishes every event of a batch from the official SDK and answers {}', async () => {
    const a = await api.subscriber('a');
    const b = await api.subscriber('b');
    const response = await api.pusher().triggerBatch([
      { channel: 'a', name: 'first', data: { n: 1 } },
      { channel: 'b', name: 'second', data: 'two' },
      { channel: 'a', name: 'third', data: '3' },
    ]);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({});
    expect(a.messages.filter((m) => !m.event.startsWith('pusher'))).toEqual([
      { event: 'first', channel: 'a', data: '{"n":1}' },
      { event: 'third', channel: 'a', data: '3' },
    ]);
    expect(b.events('second')).toEqual([{ event: 'second', channel: 'b', data: 'two' }]);
  });

  it('answers {"batch":[...]} with each item\'s requested info, {} for items without', async () => {
    await api.subscriber('presence-room', { presence: { user_id: 'u1' } });
    await api.subscriber('news');
    const response = await api.pusher().triggerBatch([
      { channel: 'presence-room', name: 'e', data: 'x', info: 'user_count,subscription_count' },
      { channel: 'news', name: 'e', data: 'x' },
      { channel: 'news', name: 'e', data: 'x', info: 'subscription_count' },
    ]);
    expect(await response.json()).toEqual({
      batch: [{ user_count: 1, subscription_count: 1 }, {}, { subscription_count: 1 }],
    });
  });

  it('honours socket_id per item', async () => {
    const sender = await api.subscriber('room');
    const other = await api.subscriber('room');
    await api.pusher().triggerBatch([{ channel: 'room', name: 'e', data: 'x', socket_id: sender.socketId }]);
    expect(sender.events('e')).toEqual([]);
    expect(other.events('e')).toHaveLength(1);
  });

  it('refuses more events than maxBatchSize (10) with 400 and publishes none', async () => {
    const socket = await api.subscriber('a');
    const batch = Array.from({ length: 11 }, (_, i) => ({ channel: 'a', name: `e${i}`, data: 'x' }));
    const response = await postBatch({ batch });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: '"batch" may contain at most 10 events, got 11', code: 400 });
    expect(socket.frames.some((frame) => frame.includes('"e0"'))).toBe(false);
  });

  it('validates every item before publishing any (all-or-nothing)', async () => {
    const socket = await api.subscriber('a');
    const response = await postBatch({
      batch: [
        { channel: 'a', name: 'ok', data: 'x' },
        { channel: 'not valid!', name: 'bad', data: 'x' },
      ],
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toMatch(/^batch\[1\]: "not valid!": channel name may only contain/);
    expect(socket.events('ok')).toEqual([]);
  });

  it('refuses info=user_count on an item to a non-presence channel before publishing any', async () => {
    const socket = await api.subscriber('a');
    const response = await postBatch({
      batch: [
        { channel: 'a', name: 'ok', data: 'x' },
        { channel: 'a', name: 'counted', data: 'x', info: 'user_count' },
      ],
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: 'batch[1]: info=user_count is only available for presence channels, not "a"', code: 400 });
    expect(socket.events('ok')).toEqual([]);
    expect(socket.events('counted')).toEqual([]);
  });

  it.each([
    ['an item has no channel', { batch: [{ name: 'e', data: 'x' }] }, '"batch[0].channel" is required'],
    ['an item has object data', { batch: [{ channel: 'a', name: 'e', data: {} }] }, '"batch[0].data" must be a string'],
    ['batch is missing', {}, '"batch" is required'],
    ['batch is not an array', { batch: {} }, '"batch" must be an array of events'],
    ['batch is empty', { batch: [] }, '"batch" must contain at least one event'],
  ])('answers 400 naming the field when %s', async (_case, body, message) => {
    const response = await postBatch(body);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toContain(message);
  });

  it("answers 413 when one item's data is over the app's max message size, publishing none", async () => {
    const socket = await api.subscriber('a', { app: otherApp });
    const response = await postBatch(
      { batch: [{ channel: 'a', name: 'small', data: 'x' }, { channel: 'a', name: 'big', data: 'x'.repeat(101) }] },
      otherApp,
    );
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ error: 'batch[1]: event data is 101 bytes; the limit is 100', code: 413 });
    expect(socket.events('small')).toEqual([]);
  });
});
