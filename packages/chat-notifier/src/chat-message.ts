import { ChatAttachment, omitEmpty, type ChatAttachmentData } from './chat-attachment.js';
import { describe } from './colors.js';
import { InvalidChatPayload } from './errors.js';
import type { ChatAttachmentPayload, ChatPayload } from './payload.js';
import { checkEmoji, checkMessageId, checkString, checkUrl } from './validate-payload.js';

export type AttachmentInput = ChatAttachment | ChatAttachmentData | ((attachment: ChatAttachment) => unknown);

/**
 * Fluent builder for one webhook message. Every setter checks its value when
 * it is called (so the stack points at the bad call) and leaves the builder
 * unchanged when it throws InvalidChatPayload; errors name the payload key
 * (`alias` for username(), `tmid` for thread()). Only what needs the whole
 * message (an empty message, the size) is checked at send.
 */
export class ChatMessage {
  #text: string | undefined;
  #username: string | undefined;
  #avatar: string | undefined;
  #emoji: string | undefined;
  #thread: string | undefined;
  readonly #attachments: Array<{ toArray(): ChatAttachmentPayload }> = [];

  static create(text?: string): ChatMessage {
    return new ChatMessage(text);
  }

  constructor(text?: string) {
    if (text !== undefined) this.text(text);
  }

  text(text: string): this {
    this.#text = checkString(text, 'text');
    return this;
  }

  /** Display name shown instead of the integration's; sent as Rocket.Chat's `alias`. */
  username(name: string): this {
    this.#username = checkString(name, 'alias');
    return this;
  }

  /** Absolute http(s) URL of an avatar image. */
  avatar(url: string): this {
    this.#avatar = checkUrl(url, 'avatar');
    return this;
  }

  /** An emoji shortcode such as `:rocket:` (used only when no avatar is set). */
  emoji(emoji: string): this {
    this.#emoji = checkEmoji(emoji, 'emoji');
    return this;
  }

  /** Posts into the thread of this message id (`tmid`). */
  thread(messageId: string): this {
    this.#thread = checkMessageId(messageId, 'tmid');
    return this;
  }

  /**
   * Adds an attachment: a builder callback, a ChatAttachment (from any copy of
   * this package), or the object form (a plain object). Anything else, such as
   * an instance of some other class, is refused rather than silently posted empty.
   * May be called several times.
   */
  attachment(input: AttachmentInput): this {
    if (typeof input === 'function') {
      const attachment = new ChatAttachment();
      input(attachment);
      this.#attachments.push(attachment);
    } else if (ChatAttachment.isAttachment(input)) {
      this.#attachments.push(input);
    } else if (isPlainObject(input)) {
      this.#attachments.push(new ChatAttachment(input));
    } else {
      throw new InvalidChatPayload(
        `attachments[${this.#attachments.length}]`,
        `expected a callback, a ChatAttachment or a plain attachment object, got ${describe(input)}`,
      );
    }
    return this;
  }

  getText(): string | undefined {
    return this.#text;
  }

  getUsername(): string | undefined {
    return this.#username;
  }

  getAvatar(): string | undefined {
    return this.#avatar;
  }

  getEmoji(): string | undefined {
    return this.#emoji;
  }

  getAttachments(): ChatAttachmentPayload[] {
    return this.#attachments.map((a) => a.toArray());
  }

  /** The webhook payload in Rocket.Chat's field names; empty values omitted. */
  toArray(): ChatPayload {
    return omitEmpty({
      text: this.#text,
      alias: this.#username,
      avatar: this.#avatar,
      emoji: this.#emoji,
      tmid: this.#thread,
      attachments: this.getAttachments().filter((a) => Object.keys(a).length > 0),
    }) as ChatPayload;
  }

  toJSON(): ChatPayload {
    return this.toArray();
  }
}

function isPlainObject(value: unknown): value is ChatAttachmentData {
  if (typeof value !== 'object' || value === null) return false;
  // Object.prototype of any realm (its own prototype is null), or no prototype at all.
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === null || Object.getPrototypeOf(proto) === null;
}
