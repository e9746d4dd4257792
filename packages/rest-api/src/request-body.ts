import { z } from 'zod';
import { nestsDeeperThan } from '@org/protocol';
import { PusherApiError } from './errors.js';

/** "is required" when absent, else what was expected. */
const expected = (what: string) => ({
  error: (issue: { input?: unknown }) => (issue.input === undefined ? 'is required' : `must be ${what}`),
});

/** Fields both endpoints share; `data` must be a string, as Pusher requires. */
const eventFields = {
  name: z.string(expected('a string')).min(1, { error: 'must not be empty' }),
  data: z.string(expected('a string (JSON-encode objects first, as the Pusher SDKs do)')),
  socket_id: z.string({ error: 'must be a string like "1234.5678"' }).optional(),
  info: z.string({ error: 'must be a comma-separated string' }).optional(),
};

export const eventBodySchema = z
  .object({
    ...eventFields,
    channel: z.string({ error: 'must be a string' }).optional(),
    channels: z.array(z.string({ error: 'must be a string' }), { error: 'must be an array of strings' }).optional(),
  })
  .superRefine((body, context) => {
    if (body.channel === undefined && body.channels === undefined) {
      context.addIssue({ code: 'custom', path: ['channels'], message: 'is required (or give "channel")' });
    } else if (body.channel !== undefined && body.channels !== undefined) {
      context.addIssue({ code: 'custom', path: ['channel'], message: 'give either "channel" or "channels", not both' });
    }
  });

const batchItemSchema = z.object({ ...eventFields, channel: z.string(expected('a string')) });

export const batchBodySchema = z.object({
  batch: z.array(batchItemSchema, expected('an array of events')),
});

export type EventBody = z.infer<typeof eventBodySchema>;
export type BatchBody = z.infer<typeof batchBodySchema>;
type BatchItem = z.infer<typeof batchItemSchema>;

const isString = (value: unknown): value is string => typeof value === 'string';
const isOptionalString = (value: unknown): value is string | undefined => value === undefined || typeof value === 'string';

/**
 * `eventBodySchema`'s accepting side by hand, for the hot path: the body when
 * the schema would accept it as is, else undefined (the schema then names what
 * is wrong). It accepts nothing the schema refuses.
 */
function acceptEvent(json: Record<string, unknown>): EventBody | undefined {
  const { name, data, socket_id, info, channel, channels } = json;
  if (!isString(name) || name.length === 0 || !isString(data) || !isOptionalString(socket_id) || !isOptionalString(info)) return undefined;
  if (channels === undefined) return isString(channel) ? { name, data, socket_id, info, channel } : undefined;
  if (channel !== undefined || !Array.isArray(channels) || !channels.every(isString)) return undefined;
  return { name, data, socket_id, info, channels };
}

/** `batchBodySchema`'s accepting side by hand; see `acceptEvent`. */
function acceptBatch(json: Record<string, unknown>): BatchBody | undefined {
  const { batch } = json;
  if (!Array.isArray(batch)) return undefined;
  const items: BatchItem[] = [];
  for (const item of batch as unknown[]) {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) return undefined;
    const { name, data, socket_id, info, channel } = item as Record<string, unknown>;
    if (!isString(name) || name.length === 0 || !isString(data) || !isString(channel) || !isOptionalString(socket_id) || !isOptionalString(info)) return undefined;
    items.push({ name, data, socket_id, info, channel });
  }
  return { batch: items };
}

/** The body of `POST /events`: 400 naming the field for anything `eventBodySchema` refuses. */
export function parseEventBody(text: string, maxDepth: number): EventBody {
  return parseJsonBody(text, eventBodySchema, maxDepth, acceptEvent);
}

/** The body of `POST /batch_events`: 400 naming the field for anything `batchBodySchema` refuses. */
export function parseBatchBody(text: string, maxDepth: number): BatchBody {
  return parseJsonBody(text, batchBodySchema, maxDepth, acceptBatch);
}

/**
 * Parses a JSON body with a schema; every failure is a 400 naming the field.
 * Nesting deeper than `maxDepth` is refused before parsing (see `maxJsonDepth`).
 * `accept`, when given, is tried first: a hand-written check that returns the
 * value for bodies the schema accepts as they are, so valid requests skip it.
 */
export function parseJsonBody<T>(text: string, schema: z.ZodType<T>, maxDepth: number, accept?: (json: Record<string, unknown>) => T | undefined): T {
  if (nestsDeeperThan(text, maxDepth)) {
    throw new PusherApiError('MALFORMED_REQUEST', `the request body nests JSON deeper than ${maxDepth} levels (maxJsonDepth)`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new PusherApiError('MALFORMED_REQUEST', 'the request body is not valid JSON');
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new PusherApiError('MALFORMED_REQUEST', 'the request body must be a JSON object');
  }
  const accepted = accept?.(json as Record<string, unknown>);
  if (accepted !== undefined) return accepted;
  const parsed = schema.safeParse(json);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = issue ? fieldName(issue.path) : 'body';
  throw new PusherApiError('INVALID_FIELD', `"${field}" ${issue?.message ?? 'is invalid'}`);
}

/** `["batch", 2, "channel"]` -> `batch[2].channel`. */
function fieldName(path: readonly PropertyKey[]): string {
  let name = '';
  for (const part of path) {
    if (typeof part === 'number') name += `[${part}]`;
    else name += name === '' ? String(part) : `.${String(part)}`;
  }
  return name || 'body';
}

/** `info=subscription_count,user_count` -> the attribute names. */
export function parseInfo(info: string | undefined): string[] {
  if (info === undefined) return [];
  return info
    .split(',')
    .map((attribute) => attribute.trim())
    .filter((attribute) => attribute !== '');
}
