/** Escapes text for HTML element content and double-quoted attribute values. */
function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** Tagged template that escapes every interpolated value unless it is already `RawHtml`. */
export class RawHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

export function html(strings: TemplateStringsArray, ...values: unknown[]): RawHtml {
  let out = strings[0] ?? '';
  values.forEach((value, index) => {
    const parts = Array.isArray(value) ? value : [value];
    for (const part of parts) {
      if (part === undefined || part === null || part === false) continue;
      out += part instanceof RawHtml ? part.value : escapeHtml(String(part));
    }
    out += strings[index + 1] ?? '';
  });
  return new RawHtml(out);
}
