/**
 * Every way a text may echo a secret: raw, percent-decoded (also with `+` for
 * spaces), and each of those percent-encoded (`encodeURIComponent`, with `+`
 * for spaces, and `encodeURI`), JSON-escaped (also as ASCII and with `\/`,
 * PHP's default), HTML-escaped (with the usual spellings of `/` and `'`) and
 * base64 (standard, unpadded, URL-safe, and inside a longer base64 text).
 * Lower-case percent and `&#X2F;` spellings need no forms of their own: the
 * forms are matched ignoring case.
 */
export function secretForms(secret: string): string[] {
  const forms = new Set<string>();
  for (const value of decodedVariants(secret)) {
    forms.add(value);
    const encoded = safeEncode(encodeURIComponent, value);
    forms.add(encoded);
    forms.add(encoded.replace(/%20/g, '+'));
    forms.add(safeEncode(encodeURI, value));
    for (const json of [JSON.stringify(value).slice(1, -1), asciiJson(value)]) {
      forms.add(json);
      forms.add(json.replace(/\//g, '\\/'));
    }
    for (const html of htmlForms(value)) forms.add(html);
    for (const base64 of base64Forms(value)) forms.add(base64);
  }
  forms.delete('');
  return [...forms];
}

/** The secret as given and JSON-escaped (also as ASCII and with `\/`): how a program's own message quotes a value. */
export function plainSecretForms(secret: string): string[] {
  const forms = new Set<string>([secret]);
  for (const json of [JSON.stringify(secret).slice(1, -1), asciiJson(secret)]) {
    forms.add(json);
    forms.add(json.replace(/\//g, '\\/'));
  }
  forms.delete('');
  return [...forms];
}

/**
 * The secret's base64 inside a longer base64 text (`Basic base64(user:secret)`, a whole
 * request line encoded): its bytes start at any offset modulo 3, and each alignment
 * encodes them differently. Kept: the characters that depend on the secret's bits alone.
 * Such a core is no reason to drop a text (a short one turns up in unrelated base64).
 */
export function embeddedBase64Forms(secret: string): string[] {
  const forms = new Set<string>();
  for (const value of decodedVariants(secret)) {
    const bytes = utf8(value);
    for (let offset = 0; offset < 3; offset++) {
      const encoded = base64([...new Array<number>(offset).fill(0), ...bytes]);
      const core = encoded.slice(Math.ceil((8 * offset) / 6), Math.floor((8 * (offset + bytes.length)) / 6));
      forms.add(core);
      forms.add(toBase64Url(core));
    }
  }
  forms.delete('');
  return [...forms];
}

/** The secret as given and percent-decoded (a secret taken from a URL is echoed decoded), also with `+` read as a space. */
function decodedVariants(secret: string): Set<string> {
  return new Set([secret, safeDecode(secret), safeDecode(secret.replace(/\+/g, ' '))]);
}

function base64Forms(value: string): string[] {
  const full = base64(utf8(value));
  return [full, full.replace(/=+$/, ''), toBase64Url(full.replace(/=+$/, ''))];
}

/** HTML-escaped, with the usual spellings of `/` and `'`. */
function htmlForms(value: string): string[] {
  const escaped = value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  const forms: string[] = [];
  for (const slash of ['/', '&#x2F;', '&#47;', '&sol;']) {
    for (const quote of ["'", '&#39;', '&#x27;', '&apos;']) forms.push(escaped.replace(/\//g, slash).replace(/'/g, quote));
  }
  return forms;
}

function asciiJson(value: string): string {
  return JSON.stringify(value)
    .slice(1, -1)
    .replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function toBase64Url(base64Text: string): string {
  return base64Text.replace(/\+/g, '-').replace(/\//g, '_');
}

/** `decodeURIComponent`, or the text itself where it holds a `%` that is no escape. */
export function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

function safeEncode(encode: (value: string) => string, value: string): string {
  try {
    return encode(value);
  } catch {
    return value; // a lone surrogate
  }
}

/** UTF-8 bytes, a lone surrogate as U+FFFD (as Node's Buffer and TextEncoder both do). */
function utf8(value: string): number[] {
  return [...new TextEncoder().encode(value)];
}

const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Standard padded base64: no Buffer, so that the package runs anywhere. */
function base64(bytes: readonly number[]): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const [a, b, c] = [bytes[i]!, bytes[i + 1], bytes[i + 2]];
    const word = (a << 16) | ((b ?? 0) << 8) | (c ?? 0);
    out += alphabet[(word >> 18) & 63]! + alphabet[(word >> 12) & 63]!;
    out += b === undefined ? '=' : alphabet[(word >> 6) & 63]!;
    out += c === undefined ? '=' : alphabet[word & 63]!;
  }
  return out;
}
