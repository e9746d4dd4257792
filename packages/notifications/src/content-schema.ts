import { z } from 'zod';
import { ACTION_TYPES, NOTIFICATION_ICONS } from './resource.js';
import type { NotificationAction, NotificationContent } from './resource.js';
import { NotificationsError } from './errors.js';
import { SAFE_URL_RULE, isSafeUrl } from './contract.js';

/** Limits on what one notification may carry; enforced before anything is stored or sent. */
export const CONTENT_LIMITS = {
  typeLength: 255,
  titleLength: 500,
  messageLength: 10_000,
  urlLength: 2_048,
  actions: 10,
  /** Serialised size of `data` (and of each action's `data`) in bytes. */
  dataBytes: 16_384,
  /** Length of an action's `icon` (a built-in name or a CSS class list). */
  iconLength: 255,
} as const;

/** An action icon: a built-in name or CSS classes, e.g. `fa fa-check`; one space between tokens. */
export const ACTION_ICON_PATTERN = /^[A-Za-z0-9_-]+(?: [A-Za-z0-9_-]+)*$/;

// PostgreSQL text and jsonb cannot hold NUL, and jsonb refuses unpaired surrogates: refusing them
// here names the field instead of failing later with a database error.
// eslint-disable-next-line no-control-regex
const UNSTORABLE = /\u0000|\p{Cs}/u;
const UNSTORABLE_MESSAGE = 'must not contain NUL characters or unpaired UTF-16 surrogates';
const storable = (s: string): boolean => !UNSTORABLE.test(s);

const text = (max: number, min = 0) => z.string().min(min).max(max).refine(storable, UNSTORABLE_MESSAGE);

const url = z.string().max(CONTENT_LIMITS.urlLength).refine(isSafeUrl, SAFE_URL_RULE);

/**
 * A JSON object of at most `dataBytes` serialised, returned as a fresh copy parsed back from that
 * JSON: what is validated is exactly what gets stored (no getters, cycles, BigInt or prototype tricks).
 */
const jsonObject = z.unknown().transform((value, ctx): Record<string, unknown> => {
  const fail = (message: string) => {
    ctx.addIssue({ code: 'custom', message });
    return z.NEVER;
  };
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return fail('must be a JSON object');
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch {
    return fail('must be serialisable as JSON (no cycles, BigInt values or throwing toJSON)');
  }
  if (json === undefined || !json.startsWith('{')) return fail('must be a JSON object');
  if (Buffer.byteLength(json) > CONTENT_LIMITS.dataBytes) return fail(`must serialise to at most ${CONTENT_LIMITS.dataBytes} bytes of JSON`);
  let clean = true;
  const copy = JSON.parse(json, (key, v: unknown) => {
    if (!storable(key) || (typeof v === 'string' && !storable(v))) clean = false;
    return v;
  }) as Record<string, unknown>;
  return clean ? copy : fail(UNSTORABLE_MESSAGE);
});

const actionSchema = z.object({
  name: text(100, 1),
  label: text(255, 1),
  url: url.optional(),
  event: text(255).optional(),
  icon: z
    .string()
    .max(CONTENT_LIMITS.iconLength)
    .regex(ACTION_ICON_PATTERN, 'must be a built-in icon name or CSS class names ([A-Za-z0-9_-]+) separated by single spaces')
    .optional(),
  type: z.enum(ACTION_TYPES).optional(),
  color: z.enum(ACTION_TYPES).optional(),
  openInNewTab: z.boolean().optional(),
  shouldClose: z.boolean().optional(),
  isDisabled: z.boolean().optional(),
  data: jsonObject.optional(),
});

const contentSchema = z.object({
  type: text(CONTENT_LIMITS.typeLength, 1).optional(),
  title: text(CONTENT_LIMITS.titleLength, 1),
  message: text(CONTENT_LIMITS.messageLength).nullable().optional(),
  action_url: url.nullable().optional(),
  icon: z.enum(NOTIFICATION_ICONS).nullable().optional(),
  icon_class: text(255).nullable().optional(),
  actions: z.array(actionSchema).max(CONTENT_LIMITS.actions).optional(),
  data: jsonObject.optional(),
});

/** Content after validation: every field present, defaults applied. */
export interface NormalizedContent {
  type: string;
  title: string;
  message: string | null;
  action_url: string | null;
  icon: NotificationContent['icon'] & {} | null;
  icon_class: string | null;
  actions: NotificationAction[];
  data: Record<string, unknown>;
}

const invalid = (key: string, message: string): NotificationsError =>
  new NotificationsError('INVALID_NOTIFICATION', `Invalid notification content at "${key}": ${message}`);

/**
 * Validates rendered content once, naming the offending key in the error. Never throws anything
 * but an INVALID_NOTIFICATION NotificationsError, whatever `input` is.
 */
export function normalizeContent(input: unknown, fallbackType: string): NormalizedContent {
  let parsed: ReturnType<typeof contentSchema.safeParse>;
  try {
    parsed = contentSchema.safeParse(input);
  } catch {
    // A getter or proxy that throws while being read.
    throw invalid('(root)', 'could not be read');
  }
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw invalid(issue?.path.length ? issue.path.join('.') : '(root)', issue?.message ?? 'invalid');
  }
  const c = parsed.data;
  const type = c.type ?? fallbackType;
  if (typeof type !== 'string' || type.length === 0 || type.length > CONTENT_LIMITS.typeLength || !storable(type)) {
    throw invalid('type', `must be a string of 1 to ${CONTENT_LIMITS.typeLength} characters`);
  }
  return {
    type,
    title: c.title,
    message: c.message ?? null,
    action_url: c.action_url ?? null,
    icon: c.icon ?? null,
    icon_class: c.icon_class ?? null,
    // Optional keys come back as `undefined`-able; JSON drops them so the stored JSON stays clean.
    // Safe: every field was validated as a string, boolean or JSON object above.
    actions: (c.actions ?? []).map((a) => JSON.parse(JSON.stringify(a)) as NotificationAction),
    data: c.data ?? {},
  };
}
