import { describe, normalizeColor } from './colors.js';
import { InvalidChatPayload } from './errors.js';
import { ATTACHMENT_URL_KEYS, MESSAGE_URL_KEYS, type ChatAttachmentPayload, type ChatField, type ChatPayload } from './payload.js';
import { toIsoTimestamp } from './timestamp.js';
import { isAbsoluteHttpUrl } from './url.js';

/*
 * One rule per payload key, used both by the builders (when a value is set)
 * and by validateChatPayload (for plain payload objects, at send), so a value
 * is judged the same way wherever it enters. A rule checks the value, throws
 * InvalidChatPayload naming `field`, and returns what is posted (a named colour
 * as hex, a timestamp as ISO-8601, a field value as a string).
 */
type PayloadRule = (value: unknown, field: string) => unknown;

const EMOJI = /^:[^:\s]+:$/;

export function checkString(value: unknown, field: string): string {
  if (typeof value !== 'string') throw new InvalidChatPayload(field, `expected a string, got ${describe(value)}`);
  return value;
}

export function checkUrl(value: unknown, field: string): string {
  if (!isAbsoluteHttpUrl(value)) throw new InvalidChatPayload(field, `expected an absolute http(s) URL, got ${describe(value)}`);
  return value;
}

export function checkEmoji(value: unknown, field: string): string {
  if (typeof value !== 'string' || !EMOJI.test(value)) {
    throw new InvalidChatPayload(field, `expected an emoji shortcode like ":rocket:", got ${describe(value)}`);
  }
  return value;
}

export function checkBoolean(value: unknown, field: string): boolean {
  if (typeof value !== 'boolean') throw new InvalidChatPayload(field, `expected true or false, got ${describe(value)}`);
  return value;
}

/** A thread's message id (`tmid`): a blank one would post into no thread. */
export function checkMessageId(value: unknown, field: string): string {
  if (typeof value !== 'string' || value.trim() === '') throw new InvalidChatPayload(field, `expected a message id, got ${describe(value)}`);
  return value;
}

/** Rocket.Chat requires field titles to be truthy ("Invalid attachment field, title and value is required"). */
function checkFieldTitle(value: unknown, field: string): string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw new InvalidChatPayload(field, `must be a non-empty string, got ${describe(value)}`);
  }
  return value;
}

/**
 * A field value: a non-blank string, a finite number or a boolean, posted as a
 * string, because Rocket.Chat rejects the falsy values 0 and false.
 */
function fieldValueToString(value: unknown, field: string): string {
  if (typeof value === 'string' && value.trim() !== '') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'boolean') return String(value);
  throw new InvalidChatPayload(field, `must be a non-empty string, a finite number or a boolean, got ${describe(value)}`);
}

const FIELD_KEYS = new Set(['title', 'value', 'short']);

/** One `{ title, value, short? }` entry; other keys are refused (a typo such as `shrot` would be posted and ignored). */
export function normalizeField(entry: unknown, at: string): ChatField {
  if (!isObject(entry)) throw new InvalidChatPayload(at, `expected { title, value, short? }, got ${describe(entry)}`);
  for (const key of Object.keys(entry)) {
    if (!FIELD_KEYS.has(key)) throw new InvalidChatPayload(key === '' ? at : `${at}.${key}`, `${describe(key)} is not a field key (expected title, value and short)`);
  }
  const title = checkFieldTitle(entry.title, `${at}.title`);
  const value = fieldValueToString(entry.value, `${at}.value`);
  const short = entry.short === undefined ? false : checkBoolean(entry.short, `${at}.short`);
  return { short, title, value };
}

export function normalizeFields(value: unknown, field: string): ChatField[] {
  if (!Array.isArray(value)) throw new InvalidChatPayload(field, `expected an array of { title, value, short? }, got ${describe(value)}`);
  return value.map((entry: unknown, index) => normalizeField(entry, `${field}[${index}]`));
}

const passThrough: PayloadRule = (value) => value;

