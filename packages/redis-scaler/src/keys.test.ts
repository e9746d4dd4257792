import { describe, expect, it } from 'vitest';
import { createKeys, socketMember } from './keys.js';

describe('key layout', () => {
  it('puts every key under the prefix', () => {
    const keys = createKeys('realtime:broadcast');
    expect(keys.bus).toBe('realtime:broadcast:bus');
    expect(keys.connections('app')).toBe('realtime:broadcast:app:app:conns');
    expect(keys.subscribers('app', 'presence-room')).toBe('realtime:broadcast:app:app:ch:presence-room:subs');
    expect(socketMember('node', '1.2')).toBe('node|1.2');
  });

  it('cannot be tricked into another app\'s keys by a `:` in an app id', () => {
    const keys = createKeys('p');
    expect(keys.subscribers('a:ch:b', 'c')).not.toBe(keys.subscribers('a', 'b:ch:c'));
    expect(keys.connections('a:b')).toBe('p:app:a%3Ab:conns');
  });
});
