/**
 * Credentials in free text, found in one pass (time linear in the text):
 *
 * - URLs, found from each `://` with their scheme read backwards, so that a
 *   scheme glued to a word or a digit (`retry#2-https://…`) is still found
 *   (a regex trying a scheme at every position took quadratic time on long runs
 *   of `a.a.a…`). A URL runs to whitespace or a character no URL holds raw; a
 *   `'` does not end it (`encodeURIComponent` leaves `'()!*` raw, so a token or
 *   a password may hold them).
 * - `user:password@host` without a scheme (a Redis host, a proxy in an error
 *   message): a run of URL characters whose last `@` is followed by a host
 *   character and preceded, somewhere in the run, by a `:`. A run that opens
 *   the text needs no `:` (a value that is `user@host` as a whole).
 */

const urlEnd = /[\s"<>`]/;
const schemeChar = /[a-z0-9+.-]/i;
const letter = /[a-z]/i;
/** What may follow the `@` that ends credentials: a host's first character. */
const hostStart = /[^\s"<>`@/?#]/;

export function maskCredentialsIn(text: string, maskUrl: (url: string) => string, marker: string): string {
  if (!text.includes('://') && !text.includes('@')) return text;
  let out = '';
  let done = 0;
  for (let separator = text.indexOf('://'); separator >= 0; separator = text.indexOf('://', separator + 3)) {
    if (separator < done) continue;
    let start = separator;
    while (start > done && schemeChar.test(text[start - 1]!)) start--;
    while (start < separator && !letter.test(text[start]!)) start++;
    if (start === separator) continue;
    let end = separator + 3;
    while (end < text.length && !urlEnd.test(text[end]!)) end++;
    out += maskUserinfoIn(text.slice(done, start), done === 0, marker) + maskUrl(text.slice(start, end));
    done = end;
  }
  return out + maskUserinfoIn(text.slice(done), done === 0, marker);
}

/** The `user:password@host` rule on text holding no URL; `opensText`: whether `text` starts the whole text. */
function maskUserinfoIn(text: string, opensText: boolean, marker: string): string {
  if (!text.includes('@')) return text;
  let out = '';
  let copied = 0;
  let runStart = 0;
  let colon = -1;
  let at = -1;
  const endRun = (end: number) => {
    if (at > runStart && ((colon >= runStart && colon < at) || (opensText && runStart === 0))) {
      out += `${text.slice(copied, runStart)}${marker}`;
      copied = at;
    }
    runStart = end + 1;
    colon = -1;
    at = -1;
  };
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (urlEnd.test(char)) endRun(i);
    else if (char === ':' && colon < 0) colon = i;
    else if (char === '@' && i + 1 < text.length && hostStart.test(text[i + 1]!)) at = i;
  }
  endRun(text.length);
  return copied === 0 ? text : out + text.slice(copied);
}
