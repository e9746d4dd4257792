import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { urlCredentials } from './known-secrets.js';
import { createSecretMasker } from './secret-masker.js';

const chatLike = { marker: '***', valueMarker: '[redacted]', urlFormat: 'compact' } as const;

describe('secrets(): every form of a known secret cut out', () => {
  it('raw, decoded, percent-encoded, base64 and JSON-escaped', () => {
    const token = 'tok3n/Secr+et=x%2Fy';
    const masker = createSecretMasker({ ...chatLike, secrets: [token] });
    const decoded = decodeURIComponent(token);
    for (const form of [token, decoded, encodeURIComponent(decoded), Buffer.from(decoded).toString('base64'), JSON.stringify(decoded).slice(1, -1)]) {
      expect(masker.echo(`before ${form} after`)).toBe('before *** after');
    }
  });

  it('in lower-case percent-escapes, with + for spaces, and PHP and HTML escaping', () => {
    const masker = createSecretMasker({ secrets: ['p@ss/w0rd Secret'] });
    for (const form of ['p%40ss%2fw0rd%20Secret', 'p%40ss%2Fw0rd+Secret', 'p@ss\\/w0rd Secret', 'p@ss&#x2F;w0rd Secret', 'p@ss&#X2F;w0rd Secret', 'P@SS/W0RD SECRET']) {
      expect(masker.secrets(`[${form}]`), form).toBe('[[redacted]]');
    }
  });

  it('inside a longer base64 text, at every alignment', () => {
    for (const host of ['chat.example.com', 'chat.example.co', 'chat.example.c']) {
      const secrets = ['AbCdEfGhIjKlMnOpQ', 'T0kenT0kenT0kenT0ken', '/hooks/AbCdEfGhIjKlMnOpQ/T0kenT0kenT0kenT0ken'];
      const masker = createSecretMasker({ ...chatLike, secrets });
      const webhook = `https://${host}/hooks/AbCdEfGhIjKlMnOpQ/T0kenT0kenT0kenT0ken`;
      for (const echo of [webhook, 'POST /hooks/AbCdEfGhIjKlMnOpQ/T0kenT0kenT0kenT0ken HTTP/1.1', `{"url":"${webhook}"}`]) {
        const masked = masker.echo(`request id ${Buffer.from(echo).toString('base64')}`);
        const recovered = masked.split(/\*\*\*|\s/).map((part) => Buffer.from(part, 'base64').toString('latin1')).join('');
        expect(recovered, `${host}: ${echo}`).not.toContain('T0kenT0ken');
      }
    }
  });

  it('cuts the longest form starting at a place, and leaves text without a secret as it was (the same string)', () => {
    const masker = createSecretMasker({ secrets: ['Zq7wK2pX9v', 'Zq7wK2pX9v-longer'] });
    expect(masker.secrets('a Zq7wK2pX9v-longer b Zq7wK2pX9v c')).toBe('a [redacted] b [redacted] c');
    const text = 'nothing here';
    expect(masker.secrets(text)).toBe(text);
    expect(createSecretMasker().secrets(text)).toBe(text);
  });

  it('does not cut forms shorter than minLength (they would cut ordinary words)', () => {
    expect(createSecretMasker({ secrets: ['abcd'] }).secrets('abcd efgh')).toBe('abcd efgh');
    expect(createSecretMasker({ secrets: ['abcd'], minLength: 4 }).secrets('abcd efgh')).toBe('[redacted] efgh');
  });
});

describe('echo(): text from elsewhere', () => {
  it('is dropped whole when it holds a secret too short to cut, in any case', () => {
    const masker = createSecretMasker({ ...chatLike, secrets: ['Q7pw'], droppedMarker: '[dropped]' });
    expect(masker.echo('Invalid integration')).toBe('Invalid integration');
    expect(masker.echo('bad token q7PW!')).toBe('[dropped]');
    // text() is for what this program writes: it never drops.
    expect(masker.text('bad token q7PW!')).toBe('bad token q7PW!');
  });

  it('is dropped whole when it shows a secret only once its escapes are undone', () => {
    const masker = createSecretMasker({ ...chatLike, secrets: ['Tok3n>PartOne/Tok3nPartTwo'] });
    // HTML that escapes "/" but not ">": no single form matches.
    expect(masker.echo('<p>Not found: Tok3n>PartOne&#x2F;Tok3nPartTwo</p>')).toBe('[redacted: contained a secret]');
  });

  it('masks identifiers when long enough and never drops a text for them', () => {
    const { secrets, identifiers } = urlCredentials('http://bob:pr0xy-pa55@127.0.0.1:3128');
    expect(identifiers).toEqual(['bob']);
    const masker = createSecretMasker({ ...chatLike, secrets, identifiers });
    expect(masker.echo('user bob denied')).toBe('user bob denied');
    expect(masker.echo('user bob, password pr0xy-pa55')).toBe('user bob, password ***');
    expect(createSecretMasker({ ...chatLike, identifiers: ['robert-the-user'] }).echo('user Robert-The-User denied')).toBe('user *** denied');
  });
});

describe('headers()', () => {
  it('replaces credential headers whole, masks URL headers as URLs and the rest as echoes', () => {
    const token = 'tok3n/Secr+et=x%2Fy';
    const masker = createSecretMasker({ ...chatLike, secrets: [token], rules: [{ secretPathStart: (path) => (path.startsWith('/hooks/') ? 7 : -1) }] });
    expect(masker.headers({ 'set-cookie': 'a=b', location: `https://h/hooks/id/${token}`, 'x-api-key': 'k', 'x-echo': `t=${token}`, 'WWW-Authenticate': 'Bearer realm="x"' })).toEqual({
      'set-cookie': '[redacted]',
      location: 'https://h/hooks/***',
      'x-api-key': '[redacted]',
      'x-echo': 't=***',
      'WWW-Authenticate': '[redacted]',
    });
  });

  it('takes header names a rule knows', () => {
    const masker = createSecretMasker({ rules: [{ isSecretHeader: (name) => name.toLowerCase() === 'x-user-id' }] });
    expect(masker.header('X-User-Id', 'u-123')).toBe('[redacted]');
    expect(masker.header('x-request-id', 'r-123')).toBe('r-123');
  });
});

describe('error()', () => {
  it('copies the cause chain with messages and stacks masked, and nothing else', () => {
    const masker = createSecretMasker({ ...chatLike, secrets: ['id/very-secret-token', 'very-secret-token'], rules: [{ secretPathStart: (path) => (path.startsWith('/hooks/') ? 7 : -1) }] });
    const inner = Object.assign(new Error('reset while posting very-secret-token'), { code: 'ECONNRESET', socket: { secret: 'very-secret-token' } });
    const outer = new Error('failed https://h/hooks/id/very-secret-token', { cause: new AggregateError([inner], 'all failed') });
    const printed = inspect(masker.error(outer), { depth: Infinity, showHidden: true });
    expect(printed).not.toContain('very-secret-token');
    expect(printed).toContain('ECONNRESET');
    expect(printed).toContain('https://h/hooks/***');
  });

  it('masks a string and returns other non-objects as they are; a hostile toString does not throw', () => {
    const masker = createSecretMasker({ secrets: ['Zq7wK2pX9v'] });
    expect(masker.error('oops Zq7wK2pX9v')).toBe('oops [redacted]');
    expect(masker.error(42)).toBe(42);
    const hostile = Object.create(null, { toString: { value: () => { throw new Error('no'); } } }) as object;
    expect((masker.error(hostile) as Error).message).toBe('[unprintable]');
  });
});
