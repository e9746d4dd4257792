import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { mainApp, otherApp, signedFetch, signedQuery, startApi, type ApiFixture } from '../test/support/test-fixture.js';
import { testStore, type TestStore } from '../test/support/idempotency-store.js';
import type { PusherApiOptions } from './options.js';

let api: ApiFixture | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

async function start(store: TestStore | undefined, options: Omit<PusherApiOptions, 'server'> = {}) {
  api = await startApi({ ...(store ? { idempotency: store } : {}), ...options });
  return api;
}

const trigger = (fixture: ApiFixture, key: string | undefined, body: object = { name: 'paid', channels: ['orders'], data: '{"id":1}', info: 'subscription_count' }, app = mainApp) =>
  signedFetch(fixture.baseUrl, { method: 'POST', path: `/apps/${app.id}/events`, body: JSON.stringify(body), app, headers: key === undefined ? {} : { 'x-idempotency-key': key } });
const batch = (fixture: ApiFixture, key: string) =>
  signedFetch(fixture.baseUrl, {
    method: 'POST',
    path: `/apps/${mainApp.id}/batch_events`,
    body: JSON.stringify({ batch: [{ name: 'a', channel: 'orders', data: '1', info: 'subscription_count' }, { name: 'b', channel: 'orders', data: '2' }] }),
    headers: { 'x-idempotency-key': key },
  });
const answerOf = async (response: Response) => ({ status: response.status, replay: response.headers.get('x-idempotent-replay'), body: await response.text() });

