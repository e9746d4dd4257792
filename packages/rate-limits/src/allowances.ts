import { z } from 'zod';
import { parseOption } from './validate.js';
import { WindowCounters } from './window-counters.js';

/**
 * Points per one-second window, by kind (e.g. `{ read: 50, backend_events: 100 }`). The kinds of
 * `default` are the kinds there are; a key listed in `keys` has allowances of its own, a kind it
 * leaves out takes the default.
 */
export interface Allowances<K extends string> {
  readonly default: Readonly<Record<K, number>>;
  readonly keys?: Readonly<Record<string, Readonly<Partial<Record<K, number>>>>> | undefined;
}

const points = z
  .number({ error: 'must be a number of points per second' })
  .int({ error: 'must be a whole number of points per second' })
  .positive({ error: 'must be at least 1 point per second' })
  .max(Number.MAX_SAFE_INTEGER, { error: 'must be a safe integer' });

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

export const allowancesSchema = z
  .object(
    {
      default: z
        .record(z.string(), points, { error: 'must map each kind to its points per second, e.g. { read: 50 }' })
        .refine((kinds) => Object.keys(kinds).length > 0, { error: 'must name at least one kind, e.g. { read: 50 }' }),
      // Checked entry by entry below rather than by z.record, whose copy would drop a key named `__proto__` (any app id may be a key).
      keys: z.custom<Readonly<Record<string, Readonly<Record<string, number>>>>>(isObject, { error: 'must map each key to its own allowances' }).optional(),
    },
    { error: 'must be an object with default allowances, e.g. { default: { read: 50 } }' },
  )
  .superRefine((allowances, context) => {
    const kinds = Object.keys(allowances.default);
    for (const [key, own] of Object.entries(allowances.keys ?? {})) {
      if (!isObject(own)) {
        context.addIssue({ code: 'custom', path: ['keys', key], message: 'must map kinds to points per second' });
        continue;
      }
      for (const [kind, value] of Object.entries(own)) {
        const problem = kinds.includes(kind) ? points.safeParse(value).error?.issues[0]?.message : `is not a kind of allowances.default (${kinds.join(', ')})`;
        if (problem) context.addIssue({ code: 'custom', path: ['keys', key, kind], message: problem });
      }
    }
  });

/**
 * Where each key's counters live in the shared buffer: one slot per kind for each listed key, in the
 * order listed, then one set for every other key. Built from the same allowances, every thread agrees
 * on it, and its size is fixed by the allowances, never by traffic.
 */
export interface CounterLayout<K extends string> {
  readonly kinds: readonly K[];
  /** The listed keys with their resolved allowances (own, else default), in slot order. */
  readonly listed: ReadonlyMap<string, Readonly<Record<K, number>>>;
  readonly default: Readonly<Record<K, number>>;
  readonly slots: number;
}

/** The layout of already validated allowances; copies them, so later changes to the caller's object do not reach it. */
export function counterLayout<K extends string>(allowances: z.output<typeof allowancesSchema>): CounterLayout<K> {
  const kinds = Object.keys(allowances.default) as K[];
  const resolve = (own: Partial<Record<string, number>>) => Object.fromEntries(kinds.map((kind) => [kind, own[kind] ?? allowances.default[kind]])) as Record<K, number>;
  const listed = new Map(Object.entries(allowances.keys ?? {}).map(([key, own]) => [key, resolve(own)]));
  return { kinds, listed, default: resolve({}), slots: (listed.size + 1) * kinds.length };
}

/**
 * The memory the local limits of `allowances` count in, to hand to each worker thread (e.g. in
 * `workerData`): every thread that builds its limits from the same allowances and this buffer
 * counts in the same windows, so a limit holds for the whole process.
 */
export function rateLimitCounters<K extends string>(allowances: Allowances<K>): SharedArrayBuffer {
  const layout = counterLayout(parseOption(allowancesSchema, allowances, 'allowances'));
  return new SharedArrayBuffer(WindowCounters.bytesFor(layout.slots));
}
