import { describe, expect, it } from 'vitest';
import { optionsFromFlags } from './cli.js';
import { parseOptions } from './options.js';

const app = { id: '1', key: 'k', secret: 's' };

describe('options', () => {
  it('fills in the defaults', () => {
    const options = parseOptions({ port: 6001, app });
    expect(options).toMatchObject({ host: '127.0.0.1', tls: false, caseTimeout: 10, runTimeout: 300, strict: false, maxEventDataBytes: 10_240 });
    expect(options.features).toEqual(['watchlist', 'subscription-count', 'authorized-connections']);
  });

  it('names the command-line flag of every wrong key', () => {
    expect(() => parseOptions({ port: 70_000, app: { id: '1', key: '', secret: 's' }, featureApp: { id: 'f', key: 'k' }, caseTimeout: 0 })).toThrow(
      /--port must be 1-65535\n--app-key must not be empty\n--feature-app-secret is required\n--case-timeout must be more than 0 seconds/,
    );
  });

  it('refuses an unknown option', () => {
    expect(() => parseOptions({ port: 1, app, colour: 'red' })).toThrow(/--colour: unknown option/);
  });

  it('reads flags into options: numbers, lists, and credential triples only when given', () => {
    const options = optionsFromFlags({
      port: '6001',
      'app-id': '1',
      'app-key': 'k',
      'app-secret': 's',
      only: 'connection, http-api',
      'case-timeout': '2.5',
      'node2-port': '6002',
    });
    expect(options).toEqual({ port: 6001, app, only: ['connection', 'http-api'], caseTimeout: 2.5, node2: { host: undefined, port: 6002 } });
  });

  it('passes a flag that is not a number on as text, so the message names the flag', () => {
    expect(() => parseOptions(optionsFromFlags({ port: 'abc', 'app-id': '1', 'app-key': 'k', 'app-secret': 's' }))).toThrow(/--port must be a port number/);
    expect(() => parseOptions(optionsFromFlags({ port: '1' }))).toThrow(/--app-id is required\n--app-key is required\n--app-secret is required/);
  });
});
