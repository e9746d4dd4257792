/**
 * Whether JSON text nests arrays and objects deeper than `maxDepth` (the
 * outermost value is level 1). A scan of the text, not of a parsed value, so a
 * hostile body is refused before the parser builds thousands of levels that
 * recursive code further on (`JSON.stringify`, validators) would overflow on.
 * Brackets inside strings do not count; text that is not JSON gives no
 * reliable answer, which is fine because the parser refuses it next.
 */
export function jsonNestingExceeds(text: string, maxDepth: number): boolean {
  // Deeper than maxDepth takes at least maxDepth + 1 opening brackets.
  if (text.length <= maxDepth) return false;
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === 0x5c) index++; // a backslash escapes the next character, even a quote
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) {
      inString = true;
    } else if (code === 0x5b || code === 0x7b) {
      if (++depth > maxDepth) return true;
    } else if (code === 0x5d || code === 0x7d) {
      depth--;
    }
  }
  return false;
}
