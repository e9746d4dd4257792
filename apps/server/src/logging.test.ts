import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { configSchema } from './config/schema.js';
import { createLogging } from './logging.js';

function capture(logging: Partial<ReturnType<typeof configSchema.parse>['logging']> = {}) {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const config = configSchema.parse({ logging }).logging;
  return { lines, logging: createLogging(config, { stream, pretty: false }) };
}

describe('logging', () => {
  it('writes JSON lines that carry their scope', () => {
    const { lines, logging } = capture();
    logging.scope('socket.server').info({ port: 1 }, 'listening');
    expect(lines).toEqual([expect.objectContaining({ scope: 'socket.server', msg: 'listening', port: 1, level: 30 })]);
  });

  it('writes nothing for a scope that is off, by default or by config', () => {
    const { lines, logging } = capture({ scopes: { 'socket.handler': false } });
    logging.scope('socket.connection').error({}, 'off by default');
    logging.scope('socket.handler').error({}, 'off by config');
    logging.scope('socket.controller').info({}, 'on by default');
    expect(lines.map((line) => line['msg'])).toEqual(['on by default']);
  });

  it('turns scopes that are off by default on, and logs nothing at all when disabled', () => {
    const on = capture({ scopes: { 'socket.channel': true } });
    on.logging.scope('socket.channel').info({}, 'subscribed');
    expect(on.lines).toHaveLength(1);
    const off = capture({ enabled: false });
    off.logging.scope('command.server').error({}, 'nobody hears this');
    expect(off.lines).toHaveLength(0);
  });

  it('writes debug lines only with debug_enabled, or for apps with enable_debug', () => {
    const quiet = capture();
    quiet.logging.scope('socket.server').debug({ app: 'a1' }, 'hidden');
    expect(quiet.lines).toHaveLength(0);

    const perApp = capture();
    perApp.logging.setDebugApps(['a1']);
    const log = perApp.logging.scope('socket.server');
    log.debug({ app: 'a1' }, 'shown for a1');
    log.debug({ app: 'a2' }, 'hidden for a2');
    log.debug({}, 'hidden without an app');
    log.info({ app: 'a2' }, 'info is always shown');
    expect(perApp.lines.map((line) => line['msg'])).toEqual(['shown for a1', 'info is always shown']);

    const all = capture({ debug_enabled: true });
    all.logging.scope('socket.server').debug({}, 'shown');
    expect(all.lines).toHaveLength(1);
  });

  it('redacts secrets, signatures and tokens wherever they are', () => {
    const { lines, logging } = capture();
    logging.scope('socket.server').warn(
      { secret: 's3cret', app: { secret: 's3cret' }, auth_signature: 'sig-abc', query: { auth_signature: 'sig-abc' }, token: 'tkn-123', headers: { authorization: 'Bearer tkn-456' } },
      'request refused',
    );
    const text = JSON.stringify(lines);
    for (const value of ['s3cret', 'sig-abc', 'tkn-123', 'tkn-456']) expect(text).not.toContain(value);
    expect(lines[0]).toMatchObject({ secret: '[redacted]', auth_signature: '[redacted]' });
  });
});
