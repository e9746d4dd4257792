import { ChatChannel, type ChatLogger, type ChatTransportFactory } from './chat-channel.js';
import { renderChatContent, resolveChatRoute } from './chat-notification.js';
import { assertInstanceName, INSTANCE_NAME, webhookEnvName, type ChatInstanceConfig } from './config.js';
import type { Notifiable, Notification, NotificationChannel } from './contracts.js';
import { UnknownChatInstance } from './errors.js';
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
  readonly #configs: Map<string, ChatInstanceConfig>;
  readonly #instances = new Map<string, ChatChannel>();
  readonly #options: ChatChannelRegistryOptions;

  constructor(options: ChatChannelRegistryOptions = {}) {
    this.#options = options;
    this.#configs = new Map();
    for (const [name, config] of Object.entries(options.instances ?? {})) {
      assertInstanceName(name);
      this.#configs.set(name, config);
    }
    // Validate every configured instance now, so a typo fails at startup, not at the first alert.
    for (const name of this.#configs.keys()) this.get(name);
  }

  /** True when `name` is configured or its webhook is in the environment. */
  has(name: string): boolean {
    return this.#configs.has(name) || (INSTANCE_NAME.test(name) && Boolean(this.#env()[webhookEnvName(name)]));
  }

  /** Configured instance names. */
  names(): string[] {
    return [...this.#configs.keys()];
  }

  /** The instance called `name`; UnknownChatInstance if it is neither configured nor in the environment. */
  get(name: string): ChatChannel {
    const existing = this.#instances.get(name);
    if (existing) return existing;
    if (!this.has(name)) {
      const known = this.names();
      throw new UnknownChatInstance(
        name,
        `Unknown chat instance "${name}". ${known.length ? `Configured: ${known.map((n) => `"${n}"`).join(', ')}.` : 'None are configured.'}` +
          (INSTANCE_NAME.test(name)
            ? ` Add it to the instances option or set ${webhookEnvName(name)}.`
            : ' Instance names are "chat" or "chat-<suffix>".'),
      );
    }
    const config = this.#configs.get(name);
    const channel = new ChatChannel(config, {
      name,
      env: this.#env(),
      ...(this.#options.logger ? { logger: this.#options.logger } : {}),
      ...(this.#options.transport ? { transport: this.#options.transport } : {}),
    });
    this.#instances.set(name, channel);
    return channel;
  }

  /** NotificationChannel: renders `toChat()`, resolves the route and posts through the instance named `channel`. */
  async send(notifiable: object, notification: Notification, channel = 'chat'): Promise<void> {
    const instance = this.get(channel);
    const recipient = notifiable as Notifiable; // any object; its routing methods are optional
    const content = await renderChatContent(recipient, notification, channel);
    if (content === null) return;
    await instance.send(resolveChatRoute(recipient, notification, channel), content);
  }

  /**
   * Standalone dispatch without a notification system: sends through every
   * `chat`/`chat-*` name the notification's via() returns and ignores the
   * rest. Failures of one instance do not stop the others; the first is rethrown.
   */
  async notify(notifiables: object | readonly object[], notification: Notification): Promise<void> {
    await dispatchToChat(this, notifiables, notification);
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

  #env(): Readonly<Record<string, string | undefined>> {
    return this.#options.env ?? process.env;
  }
}

/** Sends `notification` to each notifiable through the chat names in its via(). */
export async function dispatchToChat(
  channel: NotificationChannel,
  notifiables: object | readonly object[],
  notification: Notification,
): Promise<void> {
  // Any object can be notified; its routing methods are optional.
  const list = (Array.isArray(notifiables) ? notifiables : [notifiables]) as readonly Notifiable[];
  const sends: Promise<void>[] = [];
  for (const notifiable of list) {
    for (const name of notification.via(notifiable)) {
      if (INSTANCE_NAME.test(name)) sends.push(channel.send(notifiable, notification, name));
    }
  }
  const results = await Promise.allSettled(sends);
  const failure = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failure) throw failure.reason;
}
