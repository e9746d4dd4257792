import { safeDecode } from './secret-forms.js';

const htmlEntities: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", sol: '/' };

/**
 * A text with JSON `\/` and `\uXXXX`, HTML entities and percent-escapes undone,
 * each where it parses: escaping mixes no list of forms can foresee (HTML that
 * escapes `/` but not `>`, JSON inside percent-encoding) show a secret once undone.
 * Each pattern starts at a fixed character and cannot run past the next one: linear.
 */
export function unescapeEchoes(text: string): string {
  return text
    .replace(/\\\//g, '/')
    .replace(/\\u([0-9a-f]{4})/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)))
    .replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]+);/gi, (entity, name: string) => {
      const code = /^#x/i.test(name) ? Number.parseInt(name.slice(2), 16) : name.startsWith('#') ? Number(name.slice(1)) : undefined;
      if (code === undefined) return htmlEntities[name.toLowerCase()] ?? entity;
      return code <= 0x10ffff ? String.fromCodePoint(code) : entity;
    })
    .replace(/(?:%[0-9a-f]{2})+/gi, (escapes) => safeDecode(escapes));
}
