import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NotificationBellError } from './errors.js';
import { attributeName, defaultOptions, parseOption } from './options.js';
import type { BellOptions, OptionName } from './options.js';

function errorOf(run: () => unknown): NotificationBellError {
  try {
    run();
  } catch (error) {
    if (error instanceof NotificationBellError) return error;
    throw error;
  }
  throw new Error('expected an error');
}

describe('option validation', () => {
  it('accepts valid values and fills broadcasting defaults', () => {
    expect(parseOption('mode', 'panel')).toBe('panel');
    expect(parseOption('pollInterval', 5000)).toBe(5000);
    expect(parseOption('broadcasting', false)).toBe(false);
    expect(parseOption('broadcasting', { broadcaster: 'ws-channels', wsKey: 'app-key', wsHost: '127.0.0.1', wsPort: 6001 })).toEqual({
      broadcaster: 'ws-channels',
      wsKey: 'app-key',
      wsHost: '127.0.0.1',
      wsPort: 6001,
      authEndpoint: '/broadcasting/auth',
    });
    expect(parseOption('broadcasting', { broadcaster: 'sse-hub', hubUrl: '/hub' })).toEqual({ broadcaster: 'sse-hub', hubUrl: '/hub', withCredentials: true });
  });

  it('names the attribute and the expected value for a bad enum', () => {
    const error = errorOf(() => parseOption('mode', 'sidebar'));
    expect(error.code).toBe('INVALID_OPTION');
    expect(error.message).toBe(`<notification-bell> option "mode": expected 'dropdown' or 'panel' (got "sidebar").`);
  });

  it('names kebab-case attributes and rejects non-numbers and out-of-range numbers', () => {
    expect(errorOf(() => parseOption('pollInterval', Number.NaN)).message).toContain('option "poll-interval"');
    expect(errorOf(() => parseOption('pollInterval', 10)).message).toContain('>= 1000');
    expect(errorOf(() => parseOption('perPage', 500)).message).toContain('option "per-page": expected a whole number from 1 to 100');
    expect(errorOf(() => parseOption('unreadCount', -1)).message).toContain('option "unread-count"');
  });

  it('points into the broadcasting object', () => {
    const missingKey = errorOf(() => parseOption('broadcasting', { broadcaster: 'ws-channels', wsPort: 6001 }));
    expect(missingKey.message).toContain('option "broadcasting.wsKey": expected the app key string');
    const badPort = errorOf(() => parseOption('broadcasting', { broadcaster: 'ws-channels', wsKey: 'k', wsPort: 70000 }));
    expect(badPort.message).toContain('"broadcasting.wsPort": expected a port number 1-65535');
    const unknown = errorOf(() => parseOption('broadcasting', { broadcaster: 'socket.io' }));
    expect(unknown.message).toContain(`option "broadcasting.broadcaster": expected 'ws-channels' (the default) or 'sse-hub' (got {"broadcaster":"socket.io"})`);
    expect(errorOf(() => parseOption('broadcasting', '{not json')).message).toContain(`option "broadcasting": expected false, or an object with wsKey`);
    expect(errorOf(() => parseOption('broadcasting', [{ wsKey: 'k' }])).message).toContain(`option "broadcasting": expected false, or an object`);
  });

  it("takes an object without broadcaster as 'ws-channels', the documented default", () => {
    expect(parseOption('broadcasting', { wsKey: 'app-key' })).toEqual({ broadcaster: 'ws-channels', wsKey: 'app-key', authEndpoint: '/broadcasting/auth' });
    expect(parseOption('broadcasting', { broadcaster: null, wsKey: 'app-key' })).toMatchObject({ broadcaster: 'ws-channels' });
    // Without broadcaster and without wsKey, the message names the missing ws-channels key.
    expect(errorOf(() => parseOption('broadcasting', { hubUrl: '/hub' })).message).toContain('option "broadcasting.wsKey"');
  });

  it('keeps broadcasting.userId and userName, numbers as their decimal string', () => {
    expect(parseOption('broadcasting', { wsKey: 'k', userId: 42, userName: 'Ada' })).toEqual({
      broadcaster: 'ws-channels',
      wsKey: 'k',
      authEndpoint: '/broadcasting/auth',
      userId: '42',
      userName: 'Ada',
    });
    expect(parseOption('broadcasting', { broadcaster: 'sse-hub', hubUrl: '/hub', userId: 'u-7', userName: 7 })).toEqual({
      broadcaster: 'sse-hub',
      hubUrl: '/hub',
      withCredentials: true,
      userId: 'u-7',
      userName: '7',
    });
    expect(errorOf(() => parseOption('broadcasting', { wsKey: 'k', userId: { id: 1 } })).message).toContain('option "broadcasting.userId": expected a string or a number');
    expect(errorOf(() => parseOption('broadcasting', { wsKey: 'k', userName: true })).message).toContain('option "broadcasting.userName"');
    expect(errorOf(() => parseOption('broadcasting', { wsKey: 'k', userId: Number.POSITIVE_INFINITY })).message).toContain('"broadcasting.userId"');
  });

  it('treats an empty user id as absent, at the top level and inside broadcasting', () => {
    expect(parseOption('userId', '')).toBeUndefined();
    expect(parseOption('userId', 42)).toBe('42');
    expect(parseOption('broadcasting', { wsKey: 'k', userId: '' })).not.toHaveProperty('userId');
  });

  it('fills defaults for absent (undefined or null) fields and drops unknown keys', () => {
    expect(parseOption('broadcasting', { wsKey: 'k', authEndpoint: null, extra: 'x' })).toEqual({ broadcaster: 'ws-channels', wsKey: 'k', authEndpoint: '/broadcasting/auth' });
    expect(parseOption('broadcasting', { broadcaster: 'sse-hub', hubUrl: '/hub', withCredentials: undefined })).toMatchObject({ withCredentials: true });
  });

  it('reads own keys only: a polluted Object.prototype does not configure the bell', () => {
    const proto = Object.prototype as Record<string, unknown>;
    proto.wsKey = 'polluted';
    try {
      expect(errorOf(() => parseOption('broadcasting', {})).message).toContain('"broadcasting.wsKey"');
    } finally {
      delete proto.wsKey;
    }
  });

  it('refuses an unknown option name with INVALID_OPTION, and cuts long values in messages', () => {
    expect(errorOf(() => parseOption('nope' as OptionName, 1)).message).toBe('<notification-bell> has no option "nope".');
    expect(errorOf(() => parseOption('__proto__' as OptionName, 1)).code).toBe('INVALID_OPTION');
    const message = errorOf(() => parseOption('mode', 'x'.repeat(100_000))).message;
    expect(message.length).toBeLessThan(400);
  });
});

