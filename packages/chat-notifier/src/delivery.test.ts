import { afterEach, describe, expect, it } from 'vitest';
import { webhookUrl } from '../test/support/fixtures.js';
import { InvoicePaid, User } from '../test/support/notifications.js';
import { startWebhookServer, type ReplyPlan, type WebhookServer } from '../test/support/webhook-server.js';
import { ChatChannelRegistry, type ChatChannelRegistryOptions } from './chat-channel-registry.js';
import { ChatDeliveryFailed } from './delivery.js';
import { InvalidChatTarget, type ChatNotifierError } from './errors.js';
import type { Notification } from '@org/notifications/contract';
import { ChatFake } from './testing/chat-fake.js';

const invoice = { id: 'INV-9', amount: '€9', url: 'https://billing.example.com/9' };
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

/** A server that answers by route: the `channel` of the posted payload picks the reply. */
async function serverByChannel(replies: Record<string, { status: number; body?: string }>): Promise<WebhookServer> {
  const plan: ReplyPlan = (request) => replies[String((request.json as { channel?: unknown }).channel)] ?? {};
  const server = await startWebhookServer(Array.from({ length: 50 }, () => plan));
  cleanups.push(() => server.close());
  return server;
}

function registry(options: ChatChannelRegistryOptions): ChatChannelRegistry {
  const r = new ChatChannelRegistry({ env: {}, ...options });
  cleanups.push(() => r.close());
  return r;
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.unreachable('expected a rejection'),
    (error: unknown) => error,
  );
}

describe('sending to many recipients', () => {
  it('send([u1, u2], n) routes each recipient on its own, exactly like two single sends', async () => {
    const server = await serverByChannel({});
    const chat = registry({ instances: { chat: { webhook: webhookUrl(server.origin) } } });
    const [jane, joe] = [new User('jane'), new User('joe')];
    const results = await chat.send([jane, joe], new InvoicePaid(invoice));

    const posted = server.requests.map((r) => r.json as { channel: string; attachments: Array<{ fields: Array<{ value: string }> }> });
    expect(posted.map((p) => p.channel).sort()).toEqual(['@jane', '@joe']);
    // toChat() was rendered for each recipient, not once with the array.
    expect(posted.map((p) => p.attachments[0]!.fields[1]!.value).sort()).toEqual(['jane', 'joe']);
    expect(results.map((r) => [r.recipient, r.instance, r.target, r.ok, r.status, r.attempts])).toEqual([
      [0, 'chat', '@jane', true, 200, 1],
      [1, 'chat', '@joe', true, 200, 1],
    ]);
    expect(results[1]!.notifiable).toBe(joe);
    expect(Object.keys(results[0]!)).not.toContain('notifiable'); // logging results does not dump user objects

    // One recipient keeps the NotificationChannel contract: resolves to nothing.
    await expect(chat.send(jane, new InvoicePaid(invoice))).resolves.toBeUndefined();
  });

  it('notify([u1, u2], n) does the same through every chat name in via()', async () => {
    const [main, alerts] = [await serverByChannel({}), await serverByChannel({})];
    const chat = registry({
      instances: { chat: { webhook: webhookUrl(main.origin) }, 'chat-alerts': { webhook: webhookUrl(alerts.origin) } },
    });
    const results = await chat.notify([new User('a'), new User('b')], new InvoicePaid(invoice, ['database', 'chat', 'chat-alerts']));
    expect(results.map((r) => `${r.recipient}:${r.instance}:${String(r.target)}`).sort()).toEqual([
      '0:chat-alerts:@a',
      '0:chat:@a',
      '1:chat-alerts:@b',
      '1:chat:@b',
    ]);
    expect(main.requests).toHaveLength(2);
    expect(alerts.requests).toHaveLength(2);
  });

  it('refuses non-objects in the list with a typed error before sending anything', async () => {
    const server = await serverByChannel({});
    const chat = registry({ instances: { chat: { webhook: webhookUrl(server.origin) } } });
    await expect(chat.send([new User('a'), 'bob' as never], new InvoicePaid(invoice))).rejects.toThrowError(InvalidChatTarget);
    await expect(chat.notify([new User('a'), null as never], new InvoicePaid(invoice))).rejects.toThrowError(/at index 1/);
    expect(server.requests).toHaveLength(0);
  });
});

