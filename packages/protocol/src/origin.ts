/**
 * Whether a WebSocket `Origin` is allowed. Entries are `*`, an origin
 * (`https://app.example.com`), a host (`app.example.com`) or a host wildcard
 * (`*.example.com`). A missing Origin is refused when the list is restricted.
 */
export function originAllowed(allowed: readonly string[], origin: string | undefined): boolean {
  if (allowed.includes('*')) return true;
  if (!origin) return false;
  let host: string;
  try {
    host = new URL(origin).host;
  } catch {
    return false;
  }
  return allowed.some((entry) => {
    if (entry === origin || entry === host) return true;
    if (entry.startsWith('*.')) return host.endsWith(entry.slice(1));
    return false;
  });
}
