import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { ChatChannel } from './chat-channel.js';
import type { ChatInstanceConfig } from './config.js';
import { CouldNotSendNotification } from './errors.js';
import { Redactor, SECRET_DROPPED, userinfoSecrets } from './redact.js';

/*
 * Servers (Rocket.Chat, or a proxy or WAF in front of it) that echo the
 * request path or a credential header in their error bodies, in the forms the
 * review found leaking: short tokens and header values, a webhook with a
 * trailing slash, PHP's `\/`-escaped JSON, HTML `&#x2F;`, base64 of the path.
 */

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function echoServer(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function failure(config: ChatInstanceConfig): Promise<CouldNotSendNotification> {
  const channel = new ChatChannel({ retry: false, ...config }, { env: {} });
  cleanups.push(() => channel.close());
  const error = await channel.send(null, 'hi').then(
    () => expect.unreachable('expected the send to fail'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CouldNotSendNotification);
  return error as CouldNotSendNotification;
}

function everything(value: unknown): string {
  return [String(value), (value as Error).stack, inspect(value, { depth: Infinity, showHidden: true }), JSON.stringify(value)].join('\n');
}

describe('secrets too short to mask inside text: the echoing text is dropped whole', () => {
  it('tokens and ids of 1–5 characters echoed by the server', async () => {
    const origin = await echoServer((req, res) => {
      const [, , id, token] = (req.url ?? '').split('/');
      res.writeHead(403, { 'content-type': 'application/json' }).end(JSON.stringify({ success: false, error: `Invalid integration ${id} or token ${token}` }));
    });
    for (const [id, token] of [['abc', 'x9Kq'], ['i', 'tok12'], ['hooks', 'https'], ['zz', 'Z'], ['abcdefghij', 'Q7pw']] as const) {
      const error = await failure({ webhook: `${origin}/hooks/${id}/${token}` });
      expect(error.response?.body).toBe(SECRET_DROPPED);
      expect(error.message).toContain(`403 - ${SECRET_DROPPED}`);
      expect(everything(error), token).not.toContain(`token ${token}`);
      expect(everything(error), token).not.toContain(`${token}"`);
    }
  });

  it('a short credential header value echoed by the server', async () => {
    const origin = await echoServer((req, res) => res.writeHead(401).end(`rejected api key ${String(req.headers['x-api-key'])}`));
    const error = await failure({ webhook: `${origin}/hooks/abcdefghijkl/mnopqrstuvwxyz0123456789`, headers: { 'x-api-key': 'k3y9Q' } });
    expect(error.response?.body).toBe(SECRET_DROPPED);
    expect(everything(error)).not.toContain('k3y9Q');
  });

  it('echoed text without the short secret is kept; a short proxy user name (not a secret) drops nothing', () => {
    const redactor = Redactor.forWebhook('https://h/hooks/abcdefghijkl/Q7pw');
    expect(redactor.text('Invalid integration')).toBe('Invalid integration');
    expect(redactor.text('bad token q7PW!')).toBe(SECRET_DROPPED); // any case
    const { secrets, maskOnly } = userinfoSecrets('http://bob:pr0xy-pa55@127.0.0.1:3128');
    expect(maskOnly).toEqual(['bob']);
    const proxied = new Redactor(secrets, maskOnly);
    expect(proxied.text('user bob denied')).toBe('user bob denied');
    expect(proxied.text('user bob, password pr0xy-pa55')).toBe('user bob, password ***');
  });
});

describe('long tokens in every echoed form', () => {
  const cases: Array<{ mode: string; token: string; secrets: string[] }> = [
    { mode: 'php-json', token: 'Tok3nPartOne/Tok3nPartTwo', secrets: ['Tok3nPartOne', 'Tok3nPartTwo'] },
    { mode: 'router', token: 'Xq7Lm9Pz2Vb8Nc4Kd6Wf1Hj3/', secrets: ['Xq7Lm9Pz2Vb8Nc4Kd6Wf1Hj3'] },
    { mode: 'html', token: 'Tok3nPartOne%2FTok3nPartTwo', secrets: ['Tok3nPartOne', 'Tok3nPartTwo'] },
    { mode: 'html-partial', token: 'Tok3n%3EPartOne%2FTok3nPartTwo', secrets: ['Tok3n', 'PartOne', 'Tok3nPartTwo'] },
  ];

  it.each(cases)('$mode', async ({ mode, token, secrets }) => {
    const origin = await echoServer((req, res) => {
      const [, , id, ...rest] = (req.url ?? '').split('/');
      const raw = rest.join('/');
      res.writeHead(400, { 'content-type': 'application/json' });
      if (mode === 'php-json') res.end(JSON.stringify({ error: `bad token ${decodeURIComponent(raw)}` }).replace(/\//g, '\\/'));
      else if (mode === 'router') res.end(JSON.stringify({ error: `no integration ${id} with token ${rest.filter(Boolean).join('/')}` }));
      else if (mode === 'html') res.end(`<p>Not found: ${decodeURIComponent(req.url ?? '').replace(/\//g, '&#x2F;')}</p>`);
      else res.end(`<p>Not found: ${decodeURIComponent(req.url ?? '').replace(/\//g, '&#x2F;')}</p>`); // ">" left as is
    });
    const error = await failure({ webhook: `${origin}/hooks/abcdefgh/${token}` });
    for (const secret of secrets) expect(everything(error), secret).not.toContain(secret);
  });

  it('base64 of the whole request path', async () => {
    const token = 'Xq7Lm9Pz2Vb8Nc4Kd6Wf1Hj3';
    const origin = await echoServer((req, res) => res.writeHead(400).end(`request-id ${Buffer.from(req.url ?? '').toString('base64')}`));
    const error = await failure({ webhook: `${origin}/hooks/abcdefgh/${token}` });
    expect(error.response?.body).toBe('request-id ***');
    expect(everything(error)).not.toContain(Buffer.from(`/hooks/abcdefgh/${token}`).toString('base64').slice(0, 20));
  });
});
