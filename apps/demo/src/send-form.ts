import { NOTIFICATION_ICONS } from '@org/notifications';
import type { NotificationContent } from '@org/notifications';
import { z } from 'zod';

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `must be at most ${max} characters`)
    .optional()
    .transform((value) => (value ? value : null));

/** A same-site path or an http(s) URL: never `javascript:` or other schemes. */
const link = z
  .string()
  .trim()
  .max(500, 'must be at most 500 characters')
  .refine((value) => value === '' || (value.startsWith('/') && !value.startsWith('//')) || /^https?:\/\//i.test(value), 'must be a path starting with / or an http(s) URL')
  .optional()
  .transform((value) => (value ? value : null));

const sendFormSchema = z.object({
  title: z.string().trim().min(1, 'is required').max(200, 'must be at most 200 characters'),
  message: optionalText(1000),
  icon: z.enum(NOTIFICATION_ICONS).optional().transform((value) => value ?? null),
  action_url: link,
});

/** Validates the send form (JSON or form fields); the message names the field. */
export function parseSendForm(input: unknown): { ok: true; content: NotificationContent } | { ok: false; error: string } {
  const parsed = sendFormSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, error: `"${issue?.path.join('.') || 'body'}" ${issue?.message ?? 'is invalid'}` };
  }
  return { ok: true, content: parsed.data };
}
