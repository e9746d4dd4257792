import { normalizeColor } from './colors.js';
import { InvalidChatPayload } from './errors.js';
import type { ChatAttachmentPayload, ChatField } from './payload.js';
import { toIsoTimestamp } from './timestamp.js';

/**
 * The array form of an attachment: Rocket.Chat's field names, with two
 * conveniences: `color` may be good/warning/danger, and `ts` may be a Date
 * or Unix seconds.
 */
export type ChatAttachmentData = Omit<ChatAttachmentPayload, 'ts'> & { ts?: string | number | Date };

/** Fluent builder for one message attachment. */
export class ChatAttachment {
  readonly #data: ChatAttachmentPayload = {};

  static create(data?: ChatAttachmentData): ChatAttachment {
    return new ChatAttachment(data);
  }

  constructor(data?: ChatAttachmentData) {
    if (data !== undefined) this.merge(data);
  }

  /** Copies the array form onto this builder, normalising colour and timestamp. */
  merge(data: ChatAttachmentData): this {
    if (typeof data !== 'object' || data === null || Array.isArray(data)) {
      throw new InvalidChatPayload('attachment', 'expected an object with Rocket.Chat attachment fields');
    }
    for (const [key, value] of Object.entries(data)) {
      if (value === undefined) continue;
      if (key === 'color') this.color(value as string);
      else if (key === 'ts') this.timestamp(value as number | Date);
      else if (key === 'fields') this.fields(value as ChatField[]);
      else this.#data[key] = value;
    }
    return this;
  }

  title(text: string, link?: string): this {
    this.#data.title = text;
    if (link !== undefined) this.#data.title_link = link;
    return this;
  }

  text(text: string): this {
    this.#data.text = text;
    return this;
  }

  pretext(text: string): this {
    this.#data.pretext = text;
    return this;
  }

  /** `good`, `warning`, `danger` or a hex colour; anything else throws at once. */
  color(color: string): this {
    this.#data.color = normalizeColor(color);
    return this;
  }

  /**
   * Appends a field. Numbers and booleans are sent as strings, because
   * Rocket.Chat rejects falsy values such as 0 or false.
   */
  field(title: string, value: string | number | boolean, short = false): this {
    const fields = (this.#data.fields ??= []);
    fields.push({ short, title, value: typeof value === 'string' ? value : String(value) });
    return this;
  }

  /** Replaces all fields. */
  fields(fields: readonly ChatField[]): this {
    if (!Array.isArray(fields)) throw new InvalidChatPayload('fields', 'expected an array of { title, value, short? }');
    this.#data.fields = [];
    for (const f of fields) this.field(f.title, f.value, f.short ?? false);
    return this;
  }

  thumb(url: string): this {
    this.#data.thumb_url = url;
    return this;
  }

  image(url: string): this {
    this.#data.image_url = url;
    return this;
  }

  audio(url: string): this {
    this.#data.audio_url = url;
    return this;
  }

  video(url: string): this {
    this.#data.video_url = url;
    return this;
  }

  author(name: string, link?: string, icon?: string): this {
    this.#data.author_name = name;
    if (link !== undefined) this.#data.author_link = link;
    if (icon !== undefined) this.#data.author_icon = icon;
    return this;
  }

  /** Unix seconds or a Date; sent as ISO-8601. */
  timestamp(time: number | Date | string): this {
    this.#data.ts = toIsoTimestamp(time);
    return this;
  }

  /** Makes the timestamp a link (Rocket.Chat `message_link`). */
  link(url: string): this {
    this.#data.message_link = url;
    return this;
  }

  collapsed(collapsed = true): this {
    this.#data.collapsed = collapsed;
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
