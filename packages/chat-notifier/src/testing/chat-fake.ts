import { AssertionError } from 'node:assert';
import { dispatchToChat } from '../chat-channel-registry.js';
import { renderChatContent, resolveChatRoute, type ChatTarget } from '../chat-notification.js';
import { assertInstanceName, INSTANCE_NAME, type ChatInstanceConfig } from '../config.js';
import type { Notifiable, Notification, NotificationChannel } from '../contracts.js';
import { UnknownChatInstance } from '../errors.js';
import { isOnDemandNotifiable, OnDemandNotifiable } from '../on-demand.js';
import type { ChatPayload } from '../payload.js';
import { preparePayload } from '../prepare-payload.js';

/** One notification the fake accepted instead of sending. */
export interface SentChatNotification<N extends Notification = Notification> {
  /** Instance name via() used: `chat`, `chat-alerts`, … */
  readonly instance: string;
  readonly notifiable: Notifiable;
  readonly notification: N;
  /** The resolved route, null for the webhook's default. */
  readonly target: ChatTarget | null;
  /** Exactly what would have been posted. */
  readonly payload: ChatPayload;
  readonly onDemand: boolean;
}

/** Options the fake honours; the same shape as the real config, webhook not needed. */
export type FakeInstanceConfig = Partial<Pick<ChatInstanceConfig, 'channel' | 'override_channel' | 'max_payload_bytes'>>;

export interface ChatFakeOptions {
  /** When given, only these instance names are accepted (like the real registry). */
  readonly instances?: Readonly<Record<string, FakeInstanceConfig>>;
}

type NotificationClass<N extends Notification> = abstract new (...args: never[]) => N;
type Predicate<N extends Notification> = (notification: N, sent: SentChatNotification<N>) => boolean;

/**
 * Stands in for ChatChannelRegistry in tests: renders, routes and validates
 * exactly like the real channel, then records instead of posting.
 */
export class ChatFake implements NotificationChannel {
  readonly #sent: SentChatNotification[] = [];
  readonly #instances: ReadonlyMap<string, FakeInstanceConfig> | undefined;

  constructor(options: ChatFakeOptions = {}) {
    if (options.instances) {
      for (const name of Object.keys(options.instances)) assertInstanceName(name);
      this.#instances = new Map(Object.entries(options.instances));
    }
  }

  async send(notifiable: object, notification: Notification, channel = 'chat'): Promise<void> {
    const config = this.#config(channel);
    const recipient = notifiable as Notifiable; // any object; its routing methods are optional
    const content = await renderChatContent(recipient, notification, channel);
    if (content === null) return;
    const target = resolveChatRoute(recipient, notification, channel);
    const { payload } = preparePayload(target, content, {
      channel: config.channel,
      override_channel: config.override_channel ?? true,
      max_payload_bytes: config.max_payload_bytes ?? 1024 * 1024,
      instance: channel,
    });
    this.#sent.push({ instance: channel, notifiable: recipient, notification, target, payload, onDemand: isOnDemandNotifiable(notifiable) });
  }

  readonly resolver = (name: string): NotificationChannel | undefined => (INSTANCE_NAME.test(name) ? this : undefined);

  /** Sends through every chat name in the notification's via(), like ChatChannelRegistry.notify. */
  async notify(notifiables: object | readonly object[], notification: Notification): Promise<void> {
    await dispatchToChat(this, notifiables, notification);
  }

  route(channel: string, target: unknown): OnDemandNotifiable {
    return new OnDemandNotifiable((notifiable, notification) => this.notify(notifiable, notification)).route(channel, target);
  }

  /** Everything recorded, optionally for one instance only. */
  sent(instance?: string): SentChatNotification[] {
    return this.#sent.filter((s) => instance === undefined || s.instance === instance);
  }

  /** The rendered payloads for one instance, in send order. */
  payloads(instance = 'chat'): ChatPayload[] {
    return this.sent(instance).map((s) => s.payload);
  }

