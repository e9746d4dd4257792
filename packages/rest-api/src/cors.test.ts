import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { signedFetch, startApi, type ApiFixture } from '../test/support/test-fixture.js';

let api: ApiFixture;
beforeEach(async () => {
  api = await startApi();
});
afterEach(async () => {
  await api.close();
});

const preflight = (path: string, origin: string) =>
  fetch(`${api.baseUrl}${path}`, {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
  });

describe('CORS', () => {
  it("answers a preflight for an app that allows every origin with '*', the route's methods and our headers", async () => {
    const response = await preflight('/apps/app-1/events', 'https://anywhere.example');
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-allow-methods')).toBe('POST, OPTIONS');
    expect(response.headers.get('access-control-allow-headers')).toContain('Authorization');
    expect(response.headers.get('access-control-allow-headers')).toContain('Content-Type');
  });

  it("echoes an origin the app allows and varies on Origin; gives nothing to others", async () => {
    const allowed = await preflight('/apps/app-2/channels', 'https://allowed.example');
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://allowed.example');
    expect(allowed.headers.get('access-control-allow-methods')).toBe('GET, OPTIONS');
    expect(allowed.headers.get('vary')).toBe('Origin');

    const refused = await preflight('/apps/app-2/channels', 'https://evil.example');
    expect(refused.status).toBe(204);
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
    expect(refused.headers.get('access-control-allow-methods')).toBeNull();
  });

  it('puts CORS headers on answers and errors of an allowed origin only', async () => {
    const app2 = { id: 'app-2', key: 'key-2', secret: 'secret-2' };
    const ok = await fetch(`${api.baseUrl}/apps/app-2/connections`, {
      headers: { origin: 'https://allowed.example', authorization: `Bearer ${app2.secret}` },
    });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('access-control-allow-origin')).toBe('https://allowed.example');
    expect(ok.headers.get('access-control-expose-headers')).toBe('Retry-After');

    const unauthorized = await fetch(`${api.baseUrl}/apps/app-2/connections`, { headers: { origin: 'https://allowed.example' } });
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers.get('access-control-allow-origin')).toBe('https://allowed.example');

    const foreign = await fetch(`${api.baseUrl}/apps/app-2/connections`, {
      headers: { origin: 'https://evil.example', authorization: `Bearer ${app2.secret}` },
    });
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();

    const signed = await signedFetch(api.baseUrl, { method: 'GET', path: '/apps/app-1/connections', headers: { origin: 'https://x.example' } });
    expect(signed.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('answers 404 to a preflight for an unknown app', async () => {
    const response = await preflight('/apps/nope/events', 'https://anywhere.example');
    expect(response.status).toBe(404);
  });
});
