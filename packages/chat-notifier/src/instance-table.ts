import { describe } from './colors.js';
import { assertInstanceName, INSTANCE_NAME, resolveChatConfig, webhookEnvName, type ChatInstanceConfig, type ResolvedChatConfig } from './config.js';
import { InvalidChatConfig, UnknownChatInstance } from './errors.js';

type Env = Readonly<Record<string, string | undefined>>;

/**
 * Which instance names exist and their validated configs: the one rule shared
 * by ChatChannelRegistry and ChatFake, so a name or config the real registry
 * refuses is refused by the fake too (same error, same message).
 */
export class ChatInstanceTable {
  readonly #configs = new Map<string, ChatInstanceConfig>();
  readonly #resolved = new Map<string, ResolvedChatConfig>();
  readonly #env: Env;

  constructor(instances: unknown, env: Env) {
    this.#env = env;
    if (instances !== undefined && (typeof instances !== 'object' || instances === null || Array.isArray(instances))) {
      throw new InvalidChatConfig(`instances: expected an object of instance name → config, got ${describe(instances)}`);
    }
    for (const [name, config] of Object.entries(instances ?? {})) {
      assertInstanceName(name);
      this.#configs.set(name, config as ChatInstanceConfig);
    }
    // Validate every configured instance now, so a typo fails at startup, not at the first alert.
    for (const name of this.#configs.keys()) this.config(name);
  }

  /** True when `name` is configured or its webhook is in the environment. */
  has(name: string): boolean {
    return this.#configs.has(name) || (typeof name === 'string' && INSTANCE_NAME.test(name) && Boolean(this.#env[webhookEnvName(name)]));
  }

  names(): string[] {
    return [...this.#configs.keys()];
  }

  /** The validated config of `name`; UnknownChatInstance if neither configured nor in the environment. */
  config(name: string): ResolvedChatConfig {
    const cached = this.#resolved.get(name);
    if (cached) return cached;
    if (!this.has(name)) {
      const known = this.names();
      const shown = typeof name === 'string' ? name : String(describe(name));
      throw new UnknownChatInstance(
        shown,
        `Unknown chat instance ${JSON.stringify(shown)}. ${known.length ? `Configured: ${known.map((n) => `"${n}"`).join(', ')}.` : 'None are configured.'}` +
          (typeof name === 'string' && INSTANCE_NAME.test(name)
            ? ` Add it to the instances option or set ${webhookEnvName(name)}.`
            : ' Instance names are "chat" or "chat-<suffix>".'),
      );
    }
    const resolved = resolveChatConfig(name, this.#configs.get(name), this.#env);
    this.#resolved.set(name, resolved);
    return resolved;
  }
}