/** Runtime shape of each option's type, to check that whatever parseOption returns is one of them. */
const isString = (value: unknown): value is string => typeof value === 'string';
const optionalString = (value: unknown) => value === undefined || isString(value);
const isWhole = (min: number, max: number) => (value: unknown) => typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;
const OPTIONAL_STRING_KEYS = ['userId', 'userName'] as const;

function isBroadcasting(value: unknown): boolean {
  if (value === false) return true;
  if (typeof value !== 'object' || value === null) return false;
  const config = value as Record<string, unknown>;
  const identity = OPTIONAL_STRING_KEYS.every((key) => optionalString(config[key])) && config.userId !== '';
  if (config.broadcaster === 'ws-channels') {
    const known = new Set(['broadcaster', 'wsKey', 'wsHost', 'wsPort', 'wsCluster', 'forceTLS', 'wsPath', 'authEndpoint', 'channel', ...OPTIONAL_STRING_KEYS]);
    return (
      identity &&
      Object.keys(config).every((key) => known.has(key)) &&
      isString(config.wsKey) &&
      config.wsKey !== '' &&
      isString(config.authEndpoint) &&
      config.authEndpoint !== '' &&
      ['wsHost', 'wsCluster', 'wsPath', 'channel'].every((key) => optionalString(config[key])) &&
      (config.wsPort === undefined || isWhole(1, 65_535)(config.wsPort)) &&
      (config.forceTLS === undefined || typeof config.forceTLS === 'boolean')
    );
  }
  if (config.broadcaster === 'sse-hub') {
    const known = new Set(['broadcaster', 'hubUrl', 'topic', 'authEndpoint', 'withCredentials', ...OPTIONAL_STRING_KEYS]);
    return (
      identity &&
      Object.keys(config).every((key) => known.has(key)) &&
      isString(config.hubUrl) &&
      config.hubUrl !== '' &&
      optionalString(config.topic) &&
      (config.authEndpoint === undefined || (isString(config.authEndpoint) && config.authEndpoint !== '')) &&
      typeof config.withCredentials === 'boolean'
    );
  }
  return false;
}

