import { createHmac } from 'node:crypto';
import { freePort } from '@org/dev-kit';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventsFor, parseEvents, startWebhookReceiver, type WebhookReceiver } from './webhook-receiver.js';

const app = { id: 'hooks', key: 'hooks-key', secret: 'hooks-secret' };
let receiver: WebhookReceiver;

beforeAll(async () => {
  receiver = await startWebhookReceiver({ host: '127.0.0.1', port: await freePort(), app });
});

afterAll(() => receiver.close());

function post(body: string, headers: Record<string, string>): Promise<Response> {
  return fetch(receiver.url, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });
}

describe('the webhook receiver', () => {
  it('keeps each request with its events, and whether the pusher SDK accepts its signature', async () => {
    const body = JSON.stringify({ time_ms: 1, events: [{ name: 'channel_occupied', channel: 'hooked-1' }] });
    const signature = createHmac('sha256', app.secret).update(body).digest('hex');
    expect((await post(body, { 'x-pusher-key': app.key, 'x-pusher-signature': signature })).status).toBe(200);
    expect((await post(body, { 'x-pusher-key': app.key, 'x-pusher-signature': '0'.repeat(64) })).status).toBe(200);
    expect((await post(body, { 'x-pusher-key': 'other-key', 'x-pusher-signature': signature })).status).toBe(200);
    expect(receiver.requests.map((request) => request.valid)).toEqual([true, false, false]);
    expect(eventsFor(receiver, 'hooked-1').map(({ event }) => event)).toEqual([
      { name: 'channel_occupied', channel: 'hooked-1' },
      { name: 'channel_occupied', channel: 'hooked-1' },
      { name: 'channel_occupied', channel: 'hooked-1' },
    ]);
  });

  it('reads any body without throwing: events only from an events array of objects', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json()), (body) => {
        const { events } = parseEvents(body);
        expect(Array.isArray(events)).toBe(true);
        for (const event of events) expect(typeof event).toBe('object');
      }),
    );
  });
});
