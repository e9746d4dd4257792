import { describe, expect, it } from 'vitest';
import { NotificationBellError } from './errors.js';
import { parseOption } from './options.js';

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
    expect(unknown.message).toContain('option "broadcasting');
    expect(errorOf(() => parseOption('broadcasting', '{not json')).message).toContain(`expected false, or an object with broadcaster 'ws-channels'`);
  });
});
