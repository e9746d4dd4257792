import { AssertionError } from 'node:assert';
import type { ChatChannelRegistryOptions } from '../chat-channel-registry.js';
import type { ChatContent, ChatTarget } from '../chat-notification.js';
import { INSTANCE_NAME } from '../config.js';
import type { Notifiable, Notification, NotificationChannel } from '@org/notifications/contract';
import { notifyAll, sendAll, sendOne, type ChatDeliveryResult, type PostOutcome } from '../delivery.js';
import { ChatInstanceTable } from '../instance-table.js';
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

/**
 * The registry's own options (`instances`, `env`); `transport` and `logger`
 * are accepted and ignored, so the production options object can be passed as is.
 */
export type ChatFakeOptions = ChatChannelRegistryOptions;

type NotificationClass<N extends Notification> = abstract new (...args: never[]) => N;
type Predicate<N extends Notification> = (notification: N, sent: SentChatNotification<N>) => boolean;

/**
 * Stands in for ChatChannelRegistry in tests: validates its options and
 * instance names with the registry's own rule (a name or config production
 * would refuse is refused here, with the same error), then renders, routes and
 * validates exactly like the real channel, and records instead of posting.
 */
export class ChatFake implements NotificationChannel {
  readonly #sent: SentChatNotification[] = [];
  readonly #table: ChatInstanceTable;

  constructor(options: ChatFakeOptions = {}) {
    this.#table = new ChatInstanceTable(options.instances, options.env ?? process.env);
  }

  /** Like ChatChannelRegistry.send: one recipient through `channel`, or each of a list. */
  send(notifiables: readonly object[], notification: Notification, channel?: string): Promise<ChatDeliveryResult[]>;
  send(notifiable: object, notification: Notification, channel?: string): Promise<void>;
  async send(notifiables: object | readonly object[], notification: Notification, channel = 'chat'): Promise<ChatDeliveryResult[] | void> {
    if (Array.isArray(notifiables)) return sendAll(this.#post, notifiables, notification, channel);
    await sendOne(this.#post, notifiables, notification, channel);
  }

  readonly resolver = (name: string): NotificationChannel | undefined => (INSTANCE_NAME.test(name) ? this : undefined);

  /** Like ChatChannelRegistry.notify: every chat name in via(), one result per recipient and instance. */
  async notify(notifiables: object | readonly object[], notification: Notification): Promise<ChatDeliveryResult[]> {
    return notifyAll(this.#post, notifiables, notification);
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

  /** Nothing is sent: results have `status: undefined` and `attempts: 0`. */
  readonly #post = async (
    instance: string,
    target: ChatTarget | null,
    content: ChatContent,
    notifiable: object,
    notification: Notification,
  ): Promise<PostOutcome> => {
    const config = this.#table.config(instance);
    const { payload } = preparePayload(target, content, { ...config, instance });
    this.#sent.push({ instance, notifiable: notifiable as Notifiable, notification, target, payload, onDemand: isOnDemandNotifiable(notifiable) });
    return { ok: true, status: undefined, attempts: 0 };
  };

  #summary(): string {
    if (this.#sent.length === 0) return 'Nothing was sent.';
    return `Sent: ${this.#sent.map((s) => `${s.notification.constructor.name} via ${s.instance}${s.onDemand ? ' (on demand)' : ''}`).join(', ')}.`;
  }
}

function fail(message: string): never {
  throw new AssertionError({ message });
}