  /** Recorded sends of `type` (and to `notifiable`, when given) that match `predicate`. */
  sentOf<N extends Notification>(type: NotificationClass<N>, notifiable?: object, predicate?: Predicate<N>): SentChatNotification<N>[] {
    return this.#sent.filter(
      (s): s is SentChatNotification<N> =>
        s.notification instanceof type &&
        (notifiable === undefined || s.notifiable === notifiable) &&
        (predicate === undefined || predicate(s.notification as N, s as SentChatNotification<N>)),
    );
  }

  /** Passes if each notifiable got `type`; a number checks the exact count instead of "at least one". */
  assertSentTo<N extends Notification>(
    notifiables: object | readonly object[],
    type: NotificationClass<N>,
    predicateOrTimes?: Predicate<N> | number,
  ): void {
    const list: readonly object[] = Array.isArray(notifiables) ? notifiables : [notifiables];
    for (const notifiable of list) {
      const predicate = typeof predicateOrTimes === 'function' ? predicateOrTimes : undefined;
      const count = this.sentOf(type, notifiable, predicate).length;
      if (typeof predicateOrTimes === 'number') {
        if (count !== predicateOrTimes) fail(`Expected ${type.name} to be sent to the notifiable ${predicateOrTimes} time(s), but it was sent ${count} time(s). ${this.#summary()}`);
      } else if (count === 0) {
        fail(`Expected ${type.name} to be sent to the notifiable${predicate ? ' matching the predicate' : ''}, but it was not. ${this.#summary()}`);
      }
    }
  }

  /** Passes if `type` was sent on demand (route(...).notify), optionally matching or an exact number of times. */
  assertSentOnDemand<N extends Notification>(type: NotificationClass<N>, predicateOrTimes?: Predicate<N> | number): void {
    const predicate = typeof predicateOrTimes === 'function' ? predicateOrTimes : undefined;
    const count = this.sentOf(type, undefined, predicate).filter((s) => s.onDemand).length;
    if (typeof predicateOrTimes === 'number') {
      if (count !== predicateOrTimes) fail(`Expected ${type.name} to be sent on demand ${predicateOrTimes} time(s), but it was sent ${count} time(s). ${this.#summary()}`);
    } else if (count === 0) {
      fail(`Expected ${type.name} to be sent on demand${predicate ? ' matching the predicate' : ''}, but it was not. ${this.#summary()}`);
    }
  }

  /** Passes if `type` was sent exactly `times` times in total (every instance, every notifiable). */
  assertSentTimes<N extends Notification>(type: NotificationClass<N>, times: number): void {
    const count = this.sentOf(type).length;
    if (count !== times) fail(`Expected ${type.name} to be sent ${times} time(s), but it was sent ${count} time(s). ${this.#summary()}`);
  }

  assertNotSentTo<N extends Notification>(notifiable: object, type: NotificationClass<N>, predicate?: Predicate<N>): void {
    const count = this.sentOf(type, notifiable, predicate).length;
    if (count > 0) fail(`Expected ${type.name} not to be sent to the notifiable${predicate ? ' matching the predicate' : ''}, but it was sent ${count} time(s).`);
  }

  assertNothingSent(): void {
    if (this.#sent.length > 0) fail(`Expected nothing to be sent, but ${this.#sent.length} notification(s) were. ${this.#summary()}`);
  }

  /** Forgets everything recorded. */
  reset(): void {
    this.#sent.length = 0;
  }

  #config(instance: string): FakeInstanceConfig {
    assertInstanceName(instance);
    if (!this.#instances) return {};
    const config = this.#instances.get(instance);
    if (!config) {
      throw new UnknownChatInstance(instance, `Unknown chat instance "${instance}". Configured in the fake: ${[...this.#instances.keys()].map((n) => `"${n}"`).join(', ')}.`);
    }
    return config;
  }

  #summary(): string {
    if (this.#sent.length === 0) return 'Nothing was sent.';
    return `Sent: ${this.#sent.map((s) => `${s.notification.constructor.name} via ${s.instance}${s.onDemand ? ' (on demand)' : ''}`).join(', ')}.`;
  }
}

function fail(message: string): never {
  throw new AssertionError({ message });
}