describe('per-recipient results', () => {
  it('with http_errors: false a non-2xx answer is visible in the result (ok, status, code) and nothing throws', async () => {
    const server = await serverByChannel({ '@bad': { status: 400, body: '{"success":false,"error":"invalid-channel"}' }, '@busy': { status: 429 } });
    const chat = registry({ instances: { chat: { webhook: webhookUrl(server.origin), http_errors: false, retry: false } } });
    const results = await chat.notify([new User('ok'), new User('bad'), new User('busy')], new InvoicePaid(invoice));
    expect(results.map((r) => ({ target: r.target, ok: r.ok, status: r.status, code: r.code, attempts: r.attempts, error: r.error }))).toEqual([
      { target: '@ok', ok: true, status: 200, code: undefined, attempts: 1, error: undefined },
      { target: '@bad', ok: false, status: 400, code: 'CHAT_HTTP_ERROR', attempts: 1, error: undefined },
      { target: '@busy', ok: false, status: 429, code: 'CHAT_RATE_LIMITED', attempts: 1, error: undefined },
    ]);
  });

  it('toChat() returning null is a skipped, ok result with no request', async () => {
    const server = await serverByChannel({});
    const chat = registry({ instances: { chat: { webhook: webhookUrl(server.origin) } } });
    const results = await chat.notify(new User('a'), { via: () => ['chat', 'mail'], toChat: () => null } as Notification);
    expect(results).toEqual([{ instance: 'chat', recipient: 0, target: null, ok: true, skipped: true, status: undefined, code: undefined, attempts: 0 }]);
    expect(server.requests).toHaveLength(0);
  });

  it('with http_errors: true, a partial failure attempts everyone, then throws ChatDeliveryFailed carrying every result', async () => {
    const server = await serverByChannel({ '@bad': { status: 400 }, '@down': { status: 503 } });
    const chat = registry({ instances: { chat: { webhook: webhookUrl(server.origin), retry: false } } });
    const error = (await rejection(
      chat.notify([new User('first'), new User('bad'), new User('last'), new User('down')], new InvoicePaid(invoice)),
    )) as ChatDeliveryFailed;

    expect(error).toBeInstanceOf(ChatDeliveryFailed);
    expect(error.code).toBe('CHAT_DELIVERY_FAILED');
    expect(server.requests).toHaveLength(4); // the ones after the failure were still sent
    expect(error.results.map((r) => [r.target, r.ok, r.status, r.code])).toEqual([
      ['@first', true, 200, undefined],
      ['@bad', false, 400, 'CHAT_HTTP_ERROR'],
      ['@last', true, 200, undefined],
      ['@down', false, 503, 'CHAT_HTTP_ERROR'],
    ]);
    expect(error.errors.map((e) => (e as ChatNotifierError).code)).toEqual(['CHAT_HTTP_ERROR', 'CHAT_HTTP_ERROR']);
    expect(error.message).toMatch(/^2 of 4 chat deliveries failed \(chat: CHAT_HTTP_ERROR, chat: CHAT_HTTP_ERROR\); first: Rocket\.Chat responded with an error `400/);
    expect(error.cause).toBe(error.errors[0]);
  });

  it('send([...]) follows the same partial-failure rule; failures before sending (unknown instance) are results too', async () => {
    const server = await serverByChannel({ '@bad': { status: 400 } });
    const chat = registry({ instances: { chat: { webhook: webhookUrl(server.origin), retry: false } } });
    const error = (await rejection(chat.send([new User('good'), new User('bad')], new InvoicePaid(invoice)))) as ChatDeliveryFailed;
    expect(error.results.map((r) => r.ok)).toEqual([true, false]);

    const unknown = (await rejection(chat.notify(new User('x'), new InvoicePaid(invoice, ['chat-typo'])))) as ChatDeliveryFailed;
    expect(unknown.results).toEqual([
      expect.objectContaining({ instance: 'chat-typo', ok: false, code: 'CHAT_UNKNOWN_INSTANCE', attempts: 0, status: undefined }),
    ]);
  });

  it('on-demand route().notify() returns the results too', async () => {
    const server = await serverByChannel({});
    const chat = registry({ instances: { chat: { webhook: webhookUrl(server.origin) } } });
    const results = await chat.route('chat', '#ops').notify(new InvoicePaid(invoice));
    expect(results.map((r) => [r.target, r.status])).toEqual([['#ops', 200]]);
  });

  it('ChatFake returns the same shape (status undefined, attempts 0: nothing is sent)', async () => {
    const fake = new ChatFake({ instances: { chat: { webhook: 'https://chat.example.test/hooks/a/b' } }, env: {} });
    const results = await fake.notify([new User('a'), new User('b')], new InvoicePaid(invoice));
    expect(results.map((r) => [r.recipient, r.target, r.ok, r.status, r.attempts])).toEqual([
      [0, '@a', true, undefined, 0],
      [1, '@b', true, undefined, 0],
    ]);
    const many = await fake.send([new User('c')], new InvoicePaid(invoice));
    expect(many).toHaveLength(1);
    fake.assertSentTimes(InvoicePaid, 3);
  });
});
