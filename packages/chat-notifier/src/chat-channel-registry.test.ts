import { afterEach, describe, expect, it } from 'vitest';
import { webhookUrl } from '../test/support/fixtures.js';
import { InvoicePaid, MiniManager, User } from '../test/support/notifications.js';
import { startWebhookServer, type WebhookServer } from '../test/support/webhook-server.js';
import { ChatChannelRegistry, type ChatChannelRegistryOptions } from './chat-channel-registry.js';
import { ChatMessage } from './chat-message.js';
import type { ChatContent } from './chat-notification.js';
import type { Notifiable } from '@org/notifications/contract';
import { InvalidChatConfig, InvalidChatTarget, MissingChatRenderer, UnknownChatInstance } from './errors.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function servers(count: number): Promise<WebhookServer[]> {
  const list = await Promise.all(Array.from({ length: count }, () => startWebhookServer()));
  for (const s of list) cleanups.push(() => s.close());
  return list;
}

function registry(options: ChatChannelRegistryOptions): ChatChannelRegistry {
  const r = new ChatChannelRegistry({ env: {}, ...options });
  cleanups.push(() => r.close());
  return r;
}

class Rendered {
  constructor(
    readonly content: ChatContent | null,
    readonly channels: readonly string[] = ['chat'],
  ) {}
  via() {
    return this.channels;
  }
  toChat() {
    return this.content;
  }
}

