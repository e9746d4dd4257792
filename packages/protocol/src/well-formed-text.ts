/**
 * In a `u` regular expression a surrogate pair is one code point, so a surrogate range matches only
 * a surrogate that stands alone: text that is not Unicode (JSON can carry it as `"\ud800"`).
 */
const loneSurrogate = /[\uD800-\uDFFF]/u;

/**
 * Whether a string is well-formed Unicode (`String.prototype.isWellFormed`, not in our ES2023 lib).
 * User ids must be: encoders replace a lone surrogate with U+FFFD (ioredis does), so two users would
 * share one identity in a scaler's keys and values.
 */
export function isWellFormedText(text: string): boolean {
  return !loneSurrogate.test(text);
}
