import { describe } from './colors.js';
import { InvalidChatPayload } from './errors.js';
import { ATTACHMENT_URL_KEYS, MESSAGE_URL_KEYS, type ChatPayload } from './payload.js';
import { isAbsoluteHttpUrl } from './url.js';

const EMOJI = /^:[^:\s]+:$/;

/**
 * Checks a payload against the rules Rocket.Chat enforces (and the one it
 * silently ignores: an empty message), so mistakes fail here with the field
 * named instead of as a 400 from the server or a message that never appears.
 */
export function validateChatPayload(payload: unknown): ChatPayload {
  if (!isObject(payload)) throw new InvalidChatPayload('', `expected an object, got ${describe(payload)}`);

  optionalString(payload, 'text', '');
  optionalString(payload, 'alias', '');
  optionalString(payload, 'username', '');
  optionalString(payload, 'tmid', '');
  for (const key of ['channel', 'roomId'] as const) destinations(payload[key], key);
  for (const key of MESSAGE_URL_KEYS) url(payload[key], key);
  for (const key of ['emoji', 'icon_emoji'] as const) if (payload[key] !== undefined) assertEmoji(payload[key], key);

  const attachments = payload.attachments;
  if (attachments !== undefined) {
    if (!Array.isArray(attachments)) {
      throw new InvalidChatPayload('attachments', `expected an array, got ${describe(attachments)}`);
    }
    attachments.forEach((attachment, index) => validateAttachment(attachment, `attachments[${index}]`));
  }

  const hasText = typeof payload.text === 'string' && payload.text.trim() !== '';
  const hasAttachments = Array.isArray(attachments) && attachments.length > 0;
  if (!hasText && !hasAttachments) {
    // Rocket.Chat answers 200 to an empty message and posts nothing.
    throw new InvalidChatPayload('text', 'the message is empty: set text or add at least one attachment');
  }
  return payload as ChatPayload;
}

function validateAttachment(attachment: unknown, path: string): void {
  if (!isObject(attachment)) throw new InvalidChatPayload(path, `expected an object, got ${describe(attachment)}`);
  for (const key of ['title', 'text', 'pretext', 'author_name', 'color'] as const) {
    optionalString(attachment, key, `${path}.`);
  }
  for (const key of ATTACHMENT_URL_KEYS) url(attachment[key], `${path}.${key}`);
  for (const key of ['collapsed', 'title_link_download'] as const) {
    if (attachment[key] !== undefined) assertBoolean(attachment[key], `${path}.${key}`);
  }
  const ts = attachment.ts;
  if (ts !== undefined && typeof ts !== 'string' && typeof ts !== 'number') {
    throw new InvalidChatPayload(`${path}.ts`, `expected an ISO-8601 string, got ${describe(ts)}`);
  }
  const fields = attachment.fields;
  if (fields === undefined) return;
  if (!Array.isArray(fields)) throw new InvalidChatPayload(`${path}.fields`, `expected an array, got ${describe(fields)}`);
  fields.forEach((field, index) => {
    const at = `${path}.fields[${index}]`;
    if (!isObject(field)) throw new InvalidChatPayload(at, `expected { title, value, short? }, got ${describe(field)}`);
    assertFieldTitle(field.title, `${at}.title`);
    const value = field.value;
    const okValue =
      (typeof value === 'string' && value.trim() !== '') ||
      (typeof value === 'number' && value !== 0 && Number.isFinite(value)) ||
      value === true;
    if (!okValue) {
      throw new InvalidChatPayload(
        `${at}.value`,
        `must be non-empty (Rocket.Chat rejects "", 0 and false; send "0" as a string), got ${describe(value)}`,
      );
    }
    if (field.short !== undefined) assertBoolean(field.short, `${at}.short`);
  });
}

/*
 * The per-field rules, shared by the builders (which apply them when a value
 * is set) and by validateChatPayload (which applies them to plain payload
 * objects at send time), so a value is judged the same way wherever it enters.
 */

/** Rocket.Chat requires field titles and values to be truthy ("Invalid attachment field, title and value is required"). */
export function assertFieldTitle(value: unknown, field: string): asserts value is string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw new InvalidChatPayload(field, `must be a non-empty string, got ${describe(value)}`);
  }
}

/** A builder field value: a non-blank string, a finite number or a boolean (sent as a string). */
export function fieldValueToString(value: unknown, field: string): string {
  if (typeof value === 'string' && value.trim() !== '') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'boolean') return String(value);
  throw new InvalidChatPayload(field, `must be a non-empty string, a finite number or a boolean, got ${describe(value)}`);
}

export function assertEmoji(value: unknown, field: string): asserts value is string {
  if (typeof value !== 'string' || !EMOJI.test(value)) {
    throw new InvalidChatPayload(field, `expected an emoji shortcode like ":rocket:", got ${describe(value)}`);
  }
}

export function assertBoolean(value: unknown, field: string): asserts value is boolean {
  if (typeof value !== 'boolean') throw new InvalidChatPayload(field, `expected true or false, got ${describe(value)}`);
}

export function assertUrl(value: unknown, field: string): asserts value is string {
  if (!isAbsoluteHttpUrl(value)) throw new InvalidChatPayload(field, `expected an absolute http(s) URL, got ${describe(value)}`);
}

export function assertString(value: unknown, field: string): asserts value is string {
  if (typeof value !== 'string') throw new InvalidChatPayload(field, `expected a string, got ${describe(value)}`);
}

function destinations(value: unknown, key: string): void {
  if (value === undefined) return;
  const list = Array.isArray(value) ? value : [value];
  if (list.length === 0 || !list.every((v) => typeof v === 'string' && v.trim() !== '')) {
    throw new InvalidChatPayload(key, `expected "#room", "@user" or a room id (or a non-empty array of them), got ${describe(value)}`);
  }
}

function url(value: unknown, path: string): void {
  if (value !== undefined) assertUrl(value, path);
}

function optionalString(object: Record<string, unknown>, key: string, prefix: string): void {
  if (object[key] !== undefined) assertString(object[key], `${prefix}${key}`);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
