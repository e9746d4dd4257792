import { describe, expect, it } from 'vitest';
import { installProcessPolicy } from './process-policy.js';

describe('the process policy for unexpected errors', () => {
  it('reports the first one, from either origin, and only counts those that follow', () => {
    const fatal: string[] = [];
    const further: string[] = [];
    const uninstall = installProcessPolicy({
      onFatal: (error, origin) => fatal.push(`${origin}: ${(error as Error).message}`),
      onFurther: (_error, origin) => further.push(origin),
      env: {},
    });
    try {
      process.emit('unhandledRejection', new Error('first'), Promise.resolve());
      process.emit('uncaughtException', new Error('second'));
      process.emit('unhandledRejection', 'not even an error', Promise.resolve());
    } finally {
      uninstall();
    }
    expect(fatal).toEqual(['unhandledRejection: first']);
    expect(further).toEqual(['uncaughtException', 'unhandledRejection']);
  });

  it('listens to SIGUSR2 only when the test hook is asked for', () => {
    const before = process.listenerCount('SIGUSR2');
    const off = installProcessPolicy({ onFatal() {}, env: {} });
    expect(process.listenerCount('SIGUSR2')).toBe(before);
    off();
    const offHook = installProcessPolicy({ onFatal() {}, env: { REALTIME_TEST_CRASH_ON_SIGNAL: 'throw' } });
    expect(process.listenerCount('SIGUSR2')).toBe(before + 1);
    offHook();
    expect(process.listenerCount('SIGUSR2')).toBe(before);
  });
});
