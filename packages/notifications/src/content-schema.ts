import { z } from 'zod';
import { ACTION_TYPES, NOTIFICATION_ICONS } from './resource.js';
import type { NotificationAction, NotificationContent } from './resource.js';
import { NotificationsError } from './errors.js';

/** Limits on what one notification may carry; enforced before anything is stored or sent. */
export const CONTENT_LIMITS = {
  typeLength: 255,
  titleLength: 500,
  messageLength: 10_000,
  urlLength: 2_048,
  actions: 10,
  /** Serialised size of `data` in bytes. */
  dataBytes: 16_384,
} as const;

const url = z.string().max(CONTENT_LIMITS.urlLength);

const actionSchema = z.object({
  name: z.string().min(1).max(100),
  label: z.string().min(1).max(255),
  url: url.optional(),
  event: z.string().max(255).optional(),
  icon: z.string().max(255).optional(),
  type: z.enum(ACTION_TYPES).optional(),
  openInNewTab: z.boolean().optional(),
  shouldClose: z.boolean().optional(),
  isDisabled: z.boolean().optional(),
  data: z.record(z.string(), z.unknown()).optional(),
});

const contentSchema = z.object({
  type: z.string().min(1).max(CONTENT_LIMITS.typeLength).optional(),
  title: z.string().min(1).max(CONTENT_LIMITS.titleLength),
  message: z.string().max(CONTENT_LIMITS.messageLength).nullable().optional(),
  action_url: url.nullable().optional(),
  icon: z.enum(NOTIFICATION_ICONS).nullable().optional(),
  icon_class: z.string().max(255).nullable().optional(),
  actions: z.array(actionSchema).max(CONTENT_LIMITS.actions).optional(),
  data: z
    .record(z.string(), z.unknown())
    .refine((d) => Buffer.byteLength(JSON.stringify(d)) <= CONTENT_LIMITS.dataBytes, {
      message: `must serialise to at most ${CONTENT_LIMITS.dataBytes} bytes of JSON`,
    })
    .optional(),
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

/** Validates rendered content once, naming the offending key in the error. */
export function normalizeContent(input: unknown, fallbackType: string): NormalizedContent {
  const parsed = contentSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const key = issue?.path.length ? issue.path.join('.') : '(root)';
    throw new NotificationsError('INVALID_NOTIFICATION', `Invalid notification content at "${key}": ${issue?.message ?? 'invalid'}`);
  }
  const c = parsed.data;
  return {
    type: c.type ?? fallbackType,
    title: c.title,
    message: c.message ?? null,
    action_url: c.action_url ?? null,
    icon: c.icon ?? null,
    icon_class: c.icon_class ?? null,
    // zod's optional keys come back as `undefined`-able; strip them so the JSON stays clean.
    actions: (c.actions ?? []).map((a) => JSON.parse(JSON.stringify(a)) as NotificationAction),
    data: c.data ?? {},
  };
}
