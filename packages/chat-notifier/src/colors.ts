import { InvalidChatPayload } from './errors.js';

/** The legacy Rocket.Chat client's named colours; the current client needs real CSS colours. */
export const NAMED_COLORS = {
  good: '#35AC19',
  warning: '#FCB316',
  danger: '#D30230',
} as const;

export type NamedColor = keyof typeof NAMED_COLORS;

const HEX = /^#(?:[0-9a-f]{3}|[0-9a-f]{4}|[0-9a-f]{6}|[0-9a-f]{8})$/i;

/** `good`/`warning`/`danger` → hex, a hex colour as given, anything else → InvalidChatPayload. */
export function normalizeColor(value: unknown, field = 'color'): string {
  if (typeof value === 'string') {
    const named = (NAMED_COLORS as Record<string, string>)[value.toLowerCase()];
    if (named) return named;
    if (HEX.test(value)) return value;
  }
  throw new InvalidChatPayload(
    field,
    `expected "good", "warning", "danger" or a hex colour like "#36a64f", got ${describe(value)}`,
  );
}

export function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value);
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${String(value)}`;
}
