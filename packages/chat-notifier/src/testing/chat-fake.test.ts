import { AssertionError } from 'node:assert';
import { describe, expect, it } from 'vitest';
import { InvoicePaid, MiniManager, User } from '../../test/support/notifications.js';
import { ChatMessage } from '../chat-message.js';
import type { ChatNotification } from '../chat-notification.js';
import { InvalidChatPayload, UnknownChatInstance } from '../errors.js';
import { ChatFake } from './chat-fake.js';

const invoice = { id: 'INV-1', amount: '€5', url: 'https://billing.example.com/1' };

class ServerDown implements ChatNotification {
  constructor(readonly host: string) {}
  via() {
    return ['chat-alerts'];
  }
  toChat() {
    return ChatMessage.create(`${this.host} is down`).attachment((a) => a.color('danger').field('Host', this.host));
  }
}

const webhook = 'https://chat.example.test/hooks/id/token';
/** A fake configured like production: both instances have a webhook, and nothing comes from process.env. */
function configuredFake(): ChatFake {
  return new ChatFake({ instances: { chat: { webhook }, 'chat-alerts': { webhook } }, env: {} });
}

function throwsAssertion(run: () => void, message: RegExp): void {
  expect(run).toThrowError(AssertionError);
  expect(run).toThrowError(message);
}

describe('ChatFake', () => {
  it('records instead of sending, with the rendered payload per instance', async () => {
    const fake = new ChatFake({ instances: { chat: { webhook }, 'chat-alerts': { webhook, channel: '#alerts' } }, env: {} });
    const manager = new MiniManager().extend('chat', fake).resolveChannel(fake.resolver);
    const jane = new User('jane');
    await manager.send(jane, new InvoicePaid(invoice, ['database', 'chat', 'chat-alerts']));

    expect(fake.payloads('chat')).toEqual([
      {
        text: 'Invoice INV-1 was paid',
        alias: 'Billing',
        emoji: ':moneybag:',
        attachments: [
          {
            title: 'Invoice INV-1',
            title_link: 'https://billing.example.com/1',
            color: '#35AC19',
            fields: [
              { short: true, title: 'Amount', value: '€5' },
              { short: true, title: 'Customer', value: 'jane' },
            ],
          },
        ],
        channel: '@jane',
      },
    ]);
    expect(fake.sent('chat-alerts')).toHaveLength(1);
    expect(fake.sent('chat-alerts')[0]!.target).toBe('@jane');
    expect(fake.payloads('chat-alerts')[0]!.attachments![0]!.fields).toHaveLength(2);
  });

  it('assertSentTo passes for the recipient and fails with a summary otherwise', async () => {
    const fake = configuredFake();
    const jane = new User('jane');
    const joe = new User('joe');
    await fake.notify(jane, new InvoicePaid(invoice));

    fake.assertSentTo(jane, InvoicePaid);
    fake.assertSentTo(jane, InvoicePaid, (n, sent) => n.invoice.id === 'INV-1' && sent.payload.channel === '@jane');
    fake.assertSentTo(jane, InvoicePaid, 1);
    throwsAssertion(() => fake.assertSentTo(joe, InvoicePaid), /Expected InvoicePaid to be sent to the notifiable, but it was not. Sent: InvoicePaid via chat./);
    throwsAssertion(() => fake.assertSentTo(jane, InvoicePaid, (n) => n.invoice.id === 'other'), /matching the predicate/);
    throwsAssertion(() => fake.assertSentTo(jane, InvoicePaid, 2), /2 time\(s\), but it was sent 1 time\(s\)/);
    throwsAssertion(() => fake.assertSentTo([jane, joe], InvoicePaid), /was not/);
    throwsAssertion(() => fake.assertSentTo(jane, ServerDown), /Expected ServerDown/);
  });

  it('assertSentOnDemand tells on-demand sends from sends to users (route() here or in @org/notifications)', async () => {
    const fake = configuredFake();
    const manager = new MiniManager().extend('chat-alerts', fake);
    await fake.notify(new User('jane'), new ServerDown('db-1'));
    throwsAssertion(() => fake.assertSentOnDemand(ServerDown), /to be sent on demand, but it was not/);

    await manager.route('chat-alerts', '#ops').notify(new ServerDown('db-2'));
    await fake.route('chat-alerts', '#sre').notify(new ServerDown('db-3'));
    fake.assertSentOnDemand(ServerDown);
    fake.assertSentOnDemand(ServerDown, 2);
    fake.assertSentOnDemand(ServerDown, (n, sent) => n.host === 'db-2' && sent.target === '#ops');
    throwsAssertion(() => fake.assertSentOnDemand(ServerDown, (n) => n.host === 'db-1'), /matching the predicate/);
  });

  it('assertSentTimes, assertNotSentTo and assertNothingSent', async () => {
    const fake = configuredFake();
    fake.assertNothingSent();
    const jane = new User('jane');
    const joe = new User('joe');
    await fake.notify([jane, joe], new InvoicePaid(invoice));

    fake.assertSentTimes(InvoicePaid, 2);
    fake.assertSentTimes(ServerDown, 0);
    fake.assertNotSentTo(jane, ServerDown);
    fake.assertNotSentTo(jane, InvoicePaid, (n) => n.invoice.id === 'nope');
    throwsAssertion(() => fake.assertSentTimes(InvoicePaid, 1), /sent 1 time\(s\), but it was sent 2 time\(s\)/);
    throwsAssertion(() => fake.assertNotSentTo(joe, InvoicePaid), /not to be sent to the notifiable, but it was sent 1 time/);
    throwsAssertion(() => fake.assertNothingSent(), /Expected nothing to be sent, but 2 notification\(s\) were/);
    fake.reset();
    fake.assertNothingSent();
  });

  it('renders and validates like the real channel: null sends nothing, bad payloads and unknown instances throw', async () => {
    const fake = new ChatFake({ instances: { chat: { webhook } }, env: {} });
    const user = new User('x');
    await fake.send(user, { via: () => ['chat'], toChat: () => null } as ChatNotification, 'chat');
    fake.assertNothingSent();
    await expect(
      fake.send(user, { via: () => ['chat'], toChat: () => ({ text: 'x', attachments: [{ image_url: 'rel.png' }] }) } as ChatNotification, 'chat'),
    ).rejects.toThrowError(InvalidChatPayload);
    await expect(fake.send(user, new ServerDown('h'), 'chat-alerts')).rejects.toThrowError(UnknownChatInstance);
    fake.assertNothingSent();
  });
});
