import { describe, expect, it } from 'vitest';
import { safeUrlForLogs, targetAccepts, toWebhookTarget } from './webhook-target.js';

describe('webhook targets', () => {
  it('accepts every event type when none are configured, only the listed ones otherwise', () => {
    const all = toWebhookTarget({ url: 'http://127.0.0.1/hook' });
    const some = toWebhookTarget({ url: 'http://127.0.0.1/hook', event_types: ['member_added'] });
    expect(targetAccepts(all, { name: 'cache_miss', channel: 'cache-x' })).toBe(true);
    expect(targetAccepts(some, { name: 'cache_miss', channel: 'cache-x' })).toBe(false);
    expect(targetAccepts(some, { name: 'member_added', channel: 'presence-x', user_id: '1' })).toBe(true);
  });

  it('needs both channel name filters to match when both are set', () => {
    const target = toWebhookTarget({ url: 'http://127.0.0.1/hook', filter: { channel_name_starts_with: 'private-', channel_name_ends_with: '-eu' } });
    expect(targetAccepts(target, { name: 'channel_occupied', channel: 'private-orders-eu' })).toBe(true);
    expect(targetAccepts(target, { name: 'channel_occupied', channel: 'private-orders-us' })).toBe(false);
    expect(targetAccepts(target, { name: 'channel_occupied', channel: 'orders-eu' })).toBe(false);
  });

  it('drops configured headers that would replace the signature headers, in any case', () => {
    const target = toWebhookTarget({ url: 'http://127.0.0.1/hook', headers: { 'X-PUSHER-SIGNATURE': 'x', 'content-type': 'x', Authorization: 'Bearer t' } });
    expect(target.headers).toEqual({ Authorization: 'Bearer t' });
  });

  it('logs a URL without its credentials or query, where tokens live', () => {
    expect(safeUrlForLogs('https://user:pw@hooks.example.com:8443/in/abc?token=s3cret#x')).toBe('https://hooks.example.com:8443/in/abc');
  });

  it('logs URLs by @org/secret-masking\'s rule: a password holding / or @ stays out, and so does all but the scheme when an @ may end a query value', () => {
    expect(safeUrlForLogs('https://user:p/w@d@hooks.example.com/in')).toBe('https://hooks.example.com/in');
    expect(safeUrlForLogs('https://hooks.example.com/in?next=a@Zq9SecretValue')).toBe('https://[redacted]');
    expect(toWebhookTarget({ url: 'https://user:pw@hooks.example.com/in?token=s3cret' }).logName).toBe('https://hooks.example.com/in');
  });
});
