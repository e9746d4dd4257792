import { normalizeColor } from './colors.js';
import type { ChatAttachmentPayload, ChatField } from './payload.js';
import { toIsoTimestamp } from './timestamp.js';
import { checkBoolean, checkString, checkUrl, normalizeAttachment, normalizeField, normalizeFields } from './validate-payload.js';

/** Global, so an attachment built by another copy of this package (the CJS build next to the ESM one) is recognised. */
const kChatAttachment = Symbol.for('@org/chat-notifier.attachment');

/**
 * The array form of an attachment: Rocket.Chat's field names, with two
 * conveniences: `color` may be good/warning/danger, and `ts` may be a Date
 * or Unix seconds.
 */
export type ChatAttachmentData = Omit<ChatAttachmentPayload, 'ts'> & { ts?: string | number | Date };

/**
 * Fluent builder for one message attachment. Every setter (and merge(), for
 * the object form) checks its value when called and leaves the builder
 * unchanged when it throws InvalidChatPayload naming the attachment key
 * (`image_url`, `fields[1].value`, `ts`, …).
 */
export class ChatAttachment {
  readonly #data: ChatAttachmentPayload = {};
  readonly [kChatAttachment] = true;

  static create(data?: ChatAttachmentData): ChatAttachment {
    return new ChatAttachment(data);
  }

  /** True for a ChatAttachment from any copy of this package (`instanceof` only knows its own copy). */
  static isAttachment(value: unknown): value is ChatAttachment {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[kChatAttachment] === true;
  }

  constructor(data?: ChatAttachmentData) {
    if (data !== undefined) this.merge(data);
  }

  /**
   * Copies the object form (Rocket.Chat's field names) onto this builder, each
   * key through the same rule its setter and the plain-payload check use.
   * Unknown keys are refused (a typo such as `image` for `image_url` would
   * otherwise be posted and ignored), in `fields` entries too. All or nothing.
   */
  merge(data: ChatAttachmentData): this {
    const checked = normalizeAttachment(data);
    for (const [key, value] of Object.entries(checked)) this.#data[key] = value;
    return this;
  }

  title(text: string, link?: string): this {
    checkString(text, 'title');
    if (link !== undefined) checkUrl(link, 'title_link');
    this.#data.title = text;
    if (link !== undefined) this.#data.title_link = link;
    return this;
  }

  text(text: string): this {
    this.#data.text = checkString(text, 'text');
    return this;
  }

  pretext(text: string): this {
    this.#data.pretext = checkString(text, 'pretext');
    return this;
  }

  /** `good`, `warning`, `danger` or a hex colour; anything else throws at once. */
  color(color: string): this {
    this.#data.color = normalizeColor(color);
    return this;
  }

  /**
   * Appends a field. Numbers and booleans are sent as strings, because
   * Rocket.Chat rejects falsy values such as 0 or false. A blank title or
   * value, or a non-finite number, throws at once.
   */
  field(title: string, value: string | number | boolean, short = false): this {
    const index = this.#data.fields?.length ?? 0;
    const entry = normalizeField({ title, value, short }, `fields[${index}]`);
    (this.#data.fields ??= []).push(entry);
    return this;
  }

  /** Replaces all fields (all checked first; nothing changes if one is refused). */
  fields(fields: readonly ChatField[]): this {
    this.#data.fields = normalizeFields(fields, 'fields');
    return this;
  }

  thumb(url: string): this {
    return this.#url('thumb_url', url);
  }

  image(url: string): this {
    return this.#url('image_url', url);
  }

  audio(url: string): this {
    return this.#url('audio_url', url);
  }

  video(url: string): this {
    return this.#url('video_url', url);
  }

  author(name: string, link?: string, icon?: string): this {
    checkString(name, 'author_name');
    if (link !== undefined) checkUrl(link, 'author_link');
    if (icon !== undefined) checkUrl(icon, 'author_icon');
    this.#data.author_name = name;
    if (link !== undefined) this.#data.author_link = link;
    if (icon !== undefined) this.#data.author_icon = icon;
    return this;
  }

  /** Unix seconds, a Date or an ISO-8601 string; sent as ISO-8601. */
  timestamp(time: number | Date | string): this {
    this.#data.ts = toIsoTimestamp(time);
    return this;
  }

  /** Makes the timestamp a link (Rocket.Chat `message_link`). */
  link(url: string): this {
    return this.#url('message_link', url);
  }

  collapsed(collapsed = true): this {
    this.#data.collapsed = checkBoolean(collapsed, 'collapsed');
    return this;
  }

  #url(key: 'thumb_url' | 'image_url' | 'audio_url' | 'video_url' | 'message_link', url: unknown): this {
    this.#data[key] = checkUrl(url, key);
    return this;
  }

  /** The attachment in Rocket.Chat's field names; empty values omitted. */
  toArray(): ChatAttachmentPayload {
    return omitEmpty(this.#data);
  }

  toJSON(): ChatAttachmentPayload {
    return this.toArray();
  }
}

/** Drops undefined, null, '' and [] (but keeps false and 0, which carry meaning). */
export function omitEmpty<T extends Record<string, unknown>>(data: T): T {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) {
    if (value === undefined || value === null || value === '') continue;
    if (Array.isArray(value)) {
      if (value.length === 0) continue;
      out[key] = value.map((item) => (isPlainObject(item) ? { ...item } : item));
      continue;
    }
    out[key] = value;
  }
  return out as T;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