describe('ChatChannelRegistry', () => {
  it('keeps named instances apart: each has its own webhook and headers', async () => {
    const [main, alerts, ops] = await servers(3);
    const chat = registry({
      instances: {
        chat: { webhook: webhookUrl(main!.origin), headers: { 'x-instance': 'main' } },
        'chat-alerts': { webhook: webhookUrl(alerts!.origin, 'alerts-token'), headers: { 'x-instance': 'alerts' } },
      },
      env: { CHAT_OPS_WEBHOOK: webhookUrl(ops!.origin, 'ops-token') },
    });
    await chat.get('chat').send(null, 'to main');
    await chat.get('chat-alerts').send(null, 'to alerts');
    await chat.get('chat-ops').send(null, 'to ops from env');
    expect(main!.requests.map((r) => [r.json, r.headers['x-instance']])).toEqual([[{ text: 'to main' }, 'main']]);
    expect(alerts!.requests.map((r) => [r.url, r.json, r.headers['x-instance']])).toEqual([
      ['/hooks/hook-id-1/alerts-token', { text: 'to alerts' }, 'alerts'],
    ]);
    expect(ops!.requests.map((r) => r.url)).toEqual(['/hooks/hook-id-1/ops-token']);
    expect(chat.get('chat')).toBe(chat.get('chat'));
    expect(chat.names()).toEqual(['chat', 'chat-alerts']);
  });

  it('gives a clear error for an unknown instance name', () => {
    const chat = registry({ instances: { chat: { webhook: 'https://x.example/hooks/a/b' } } });
    expect(() => chat.get('chat-missing')).toThrowError(UnknownChatInstance);
    expect(() => chat.get('chat-missing')).toThrowError(
      'Unknown chat instance "chat-missing". Configured: "chat". Add it to the instances option or set CHAT_MISSING_WEBHOOK.',
    );
    expect(() => chat.get('slack')).toThrowError(/Instance names are "chat" or "chat-<suffix>"/);
  });

  it('validates every configured instance at construction', () => {
    expect(() => new ChatChannelRegistry({ env: {}, instances: { 'chat-alerts': { webhook: 'https://x.example/hooks/a/b', timeout: 0 } } })).toThrowError(
      /Invalid config for chat instance "chat-alerts": timeout/,
    );
    expect(() => new ChatChannelRegistry({ env: {}, instances: { alerts: { webhook: 'https://x.example/hooks/a/b' } } })).toThrowError(InvalidChatConfig);
  });

  it('as a notification channel: routes per notifiable, renders toChat, and sends via the instance via() named', async () => {
    const [main, alerts] = await servers(2);
    const chat = registry({
      instances: { chat: { webhook: webhookUrl(main!.origin) }, 'chat-alerts': { webhook: webhookUrl(alerts!.origin), channel: '#alerts' } },
    });
    const manager = new MiniManager().extend('chat', chat).resolveChannel(chat.resolver);
    const invoice = { id: 'INV-7', amount: '€12.00', url: 'https://billing.example.com/inv/7' };
    await manager.send([new User('jane'), new User('joe')], new InvoicePaid(invoice, ['database', 'broadcast', 'chat', 'chat-alerts']));

    expect(main!.requests.map((r) => (r.json as { channel: string }).channel)).toEqual(['@jane', '@joe']);
    expect(main!.requests[0]!.json).toEqual({
      text: 'Invoice INV-7 was paid',
      alias: 'Billing',
      emoji: ':moneybag:',
      attachments: [
        {
          title: 'Invoice INV-7',
          title_link: 'https://billing.example.com/inv/7',
          color: '#35AC19',
          fields: [
            { short: true, title: 'Amount', value: '€12.00' },
            { short: true, title: 'Customer', value: 'jane' },
          ],
        },
      ],
      channel: '@jane',
    });
    expect(alerts!.requests).toHaveLength(2);
    expect(manager.skipped).toEqual(['database', 'broadcast', 'database', 'broadcast']);
  });

  it('on demand: route("chat", "#alerts") posts there, and omits channel when it is the default', async () => {
    const [main] = await servers(1);
    const chat = registry({ instances: { chat: { webhook: webhookUrl(main!.origin), channel: '#general' } } });
    const manager = new MiniManager().extend('chat', chat);
    await manager.route('chat', '#alerts').notify(new Rendered('on demand'));
    await manager.route('chat', '#general').notify(new Rendered('to default'));
    await chat.route('chat', '@ops').notify(new Rendered('standalone on demand'));
    expect(main!.requests.map((r) => r.json)).toEqual([
      { text: 'on demand', channel: '#alerts' },
      { text: 'to default' },
      { text: 'standalone on demand', channel: '@ops' },
    ]);
  });

  it('resolves routes in the contract order and falls back from chat-* to the chat route', async () => {
    const [main, alerts] = await servers(2);
    const chat = registry({ instances: { chat: { webhook: webhookUrl(main!.origin) }, 'chat-alerts': { webhook: webhookUrl(alerts!.origin) } } });
    const seen: string[] = [];
    const notifiable = {
      routeNotificationFor(channel: string) {
        seen.push(channel);
        return channel === 'chat' ? '#from-generic' : null;
      },
    };
    await chat.send(notifiable, new Rendered('a'), 'chat-alerts');
    expect(seen).toEqual(['chat-alerts', 'chat']);
    expect(alerts!.requests[0]!.json).toEqual({ text: 'a', channel: '#from-generic' });

    const specific = { routeNotificationForChat: (_n: unknown, channel: string) => (channel === 'chat' ? '@me' : null), routeNotificationFor: () => '#other' };
    await chat.send(specific, new Rendered('b'), 'chat');
    await chat.send({} as Notifiable, new Rendered('c'), 'chat');
    expect(main!.requests.map((r) => r.json)).toEqual([{ text: 'b', channel: '@me' }, { text: 'c' }]);
  });

  it('accepts a ChatMessage, a plain object and a string from toChat, and sends nothing for null', async () => {
    const [main] = await servers(1);
    const chat = registry({ instances: { chat: { webhook: webhookUrl(main!.origin) } } });
    const user = new User('ann');
    await chat.notify(user, new Rendered(ChatMessage.create('built')));
    await chat.notify(user, new Rendered({ text: 'raw', attachments: [{ text: 'x' }] }));
    await chat.notify(user, new Rendered('plain'));
    await chat.notify(user, new Rendered(null));
    expect(main!.requests.map((r) => r.json)).toEqual([
      { text: 'built', channel: '@ann' },
      { text: 'raw', attachments: [{ text: 'x' }], channel: '@ann' },
      { text: 'plain', channel: '@ann' },
    ]);
  });

  it('rejects a notification without toChat and a route that is not a destination', async () => {
    const chat = registry({ instances: { chat: { webhook: 'http://127.0.0.1:9/hooks/a/b' } } });
    await expect(chat.send(new User('x'), { via: () => ['chat'] }, 'chat')).rejects.toThrowError(MissingChatRenderer);
    await expect(chat.send(new User('x', 42), new Rendered('x'), 'chat')).rejects.toThrowError(InvalidChatTarget);
    await expect(chat.send(new User('x', 42), new Rendered('x'), 'chat')).rejects.toThrowError(/Invalid chat route number 42/);
  });

  it('resolver answers only for chat names', () => {
    const chat = registry({});
    expect(chat.resolver('chat-anything')).toBe(chat);
    expect(chat.resolver('mail')).toBeUndefined();
  });
});
