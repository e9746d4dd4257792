import { createStaticAppProvider, RealtimeServer } from '@org/protocol';
import { describe, expect, it } from 'vitest';
import { createPusherApi } from './create-pusher-api.js';
import { PusherApiError } from './errors.js';
import type { PusherApiOptions } from './options.js';

const server = new RealtimeServer({ apps: createStaticAppProvider([{ id: '1', key: 'k', secret: 's' }]) });

function optionError(options: unknown): PusherApiError {
  try {
    createPusherApi(options as PusherApiOptions);
  } catch (error) {
    if (error instanceof PusherApiError) return error;
    throw error;
  }
  throw new Error('expected createPusherApi to throw');
}

describe('createPusherApi options', () => {
  it.each([
    [{}, 'invalid option server: server must be a RealtimeServer from @org/protocol'],
    [{ server: {} }, 'invalid option server: server must be a RealtimeServer'],
    [{ server, maxRequestSize: 0 }, 'invalid option maxRequestSize: maxRequestSize must be at least 1 byte'],
    [{ server, maxRequestSize: 1.5 }, 'invalid option maxRequestSize: maxRequestSize must be an integer number of bytes'],
    [{ server, maxRequestSize: '10kb' }, 'invalid option maxRequestSize: maxRequestSize must be a number of bytes'],
    [{ server, maxRequestSize: 2 ** 40 }, 'maxRequestSize must be at most 67108864 bytes'],
    [{ server, maxJsonDepth: 0 }, 'invalid option maxJsonDepth: maxJsonDepth must be at least 1 (the body object itself)'],
    [{ server, maxJsonDepth: 2.5 }, 'invalid option maxJsonDepth: maxJsonDepth must be an integer number of levels'],
    [{ server, maxJsonDepth: '64' }, 'invalid option maxJsonDepth: maxJsonDepth must be a number of levels'],
    [{ server, maxJsonDepth: 1_001 }, 'invalid option maxJsonDepth: maxJsonDepth must be at most 1000 levels'],
    [{ server, pathPrefix: 'realtime' }, 'invalid option pathPrefix: pathPrefix must be "" or start with "/"'],
    [{ server, pathPrefix: '/realtime/' }, 'pathPrefix must be "" or start with "/" and not end with "/"'],
    [{ server, ready: () => true }, 'invalid option ready: ready is gone: the API serves only its /apps/... routes; answer /up, /pusher/health and /metrics in front of it'],
    [{ server, metrics: () => Promise.resolve({ contentType: 'text/plain', body: '' }) }, 'invalid option metrics: metrics is gone'],
    [{ server, rateLimit: {} }, 'invalid option rateLimit: rateLimit must be a function'],
    [{ server, idempotency: { claim: () => {} } }, 'invalid option idempotency: idempotency must be a store with claim, complete and release'],
    [{ server, onResponse: 1 }, 'invalid option onResponse: onResponse must be a function'],
  ])('refuses %j naming the key', (options, message) => {
    const error = optionError(options);
    expect(error.code).toBe('INVALID_OPTION');
    expect(error.message).toContain(message);
  });

  it('refuses a missing options object', () => {
    expect(optionError(undefined).message).toBe('@org/rest-api: options must be an object');
  });

  it('accepts the minimal and the full option set', () => {
    expect(createPusherApi({ server }).fetch).toBeTypeOf('function');
    const full: PusherApiOptions = {
      server,
      maxRequestSize: 20_000,
      maxJsonDepth: 8,
      pathPrefix: '/realtime',
      onResponse: () => {},
      rateLimit: () => Promise.resolve({ allowed: true }),
      onError: () => {},
    };
    expect(createPusherApi(full).fetch).toBeTypeOf('function');
  });
});
