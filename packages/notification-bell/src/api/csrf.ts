/** Read on every request so a token rotated by the page is picked up. */
export function readCsrfToken(doc: Document | undefined = globalThis.document): string | undefined {
  const content = doc?.querySelector<HTMLMetaElement>('meta[name="csrfToken"]')?.content;
  return content ? content : undefined;
}