/** Every attachment key Rocket.Chat knows, with its rule. Keys without a setter of their own are passed through as given. */
const ATTACHMENT_RULES: Readonly<Record<string, PayloadRule>> = Object.freeze({
  title: checkString,
  text: checkString,
  pretext: checkString,
  author_name: checkString,
  color: normalizeColor,
  ts: toIsoTimestamp,
  fields: normalizeFields,
  collapsed: checkBoolean,
  title_link_download: checkBoolean,
  ...Object.fromEntries(ATTACHMENT_URL_KEYS.map((key) => [key, checkUrl])),
  ...Object.fromEntries(
    [
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
    ].map((key) => [key, passThrough]),
  ),
});

/** The message keys with a rule; `channel`/`roomId` are routes, and other keys pass through. */
const MESSAGE_RULES: Readonly<Record<string, PayloadRule>> = Object.freeze({
  text: checkString,
  alias: checkString,
  username: checkString,
  tmid: checkMessageId,
  emoji: checkEmoji,
  icon_emoji: checkEmoji,
  ...Object.fromEntries(MESSAGE_URL_KEYS.map((key) => [key, checkUrl])),
});

/**
 * An attachment object (Rocket.Chat's field names) checked key by key and
 * normalised; unknown keys are refused. `prefix` goes before each field name
 * in errors (`attachments[0].` for a plain payload, nothing for a builder).
 */
export function normalizeAttachment(data: unknown, prefix = '', at = 'attachment'): ChatAttachmentPayload {
  if (!isObject(data)) throw new InvalidChatPayload(at, `expected an object with Rocket.Chat attachment fields, got ${describe(data)}`);
  const out: ChatAttachmentPayload = {};
  for (const [key, value] of Object.entries(data)) {
    if (value === undefined) continue; // "not set"
    const rule = Object.hasOwn(ATTACHMENT_RULES, key) ? ATTACHMENT_RULES[key] : undefined;
    if (!rule) {
      throw new InvalidChatPayload(
        key === '' ? at : `${prefix}${key}`,
        `${describe(key)} is not a Rocket.Chat attachment field (see the ChatAttachmentPayload type for the known ones)`,
      );
    }
    out[key] = rule(value, `${prefix}${key}`);
  }
  return out;
}

/**
 * Checks a payload against the rules Rocket.Chat enforces (and the one it
 * silently ignores: an empty message), so mistakes fail here with the field
 * named instead of as a 400 from the server or a message that never appears.
 * Returns a normalised copy: what the builders would have produced for the same values.
 */
export function validateChatPayload(payload: unknown): ChatPayload {
  if (!isObject(payload)) throw new InvalidChatPayload('', `expected an object, got ${describe(payload)}`);
  const out: ChatPayload = { ...payload };
  for (const [key, rule] of Object.entries(MESSAGE_RULES)) {
    if (payload[key] !== undefined) out[key] = rule(payload[key], key);
  }
  for (const key of ['channel', 'roomId'] as const) destinations(payload[key], key);

  const attachments = payload.attachments;
  if (attachments !== undefined) {
    if (!Array.isArray(attachments)) {
      throw new InvalidChatPayload('attachments', `expected an array, got ${describe(attachments)}`);
    }
    out.attachments = attachments.map((attachment: unknown, index) => normalizeAttachment(attachment, `attachments[${index}].`, `attachments[${index}]`));
  }

  const hasText = typeof payload.text === 'string' && payload.text.trim() !== '';
  const hasAttachments = Array.isArray(attachments) && attachments.length > 0;
  if (!hasText && !hasAttachments) {
    // Rocket.Chat answers 200 to an empty message and posts nothing.
    throw new InvalidChatPayload('text', 'the message is empty: set text or add at least one attachment');
  }
  return out;
}

function destinations(value: unknown, key: string): void {
  if (value === undefined) return;
  const list = Array.isArray(value) ? value : [value];
  if (list.length === 0 || !list.every((v) => typeof v === 'string' && v.trim() !== '')) {
    throw new InvalidChatPayload(key, `expected "#room", "@user" or a room id (or a non-empty array of them), got ${describe(value)}`);
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
