import { configJsonSchema, schemaKeyNames } from './json-schema.js';

/** A step of a key path: a key, or an array index. */
export type PathSegment = string | number;

let schemaKeys: ReadonlySet<string> | undefined;

/**
 * Whether the config schema declares this key name, at any depth. Read from
 * the schema's JSON Schema (zod's public `toJSONSchema`, which config.schema.json
 * is made of), on the first error that asks.
 */
export function isSchemaKey(key: string): boolean {
  schemaKeys ??= schemaKeyNames(configJsonSchema());
  return schemaKeys.has(key);
}

const wordLike = /^[A-Za-z_-]{1,40}$/;

/**
 * A key as an error message may show it. Key names are config words and are
 * shown; a name that is neither a key of the schema nor word-like (letters,
 * `_`, `-`; no digits) may be a value that a broken document turned into a
 * key, and is shown as `*`.
 */
export function showKey(key: PathSegment): string {
  if (typeof key === 'number') return String(key);
  return isSchemaKey(key) || wordLike.test(key) ? key : '*';
}

/** Array indices are numbers; everything else a key. `(root)` for the empty path. */
export function formatPath(path: readonly PathSegment[]): string {
  return path.length ? path.map(showKey).join('.') : '(root)';
}
