import { Writable } from 'node:stream';
import { isSecretKey } from '@org/secret-masking';
import { describe, expect, it } from 'vitest';
import { configSchema } from './config/schema.js';
import { createLogging } from './logging.js';
import { redactSecretFields } from './secret-log-fields.js';

function linesOf(log: (logging: ReturnType<typeof createLogging>) => void): Record<string, unknown>[] {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  log(createLogging(configSchema.parse({}).logging, { stream, pretty: false }));
  return lines;
}

describe('log lines blank secret fields by the configuration’s one key rule', () => {
  it('blanks passphrases and *_key fields at any depth, which pino’s fixed paths missed, and every header', () => {
    const fields = {
      app: 'a1',
      key: 'public-app-key',
      passphrase: 'pp-111',
      tls: { passphrase: 'pp-222', cert_file: '/etc/cert.pem' },
      apps: [{ id: '1', signing_key: 'sk-333', SESSION_COOKIE: 'ck-444' }],
      headers: { 'x-custom': 'hv-555' },
    };
    const [line] = linesOf((logging) => logging.scope('socket.server').warn(fields, 'refused'));
    for (const value of ['pp-111', 'pp-222', 'sk-333', 'ck-444', 'hv-555']) expect(JSON.stringify(line)).not.toContain(value);
    expect(line).toMatchObject({
      app: 'a1',
      key: 'public-app-key',
      passphrase: '[redacted]',
      tls: { passphrase: '[redacted]', cert_file: '/etc/cert.pem' },
      apps: [{ id: '1', signing_key: '[redacted]', SESSION_COOKIE: '[redacted]' }],
      headers: { 'x-custom': '[redacted]' },
    });
    // The caller's object is copied, not changed.
    expect(fields.tls.passphrase).toBe('pp-222');
  });

  it('judges keys by @org/secret-masking’s isSecretKey: what it calls a secret is blanked, what it does not is kept', () => {
    for (const key of ['passphrase', 'api_key', 'apiKey', 'key_id', 'client_secret', 'refresh_token', 'credentials', 'key', 'port', 'keys', 'monkey']) {
      expect(redactSecretFields({ [key]: 'v' })[key]).toBe(isSecretKey(key) ? '[redacted]' : 'v');
    }
  });

  it('passes a line without secret keys through as it is, and leaves errors to their serializer', () => {
    const fields = { app: 'a1', nested: { port: 1 }, list: [1, 2] };
    expect(redactSecretFields(fields)).toBe(fields);
    const error = Object.assign(new Error('boom'), { code: 'E_X' });
    const [line] = linesOf((logging) => logging.scope('socket.server').error({ err: error }, 'failed'));
    expect(line?.['err']).toMatchObject({ message: 'boom', code: 'E_X', type: 'Error' });
  });
});
