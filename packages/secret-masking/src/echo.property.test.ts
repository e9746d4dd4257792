import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSecretMasker } from './secret-masker.js';

/*
 * chat-notifier's secrets property at the masker's level: for arbitrary
 * tokens, everything a careless or hostile server may echo (its body in JSON,
 * PHP-escaped JSON and HTML, its headers, a router's message without the
 * trailing slash, base64 of the request path) keeps every form of the token
 * out once masked as an echo, or is dropped whole. The end-to-end property
 * (every failure path of a chat channel against an echoing server) stays in
 * chat-notifier; this one runs the masking rule alone, many more times.
 */

/** Tokens as they appear in a webhook URL: URL-safe with `/+=%2F`, percent-encoded unicode, very long, or very short. */
const longToken = fc
  .oneof(
    fc.stringMatching(/^[A-Za-z0-9/+=._~-]{0,40}$/),
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 }).map((s) => encodeURIComponent(s)),
    fc.string({ unit: 'binary', minLength: 1, maxLength: 12 }).map((s) => encodeURIComponent(s.replace(/[\ud800-\udfff]/g, 'x'))),
    fc.constantFrom('%2F%2B%3D', 'a%2Fb', '%25%32%46', "it's\"quoted\"", '<script>'.replace(/[<>"]/g, (c) => encodeURIComponent(c))),
    fc.stringMatching(/^[A-Za-z0-9]{400,1200}$/),
  )
  // A high-entropy core, as real tokens have, so a short or common token cannot
  // coincide with the words around it; the arbitrary part explores escaping.
  .chain((t) => fc.stringMatching(/^[A-Za-z0-9]{10}$/).map((core) => `${t.replace(/^\/+|\/+$/g, '')}Zq${core}`.replace(/\/{2,}/g, '/')))
  .filter((t) => !t.includes('?') && !t.includes('#'));

/** Tokens of 1–5 characters (or with a part that short), which cannot be masked inside text: echoes holding them are dropped. */
const shortToken = fc.oneof(
  fc.stringMatching(/^[A-Za-z0-9+=._~-]{1,5}$/),
  fc.tuple(fc.stringMatching(/^[A-Za-z0-9]{1,5}$/), fc.stringMatching(/^[A-Za-z0-9]{8,16}$/)).map(([a, b]) => `${a}/${b}`),
);

/** The token, and whether the webhook ends with a "/" after it. */
const urlToken = fc.tuple(fc.oneof(longToken, shortToken), fc.boolean());

/** Words around an echo, as a body has them. */
const around = fc.string({ unit: fc.constantFrom(...' abcxyz.:,;{}[]"=\n'), maxLength: 12 });

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The secrets a webhook path holds, as chat-notifier derives them: the path, the part after /hooks/, the token and each of its parts. */
function pathSecrets(path: string): string[] {
  const tail = path.slice('/hooks/'.length).replace(/\/+$/, '');
  const segments = tail.split('/').filter(Boolean);
  return [...new Set([path, path.replace(/\/+$/, ''), `/hooks/${tail}`, tail, segments.slice(1).join('/'), ...segments].filter(Boolean))];
}

/** What the echo server sends back for a request to `path`: bodies and header values. */
function echoedTexts(origin: string, path: string): string[] {
  const urlToken = path.replace(/^\/hooks\/[^/]+\//, '');
  const decoded = safeDecode(urlToken);
  const decodedPath = safeDecode(path);
  return [
    JSON.stringify({
      success: false,
      error: `bad token ${decoded}`,
      raw: urlToken,
      b64: Buffer.from(decoded).toString('base64'),
      url: `http://127.0.0.1${path}`,
      router: `no integration ${path.split('/')[2]} with token ${path.split('/').slice(3).filter(Boolean).join('/')}`,
      request: Buffer.from(path).toString('base64'),
    }),
    `token=${decoded} url=${origin}${path} b64=${Buffer.from(urlToken).toString('base64')}`,
    JSON.stringify({ success: false, error: `bad token ${decoded}` }).replace(/\//g, '\\/'),
    `<p>Not found: ${decodedPath.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/\//g, '&#x2F;')}</p>`,
    `{"success":false,"error":"You must wait 3600 seconds ${decoded}"}`,
    `session=${urlToken}; Path=/`,
    urlToken,
    `Bearer realm="${urlToken}"`,
  ];
}

/** Every form of the token (and of its parts) an echo may hold, at least 6 characters long. */
function forms(token: string, path: string): string[] {
  const parts = [token, ...token.split('/').filter(Boolean)];
  const out = new Set<string>([Buffer.from(path).toString('base64'), Buffer.from(path).toString('base64').replace(/=+$/, '')]);
  for (const part of parts) {
    for (const s of [part, safeDecode(part), `hook-id/${part}`]) {
      out.add(s);
      out.add(encodeURIComponent(s));
      out.add(Buffer.from(s).toString('base64'));
      out.add(Buffer.from(s).toString('base64url'));
      out.add(JSON.stringify(s).slice(1, -1).replace(/\//g, '\\/'));
      out.add(s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/\//g, '&#x2F;'));
    }
  }
  return [...out].filter((form) => form.length >= 6);
}

/** The token in the contexts the echoes put it in: checked whatever its length (a short one must have been dropped with its text). */
function contexts(token: string, slash: string): string[] {
  const urlToken = `${token}${slash}`;
  const decoded = safeDecode(urlToken);
  const json = (s: string) => JSON.stringify(s).slice(1, -1);
  return [
    `bad token ${json(decoded)}`,
    `bad token ${json(decoded).replace(/\//g, '\\/')}`,
    `token=${decoded}`,
    `"raw":"${json(urlToken)}`,
    `with token ${json(token.split('/').filter(Boolean).join('/'))}`,
    `no integration hook-id`,
    `&#x2F;${decoded.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/\//g, '&#x2F;')}`,
    `session=${urlToken}`,
    `realm="${urlToken}`,
    `3600 seconds ${json(decoded)}`,
  ];
}

describe('no form of a secret survives echo()', () => {
  it('holds for arbitrary tokens echoed in every way a server may', () => {
    fc.assert(
      fc.property(urlToken, around, around, ([token, trailingSlash], before, after) => {
        const slash = trailingSlash ? '/' : '';
        const origin = 'http://127.0.0.1:8080';
        const path = `/hooks/hook-id/${token}${slash}`;
        const masker = createSecretMasker({
          marker: '***',
          urlFormat: 'compact',
          secrets: pathSecrets(path),
          rules: [{ secretPathStart: (p) => (p.toLowerCase().startsWith('/hooks/') ? '/hooks/'.length : -1) }],
        });
        const masked = echoedTexts(origin, path).map((text) => masker.echo(`${before}${text}${after}`));
        masked.push(...Object.values(masker.headers({ location: `${origin}${path}`, 'content-location': `${origin}${path}?again=1`, 'x-echo': `${origin}${path}`, 'x-echo-token': `${token}${slash}` })));
        const everything = masked.join('\n');
        const leaked = (form: string) => {
          const at = everything.indexOf(form);
          expect(at, `leaked ${JSON.stringify(form)} in: …${everything.slice(Math.max(0, at - 200), at + form.length + 50)}…`).toBe(-1);
        };
        for (const form of forms(token, path)) leaked(form);
        for (const context of contexts(token, slash)) leaked(context);
      }),
      { numRuns: 400 },
    );
  });
});
