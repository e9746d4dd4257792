import { ChatChannel, type ChatLogger, type ChatTransportFactory } from './chat-channel.js';
import type { ChatContent, ChatTarget } from './chat-notification.js';
import { INSTANCE_NAME, type ChatInstanceConfig } from './config.js';
import type { Notification, NotificationChannel } from '@org/notifications/contract';
import { notifyAll, sendAll, sendOne, type ChatDeliveryResult, type PostOutcome } from './delivery.js';
import { ChatInstanceTable } from './instance-table.js';
import { OnDemandNotifiable } from './on-demand.js';

export interface ChatChannelRegistryOptions {
  /** Instances by name: `chat`, `chat-alerts`, any `chat-<suffix>`. */
  readonly instances?: Readonly<Record<string, ChatInstanceConfig>>;
  /**
   * Where webhooks are read from when the config has none, and where
   * unconfigured `chat-<suffix>` instances are discovered
   * (`CHAT_OPS_WEBHOOK` → `chat-ops`). Default `process.env`.
   */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Builds each instance's transport; default: an UndiciTransport from its config. */
  readonly transport?: ChatTransportFactory;
  readonly logger?: ChatLogger;
}

/**
 * Named chat instances, each with its own webhook and options. Also a
 * NotificationChannel: register it for `chat` and use `resolver` for `chat-*`
 * names in @org/notifications.
 */
export class ChatChannelRegistry implements NotificationChannel {
  readonly #table: ChatInstanceTable;
  readonly #instances = new Map<string, ChatChannel>();
  readonly #options: ChatChannelRegistryOptions;

  constructor(options: ChatChannelRegistryOptions = {}) {
    this.#options = options;
    this.#table = new ChatInstanceTable(options.instances, options.env ?? process.env);
    // Builds each configured instance now (its transport too: a CA bundle is read here).
    for (const name of this.#table.names()) this.get(name);
  }

  /** True when `name` is configured or its webhook is in the environment. */
  has(name: string): boolean {
    return this.#table.has(name);
  }

  /** Configured instance names. */
  names(): string[] {
    return this.#table.names();
  }

  /** The instance called `name`; UnknownChatInstance if it is neither configured nor in the environment. */
  get(name: string): ChatChannel {
    const existing = this.#instances.get(name);
    if (existing) return existing;
    const config = this.#table.config(name);
    const channel = new ChatChannel(config, {
      name,
      ...(this.#options.logger ? { logger: this.#options.logger } : {}),
      ...(this.#options.transport ? { transport: this.#options.transport } : {}),
    });
    this.#instances.set(name, channel);
    return channel;
  }

  /**
   * The NotificationChannel contract: renders `toChat()`, resolves the route and
   * posts through the instance named `channel` (default `chat`); throws what the
   * send threw. Given a list, does exactly that for each recipient, each routed
   * on its own, and returns one result per recipient (ChatDeliveryFailed after
   * all were attempted, if any failed).
   */
  send(notifiables: readonly object[], notification: Notification, channel?: string): Promise<ChatDeliveryResult[]>;
  send(notifiable: object, notification: Notification, channel?: string): Promise<void>;
  async send(notifiables: object | readonly object[], notification: Notification, channel = 'chat'): Promise<ChatDeliveryResult[] | void> {
    if (Array.isArray(notifiables)) return sendAll(this.#post, notifiables, notification, channel);
    await sendOne(this.#post, notifiables, notification, channel);
  }

  /**
   * Standalone dispatch without a notification system: each recipient, through
   * every `chat`/`chat-*` name the notification's via() returns (other names are
   * ignored). All are attempted; one result per recipient and instance. Throws
   * ChatDeliveryFailed (carrying every result) if any failed in a way a single
   * send would have thrown.
   */
  async notify(notifiables: object | readonly object[], notification: Notification): Promise<ChatDeliveryResult[]> {
    return notifyAll(this.#post, notifiables, notification);
  }

  /** An on-demand notifiable: `registry.route('chat', '#alerts').notify(notification)`. */
  route(channel: string, target: unknown): OnDemandNotifiable {
    return new OnDemandNotifiable((notifiable, notification) => this.notify(notifiable, notification)).route(channel, target);
  }

  /** For a notification system's resolver hook: this registry for `chat`/`chat-*` names, else undefined. */
  readonly resolver = (name: string): NotificationChannel | undefined => (INSTANCE_NAME.test(name) ? this : undefined);

  async close(): Promise<void> {
    const instances = [...this.#instances.values()];
    this.#instances.clear();
    await Promise.all(instances.map((instance) => instance.close()));
  }

  /** Instance names and masked webhooks only. */
  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `ChatChannelRegistry { instances: [${[...this.#instances.values()].map((c) => `'${c.name}' → '${c.redactedWebhook}'`).join(', ')}] }`;
  }

  toJSON(): { instances: Array<{ name: string; webhook: string }> } {
    return { instances: [...this.#instances.values()].map((c) => c.toJSON()) };
  }

  readonly #post = async (instance: string, target: ChatTarget | null, content: ChatContent): Promise<PostOutcome> =>
    this.get(instance).send(target, content);
}
