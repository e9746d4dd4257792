import type { ClusterMessage } from '@org/protocol';
import { describe, expect, it } from 'vitest';
import { decodeMessage, encodeMessage, ownMessagePrefix } from './bus-codec.js';

describe('bus codec', () => {
  it('round-trips every cluster message type', () => {
    const messages: ClusterMessage[] = [
      { type: 'broadcast', appId: 'a', channel: 'c', frame: '{"event":"e","data":"{\\"x\\":1}"}' },
      { type: 'broadcast', appId: 'a', channel: 'c', frame: '{}', exceptSocketId: '1.2' },
      { type: 'member-added', appId: 'a', channel: 'presence-c', userId: 'u', userInfo: '{"n":1}' },
      { type: 'member-added', appId: 'a', channel: 'presence-c', userId: 'u', userInfo: '{}', exceptSocketId: '1.2' },
      { type: 'member-removed', appId: 'a', channel: 'presence-c', userId: 'u' },
      { type: 'subscription-count-changed', appId: 'a', channel: 'c' },
      { type: 'terminate-user', appId: 'a', userId: 'u' },
      { type: 'user-online', appId: 'a', userId: 'u' },
      { type: 'user-offline', appId: 'a', userId: 'u' },
      { type: 'restart' },
    ];
    for (const message of messages) expect(decodeMessage(encodeMessage('node-1', message))).toEqual(message);
  });

  it('refuses member messages with a missing or mistyped field', () => {
    const bad = [
      { type: 'member-added', appId: 'a', channel: 'c', userId: 'u' },
      { type: 'member-added', appId: 'a', channel: 'c', userId: 1, userInfo: '{}' },
      { type: 'member-added', appId: 'a', channel: 'c', userId: 'u', userInfo: '{}', exceptSocketId: 5 },
      { type: 'member-removed', appId: 'a', channel: null, userId: 'u' },
    ];
    for (const message of bad) expect(decodeMessage(encodeMessage('n', message as unknown as ClusterMessage))).toBeUndefined();
  });

  it('refuses a subscription-count-changed with a missing or mistyped field, and drops any field it does not know (a count above all)', () => {
    const bad = [
      { type: 'subscription-count-changed', appId: 'a' },
      { type: 'subscription-count-changed', channel: 'c' },
      { type: 'subscription-count-changed', appId: 1, channel: 'c' },
      { type: 'subscription-count-changed', appId: 'a', channel: ['c'] },
    ];
    for (const message of bad) expect(decodeMessage(encodeMessage('n', message as unknown as ClusterMessage))).toBeUndefined();
    const extra = { type: 'subscription-count-changed', appId: 'a', channel: 'c', count: 5 } as unknown as ClusterMessage;
    expect(decodeMessage(encodeMessage('n', extra))).toEqual({ type: 'subscription-count-changed', appId: 'a', channel: 'c' });
  });

  it('carries the frame as a string, escaped once, so receivers forward it untouched', () => {
    const frame = '{"event":"e","channel":"c","data":"{\\"ü\\":1}"}';
    const payload = encodeMessage('n', { type: 'broadcast', appId: 'a', channel: 'c', frame });
    expect(payload).toContain(JSON.stringify(frame));
    const decoded = decodeMessage(payload);
    expect(decoded?.type === 'broadcast' && decoded.frame).toBe(frame);
  });

  it('marks a node\'s own messages by a prefix that other node ids do not share', () => {
    const payload = encodeMessage('node-1', { type: 'restart' });
    expect(payload.startsWith(ownMessagePrefix('node-1'))).toBe(true);
    expect(payload.startsWith(ownMessagePrefix('node-10'))).toBe(false);
    expect(payload.startsWith(ownMessagePrefix('node-'))).toBe(false);
  });

  it.each(['not json', 'null', '{"n":"x"}', '{"n":"x","m":{"type":"unknown"}}', '{"n":"x","m":{"type":"broadcast","appId":1,"channel":"c","frame":"f"}}', '{"n":"x","m":{"type":"broadcast","appId":"a","channel":"c","frame":"f","exceptSocketId":5}}', '{"n":"x","m":{"type":"terminate-user","appId":"a"}}', '{"n":"x","m":{"type":"user-online","appId":"a"}}', '{"n":"x","m":{"type":"user-offline","appId":"a","userId":7}}', '{"n":"x","m":{"type":"user-online","appId":["a"],"userId":"u"}}'])(
    'ignores the malformed payload %s',
    (payload) => {
      expect(decodeMessage(payload)).toBeUndefined();
    },
  );
});
