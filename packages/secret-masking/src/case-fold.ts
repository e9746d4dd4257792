/**
 * Case-insensitive matching as a regex's `i` flag does it (without `u`): each
 * UTF-16 code unit is compared by its upper case when that is one code unit
 * and does not turn a non-ASCII character into an ASCII one. Folding a text
 * keeps its length, so positions in the folded text are positions in the text.
 */

let table: Uint16Array | undefined;

function foldTable(): Uint16Array {
  if (table) return table;
  table = new Uint16Array(0x10000);
  for (let code = 0; code < 0x10000; code++) {
    const upper = String.fromCharCode(code).toUpperCase();
    const folded = upper.length === 1 ? upper.charCodeAt(0) : code;
    table[code] = code >= 0x80 && folded < 0x80 ? code : folded;
  }
  return table;
}

/** The folded code unit of `code`. */
export function foldCode(code: number): number {
  if (code < 0x80) return code >= 0x61 && code <= 0x7a ? code - 0x20 : code;
  return foldTable()[code]!;
}

/** `text` with every code unit folded. */
export function foldCase(text: string): string {
  let folded = '';
  for (let i = 0; i < text.length; i++) folded += String.fromCharCode(foldCode(text.charCodeAt(i)));
  return folded;
}
