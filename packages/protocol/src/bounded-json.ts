/**
 * JSON from clients, read with a bound on nesting depth.
 *
 * `JSON.parse` accepts any depth, but `JSON.stringify` (and every recursive
 * walk after it: webhooks, loggers, other SDKs) overflows the stack on a value
 * a few thousand levels deep, and such a value fits in a 10 KB frame. So
 * untrusted JSON is refused before parsing when it nests deeper than a limit.
 */

/** Default nesting limit for untrusted JSON: far beyond any real payload, far below a stack overflow. */
export const defaultMaxJsonDepth = 64;

export type BoundedJson = { ok: true; value: unknown } | { ok: false; problem: 'syntax' | 'depth' };

const openBrace = 0x7b;
const openBracket = 0x5b;
const closeBrace = 0x7d;
const closeBracket = 0x5d;
const quote = 0x22;
const backslash = 0x5c;

/**
 * True when `text` nests arrays and objects deeper than `maxDepth`. Brackets
 * inside strings do not count. Only text of at least 2 × maxDepth characters,
 * with more than maxDepth opening brackets, can nest that deep: short frames
 * cost one comparison, and most others a native search for brackets (far
 * cheaper than parsing) instead of a walk over every character.
 */
export function nestsDeeperThan(text: string, maxDepth: number): boolean {
  if (text.length <= 2 * maxDepth || !hasMoreThan(text, maxDepth)) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === backslash) i++;
      else if (c === quote) inString = false;
    } else if (c === quote) {
      inString = true;
    } else if (c === openBrace || c === openBracket) {
      if (++depth > maxDepth) return true;
    } else if (c === closeBrace || c === closeBracket) {
      depth--;
    }
  }
  return false;
}

/** Whether `text` has more than `limit` opening brackets, stopping as soon as it does. */
function hasMoreThan(text: string, limit: number): boolean {
  let count = 0;
  for (let i = text.indexOf('['); i !== -1; i = text.indexOf('[', i + 1)) if (++count > limit) return true;
  for (let i = text.indexOf('{'); i !== -1; i = text.indexOf('{', i + 1)) if (++count > limit) return true;
  return false;
}

/** Parses untrusted JSON text; never throws. */
export function parseBoundedJson(text: string, maxDepth: number): BoundedJson {
  if (nestsDeeperThan(text, maxDepth)) return { ok: false, problem: 'depth' };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false, problem: 'syntax' };
  }
}

/**
 * `JSON.stringify` for values that did not come through `parseBoundedJson`
 * (an API caller's object): undefined instead of a throw for cycles, BigInt
 * or depth that overflows the stack.
 */
export function stringifyOrUndefined(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}
