import { ChatMessage } from '../../src/chat-message.js';
import type { ChatNotifiable, ChatNotification } from '../../src/chat-notification.js';
import { AnonymousNotifiable } from '@org/notifications';
import type { Notifiable, Notification, NotificationChannel } from '@org/notifications/contract';

/**
 * A tiny stand-in for @org/notifications' manager with the same contract:
 * exact channel names first, then resolvers; each recipient gets its own
 * Object.create() view of the notification.
 */
export class MiniManager {
  readonly #channels = new Map<string, NotificationChannel>();
  readonly #resolvers: Array<(name: string) => NotificationChannel | undefined> = [];
  readonly skipped: string[] = [];

  extend(name: string, channel: NotificationChannel): this {
    this.#channels.set(name, channel);
    return this;
  }

  resolveChannel(resolver: (name: string) => NotificationChannel | undefined): this {
    this.#resolvers.push(resolver);
    return this;
  }

  async send(notifiables: object | readonly object[], notification: Notification): Promise<void> {
    const list = (Array.isArray(notifiables) ? notifiables : [notifiables]) as readonly Notifiable[];
    for (const notifiable of list) {
      const view = Object.create(notification, { id: { value: 'n-1', enumerable: true } }) as Notification;
      for (const name of view.via(notifiable)) {
        const channel = this.#channels.get(name) ?? this.#resolvers.map((r) => r(name)).find(Boolean);
        if (channel) await channel.send(notifiable, view, name);
        else this.skipped.push(name);
      }
    }
  }

  /** An on-demand recipient made by @org/notifications itself, as its manager's route() makes it. */
  route(channel: string, target: unknown): AnonymousNotifiable {
    return new AnonymousNotifiable(this).route(channel, target);
  }
}

export class User implements ChatNotifiable {
  constructor(
    readonly name: string,
    readonly chatRoute: unknown = `@${name}`,
  ) {}
  routeNotificationForChat(): unknown {
    return this.chatRoute;
  }
}

/** The README's example notification. */
export class InvoicePaid implements ChatNotification {
  constructor(
    readonly invoice: { id: string; amount: string; url: string },
    readonly channels: readonly string[] = ['database', 'broadcast', 'chat'],
  ) {}
  via(): readonly string[] {
    return this.channels;
  }
  toChat(notifiable: Notifiable): ChatMessage {
    return ChatMessage.create(`Invoice ${this.invoice.id} was paid`)
      .username('Billing')
      .emoji(':moneybag:')
      .attachment((a) =>
        a
          .title(`Invoice ${this.invoice.id}`, this.invoice.url)
          .color('good')
          .field('Amount', this.invoice.amount, true)
          .field('Customer', (notifiable as User).name ?? 'someone', true),
      );
  }
}
