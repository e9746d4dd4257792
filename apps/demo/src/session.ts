import { createHmac, randomUUID } from 'node:crypto';
import type { Context } from 'hono';
import { deleteCookie, getSignedCookie, setSignedCookie } from 'hono/cookie';

/** The one user everybody signs in as: the demo has no passwords. */
export const DEMO_USER = { id: '1', name: 'Ada Lovelace' } as const;

const SESSION_COOKIE = 'demo_session';

export interface Session {
  id: string;
  user: typeof DEMO_USER;
  /** Rendered into <meta name="csrfToken">; the bell sends it back as X-CSRF-Token. */
  csrfToken: string;
}

/** A signed session cookie that only names a random session id; the CSRF token is derived from it. */
export function createSessions(secret: string) {
  const csrfFor = (sessionId: string) => createHmac('sha256', secret).update(`csrf:${sessionId}`).digest('base64url');
  const toSession = (id: string): Session => ({ id, user: DEMO_USER, csrfToken: csrfFor(id) });

  return {
    async read(c: Context): Promise<Session | null> {
      const id = await getSignedCookie(c, secret, SESSION_COOKIE);
      return typeof id === 'string' && id.length > 0 ? toSession(id) : null;
    },
    async signIn(c: Context): Promise<Session> {
      const id = randomUUID();
      await setSignedCookie(c, SESSION_COOKIE, id, secret, { path: '/', httpOnly: true, sameSite: 'Lax' });
      return toSession(id);
    },
    signOut(c: Context): void {
      deleteCookie(c, SESSION_COOKIE, { path: '/' });
    },
  };
}