describe('X-Idempotency-Key on triggers', () => {
  it('publishes a retried trigger once and answers the retry like the first, marked as a replay', async () => {
    const fixture = await start(testStore());
    const socket = await fixture.subscriber('orders');
    const first = await answerOf(await trigger(fixture, 'order-1'));
    const retry = await answerOf(await trigger(fixture, 'order-1'));
    expect(first).toEqual({ status: 200, replay: null, body: '{"channels":{"orders":{"subscription_count":1}}}' });
    expect(retry).toEqual({ ...first, replay: 'true' });
    expect(socket.events('paid')).toHaveLength(1);
  });

  it('publishes a retried batch once', async () => {
    const fixture = await start(testStore());
    const socket = await fixture.subscriber('orders');
    const first = await answerOf(await batch(fixture, 'batch-1'));
    const retry = await answerOf(await batch(fixture, 'batch-1'));
    expect(first.status).toBe(200);
    expect(retry).toEqual({ ...first, replay: 'true' });
    expect([...socket.events('a'), ...socket.events('b')]).toHaveLength(2);
  });

  it('publishes again with another key, without a key, and for another app with the same key', async () => {
    const fixture = await start(testStore());
    const socket = await fixture.subscriber('orders');
    const other = await fixture.subscriber('orders', { app: otherApp });
    await trigger(fixture, 'k1');
    await trigger(fixture, 'k2');
    await trigger(fixture, undefined);
    await trigger(fixture, undefined);
    expect(socket.events('paid')).toHaveLength(4);
    expect((await trigger(fixture, 'k1', undefined, otherApp)).status).toBe(200);
    expect(other.events('paid')).toHaveLength(1);
  });

  it('refuses a key reused for another trigger (another body or endpoint) with 422, instead of answering 200 and dropping it', async () => {
    // A backend keying by order id ("order-1") for both "paid" and "shipped": a replay would answer the second
    // trigger 200 and publish nothing, silently.
    const fixture = await start(testStore());
    const socket = await fixture.subscriber('orders');
    expect((await trigger(fixture, 'order-1')).status).toBe(200);
    const other = await trigger(fixture, 'order-1', { name: 'shipped', channels: ['orders'], data: '{"id":1}' });
    expect(other.status).toBe(422);
    expect(await other.json()).toEqual({
      error: 'this X-Idempotency-Key was used for another request (another body or endpoint) within the window; send a new trigger with a new key',
      code: 422,
    });
    const asBatch = await batch(fixture, 'order-1');
    expect(asBatch.status).toBe(422);
    expect(socket.events('paid')).toHaveLength(1);
    expect(socket.events('shipped')).toHaveLength(0);
    expect(socket.events('a')).toHaveLength(0);
    // The real retry is still replayed.
    expect((await answerOf(await trigger(fixture, 'order-1'))).replay).toBe('true');
  });

  it('answers a retry while the first still runs with 409 in the JSON error shape, and publishes once', async () => {
    let letThrough!: () => void;
    const held = new Promise<void>((resolve) => (letThrough = resolve));
    const fixture = await start(testStore(), { rateLimit: () => held.then(() => ({ allowed: true })) });
    const socket = await fixture.subscriber('orders');
    const running = trigger(fixture, 'slow');
    await new Promise((resolve) => setTimeout(resolve, 50));
    const conflict = await trigger(fixture, 'slow');
    expect(conflict.status).toBe(409);
    expect(await conflict.json()).toEqual({ error: 'a request with this X-Idempotency-Key is in progress; retry once it has been answered', code: 409 });
    letThrough();
    expect((await running).status).toBe(200);
    expect(socket.events('paid')).toHaveLength(1);
  });

  it('frees the key of a refused request, so the corrected retry publishes', async () => {
    let allow = false;
    const store = testStore();
    const fixture = await start(store, { rateLimit: () => Promise.resolve(allow ? { allowed: true } : { allowed: false, retryAfterSeconds: 1 }) });
    const socket = await fixture.subscriber('orders');
    expect((await trigger(fixture, 'k')).status).toBe(429);
    allow = true;
    expect((await trigger(fixture, 'k')).status).toBe(200);
    expect(socket.events('paid')).toHaveLength(1);
    expect(store.calls).toEqual([`claim ${mainApp.id} k`, `release ${mainApp.id} k`, `claim ${mainApp.id} k`, `complete ${mainApp.id} k`]);
  });

  it('claims nothing for a request that is not signed or not valid', async () => {
    const store = testStore();
    const fixture = await start(store);
    const unsigned = await fetch(`${fixture.baseUrl}/apps/${mainApp.id}/events`, { method: 'POST', body: '{}', headers: { 'x-idempotency-key': 'k' } });
    expect(unsigned.status).toBe(401);
    expect((await trigger(fixture, 'k', { name: 'e', channels: [], data: '' })).status).toBe(400);
    expect(store.calls).toEqual([]);
  });

  it('publishes anyway, every time, while the store is away', async () => {
    const store = testStore();
    store.failing = true;
    const fixture = await start(store);
    const socket = await fixture.subscriber('orders');
    expect((await trigger(fixture, 'k')).status).toBe(200);
    expect((await trigger(fixture, 'k')).status).toBe(200);
    expect(socket.events('paid')).toHaveLength(2);
  });

  it.each([
    ['empty', ''],
    ['too long', 'k'.repeat(256)],
    ['with a control character', 'a\tb'],
    ['not ASCII', 'cl\u00e9'],
  ])('refuses a key that is %s with 400, publishing nothing', async (_, key) => {
    const store = testStore();
    const fixture = await start(store);
    const socket = await fixture.subscriber('orders');
    const response = await trigger(fixture, key);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: 400, error: expect.stringContaining('X-Idempotency-Key must be 1 to 255 printable ASCII characters') });
    expect(socket.events('paid')).toHaveLength(0);
    expect(store.calls).toEqual([]);
  });

  it('accepts a key of 255 printable characters, spaces inside', async () => {
    const fixture = await start(testStore());
    expect((await trigger(fixture, `a ${'~'.repeat(252)}z`)).status).toBe(200);
  });

  it('ignores the header on reads and without a store', async () => {
    const store = testStore();
    const fixture = await start(store);
    const read = await signedFetch(fixture.baseUrl, { method: 'GET', path: `/apps/${mainApp.id}/channels`, headers: { 'x-idempotency-key': '' } });
    expect(read.status).toBe(200);
    expect(store.calls).toEqual([]);
    await fixture.close();
    api = undefined;
    const bare = await start(undefined);
    const socket = await bare.subscriber('orders');
    await trigger(bare, '');
    await trigger(bare, '');
    expect(socket.events('paid')).toHaveLength(2);
  });

  it('takes a header sent twice as one key, joined with ", " as HTTP joins repeated headers', async () => {
    const store = testStore();
    const fixture = await start(store);
    const path = `/apps/${mainApp.id}/events`;
    const body = JSON.stringify({ name: 'paid', channels: ['orders'], data: '1' });
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const sent = httpRequest(`${fixture.baseUrl}${path}?${signedQuery({ method: 'POST', path, body })}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-idempotency-key': ['first', 'second'] } }, (response) => {
        response.resume();
        resolve(response.statusCode);
      });
      sent.on('error', reject);
      sent.end(body);
    });
    expect(status).toBe(200);
    expect(store.calls[0]).toBe(`claim ${mainApp.id} first, second`);
  });
});
