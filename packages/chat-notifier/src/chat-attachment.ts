import { describe, normalizeColor } from './colors.js';
import { InvalidChatPayload } from './errors.js';
import type { ChatAttachmentPayload, ChatField } from './payload.js';
import { toIsoTimestamp } from './timestamp.js';
import { assertBoolean, assertFieldTitle, assertString, assertUrl, fieldValueToString } from './validate-payload.js';

/** Attachment keys Rocket.Chat knows that have no setter of their own; merge() copies them as given. */
const PASS_THROUGH_KEYS = new Set([
  'image_dimensions',
  'image_preview',
  'image_type',
  'image_size',
  'audio_type',
  'audio_size',
  'video_type',
  'video_size',
  'actions',
  'button_alignment',
  'mrkdwn_in',
  'footer',
  'description',
]);

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

  static create(data?: ChatAttachmentData): ChatAttachment {
    return new ChatAttachment(data);
  }

  constructor(data?: ChatAttachmentData) {
    if (data !== undefined) this.merge(data);
  }

  /**
   * Copies the object form (Rocket.Chat's field names) onto this builder, each
   * key through its setter's check. Unknown keys are refused (a typo such as
   * `image` for `image_url` would otherwise be posted and ignored). All or nothing.
   */
  merge(data: ChatAttachmentData): this {
    if (typeof data !== 'object' || data === null || Array.isArray(data)) {
      throw new InvalidChatPayload('attachment', 'expected an object with Rocket.Chat attachment fields');
    }
    const staged = new ChatAttachment();
    for (const [key, value] of Object.entries(data)) {
      if (value === undefined) continue;
      staged.#set(key, value);
    }
    for (const [key, value] of Object.entries(staged.#data)) if (value !== undefined) this.#data[key] = value;
    return this;
  }

  #set(key: string, value: unknown): void {
    switch (key) {
      case 'title':
      case 'text':
      case 'pretext':
      case 'author_name':
        assertString(value, key);
        this.#data[key] = value;
        return;
      case 'color':
        this.color(value as string);
        return;
      case 'ts':
        this.timestamp(value as number | Date | string);
        return;
      case 'fields':
        this.fields(value as ChatField[]);
        return;
      case 'collapsed':
      case 'title_link_download':
        assertBoolean(value, key);
        this.#data[key] = value;
        return;
      case 'title_link':
      case 'thumb_url':
      case 'image_url':
      case 'audio_url':
      case 'video_url':
      case 'author_link':
      case 'author_icon':
      case 'message_link':
        assertUrl(value, key);
        this.#data[key] = value;
        return;
      default:
        if (!PASS_THROUGH_KEYS.has(key)) {
          throw new InvalidChatPayload(
            key === '' ? 'attachment' : key,
            `${describe(key)} is not a Rocket.Chat attachment field (see the ChatAttachmentPayload type for the known ones)`,
          );
        }
        this.#data[key] = value;
    }
  }

  title(text: string, link?: string): this {
    assertString(text, 'title');
    if (link !== undefined) assertUrl(link, 'title_link');
    this.#data.title = text;
    if (link !== undefined) this.#data.title_link = link;
    return this;
  }

  text(text: string): this {
    assertString(text, 'text');
    this.#data.text = text;
    return this;
  }

  pretext(text: string): this {
    assertString(text, 'pretext');
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
   * Rocket.Chat rejects falsy values such as 0 or false. A blank title or
   * value, or a non-finite number, throws at once.
   */
  field(title: string, value: string | number | boolean, short = false): this {
    const index = this.#data.fields?.length ?? 0;
    const entry = checkField({ title, value, short }, index);
    (this.#data.fields ??= []).push(entry);
    return this;
  }

  /** Replaces all fields (all checked first; nothing changes if one is refused). */
  fields(fields: readonly ChatField[]): this {
    if (!Array.isArray(fields)) throw new InvalidChatPayload('fields', `expected an array of { title, value, short? }, got ${describe(fields)}`);
    const checked = fields.map((f: unknown, index) => {
      if (typeof f !== 'object' || f === null || Array.isArray(f)) {
        throw new InvalidChatPayload(`fields[${index}]`, `expected { title, value, short? }, got ${describe(f)}`);
      }
      const { title, value, short } = f as Partial<ChatField>;
      return checkField({ title, value, short: short ?? false }, index);
    });
    this.#data.fields = checked;
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
    assertString(name, 'author_name');
    if (link !== undefined) assertUrl(link, 'author_link');
    if (icon !== undefined) assertUrl(icon, 'author_icon');
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
    assertBoolean(collapsed, 'collapsed');
    this.#data.collapsed = collapsed;
    return this;
  }

  #url(key: 'thumb_url' | 'image_url' | 'audio_url' | 'video_url' | 'message_link', url: unknown): this {
    assertUrl(url, key);
    this.#data[key] = url;
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

function checkField(field: { title: unknown; value: unknown; short: unknown }, index: number): ChatField {
  assertFieldTitle(field.title, `fields[${index}].title`);
  const value = fieldValueToString(field.value, `fields[${index}].value`);
  assertBoolean(field.short, `fields[${index}].short`);
  return { short: field.short, title: field.title, value };
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
