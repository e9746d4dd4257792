/** A token shaped like the hard ones: "/", "+", "=" and an escaped slash, all of which must survive untouched. */
export const TOKEN = 'tok3n/Secr+et=x%2Fy';
export const HOOK_ID = 'hook-id-1';

export function webhookUrl(origin: string, token = TOKEN): string {
  return `${origin}/hooks/${HOOK_ID}/${token}`;
}