const inType: { [K in OptionName]: (value: unknown) => boolean } = {
  mode: (value) => value === 'dropdown' || value === 'panel',
  position: (value) => value === 'left' || value === 'right',
  theme: (value) => value === undefined || value === 'light' || value === 'dark',
  pollInterval: isWhole(1000, 86_400_000),
  enablePolling: (value) => typeof value === 'boolean',
  perPage: isWhole(1, 100),
  unreadCount: (value) => value === undefined || isWhole(0, Number.MAX_SAFE_INTEGER)(value),
  markReadOnClick: (value) => typeof value === 'boolean',
  userId: (value) => value === undefined || (isString(value) && value !== ''),
  userName: optionalString,
  broadcasting: isBroadcasting,
  apiBase: isString,
};
const OPTION_NAMES = Object.keys(defaultOptions) as OptionName[];

/** Anything a page or a JSON attribute can hand over, biased towards the shapes options look for. */
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.anything({ withBigInt: true, withBoxedValues: true, withMap: true, withSet: true, withNullPrototype: true, withObjectString: true, withSparseArray: true, withTypedArray: true }),
  fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, -0, 1e21, Number.MAX_SAFE_INTEGER + 2, '', ' ', 'false', 'dropdown', 'ws-channels', 'sse-hub'),
  fc.record(
    {
      broadcaster: fc.oneof(fc.constantFrom('ws-channels', 'sse-hub', 'pusher', undefined, null), fc.anything()),
      wsKey: fc.oneof(fc.string(), fc.anything()),
      wsPort: fc.oneof(fc.integer({ min: -10, max: 70_000 }), fc.double(), fc.anything()),
      forceTLS: fc.anything(),
      hubUrl: fc.oneof(fc.string(), fc.anything()),
      authEndpoint: fc.anything(),
      withCredentials: fc.anything(),
      userId: fc.oneof(fc.string(), fc.double(), fc.integer(), fc.anything()),
      userName: fc.oneof(fc.string(), fc.double(), fc.anything()),
      channel: fc.anything(),
    },
    { requiredKeys: [] },
  ),
);

describe('option validation against hostile values (property)', () => {
  it('for every option: returns a value of its type, or throws INVALID_OPTION naming the attribute; nothing else', () => {
    fc.assert(
      fc.property(fc.constantFrom(...OPTION_NAMES), hostileValue, (name, value) => {
        let result: BellOptions[OptionName];
        try {
          result = parseOption(name, value);
        } catch (error) {
          expect(error).toBeInstanceOf(NotificationBellError);
          expect((error as NotificationBellError).code).toBe('INVALID_OPTION');
          expect((error as NotificationBellError).message).toContain(`option "${attributeName(name)}`);
          return;
        }
        expect(inType[name](result), `${name} -> ${String(JSON.stringify(result))}`).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it('accepts every well-formed broadcasting object and keeps its identity fields as strings', () => {
    const wsConfig = fc.record(
      {
        broadcaster: fc.constant('ws-channels' as const),
        wsKey: fc.string({ minLength: 1 }),
        wsHost: fc.string(),
        wsPort: fc.integer({ min: 1, max: 65_535 }),
        forceTLS: fc.boolean(),
        userId: fc.oneof(fc.string({ minLength: 1 }), fc.integer()),
        userName: fc.oneof(fc.string(), fc.integer()),
      },
      { requiredKeys: ['wsKey'] },
    );
    fc.assert(
      fc.property(wsConfig, (input) => {
        const parsed = parseOption('broadcasting', input);
        expect(isBroadcasting(parsed)).toBe(true);
        if (parsed === false) throw new Error('expected a config');
        expect(parsed.broadcaster).toBe('ws-channels');
        if (input.userId !== undefined) expect(parsed.userId).toBe(String(input.userId));
        if (input.userName !== undefined) expect(parsed.userName).toBe(String(input.userName));
      }),
      { numRuns: 500 },
    );
  });
});
