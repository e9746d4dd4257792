import { describe, expect, it } from 'vitest';
import { createKeys } from './keys.js';
import { Topics } from './topics.js';

describe('which topic a cluster message travels on', () => {
  const topics = new Topics(createKeys('realtime:broadcast'));

  it('puts a channel\'s broadcasts, member events and count signals on the channel\'s topic, untagged', () => {
    const topic = 'realtime:broadcast:c:app-1:presence-room';
    expect(topics.of({ type: 'broadcast', appId: 'app-1', channel: 'presence-room', frame: '{}' })).toBe(topic);
    expect(topics.of({ type: 'member-added', appId: 'app-1', channel: 'presence-room', userId: 'u', userInfo: '{}' })).toBe(topic);
    expect(topics.of({ type: 'member-removed', appId: 'app-1', channel: 'presence-room', userId: 'u' })).toBe(topic);
    expect(topics.of({ type: 'subscription-count-changed', appId: 'app-1', channel: 'presence-room' })).toBe(topic);
    expect(topic).not.toMatch(/[{}]/);
    expect(topics.kind(topic)).toBe('channel');
  });

  it('keeps node-wide messages on the bus: terminate-user, restart, #server-to-user- broadcasts', () => {
    expect(topics.of({ type: 'terminate-user', appId: 'app-1', userId: 'u' })).toBe(topics.bus);
    expect(topics.of({ type: 'restart' })).toBe(topics.bus);
    expect(topics.of({ type: 'broadcast', appId: 'app-1', channel: '#server-to-user-u', frame: '{}' })).toBe(topics.bus);
    expect(topics.bus).toBe('{realtime:broadcast}:bus');
    expect(topics.kind(topics.bus)).toBe('node');
  });

  it('cannot be tricked into another app\'s or channel\'s topic by a `:` or a brace (both URI-encoded)', () => {
    expect(topics.channel('a:b', 'c')).not.toBe(topics.channel('a', 'b:c'));
    expect(topics.channel('{x}', 'private-{y}')).toBe('realtime:broadcast:c:%7Bx%7D:private-%7By%7D');
  });
});
