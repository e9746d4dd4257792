import { createHash, timingSafeEqual } from 'node:crypto';
import type { Context } from 'hono';

/**
 * How mutations prove they come from the host's own pages. Either the host resolves the
 * expected token for this request (session, cookie...) and we compare it with the header,
 * or the host verifies the header value itself.
 */
export type CsrfOptions =
  | { token: (c: Context) => string | null | undefined | Promise<string | null | undefined>; headerName?: string }
  | { verify: (c: Context, token: string) => boolean | Promise<boolean>; headerName?: string };

const DEFAULT_CSRF_HEADER = 'X-CSRF-Token';

/** Constant-time string comparison; hashing first makes the lengths equal. */
function safeEqual(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb) && a.length === b.length;
}

export async function checkCsrf(options: CsrfOptions, c: Context): Promise<boolean> {
  const sent = c.req.header(options.headerName ?? DEFAULT_CSRF_HEADER);
  if (!sent) return false;
  if ('verify' in options) return (await options.verify(c, sent)) === true;
  const expected = await options.token(c);
  return typeof expected === 'string' && expected.length > 0 && safeEqual(sent, expected);
}
