/** True for absolute http:// or https:// URLs, which is all Rocket.Chat's validator accepts. */
export function isAbsoluteHttpUrl(value: unknown): value is string {
  if (typeof value !== 'string' || value.length === 0) return false;
  if (!/^https?:\/\//i.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
  } catch {
    return false;
  }
}
