import { describe, expect, it } from 'vitest';
import { maxOutageAnnouncements, OutagePresence } from './outage-presence.js';

const alice = { appId: 'app', channel: 'presence-a', userId: 'alice' };

describe('presence changes remembered during an outage', () => {
  it('announces joins and leaves, but not a user who left and came back (or the reverse)', () => {
    const outage = new OutagePresence();
    outage.joined({ ...alice, userInfo: '{}' });
    outage.left({ ...alice, userId: 'bob' });
    outage.left({ ...alice, userId: 'carol' });
    outage.joined({ ...alice, userId: 'carol', userInfo: '{}' });
    outage.joined({ ...alice, userId: 'dave', userInfo: '{}' });
    outage.left({ ...alice, userId: 'dave' });
    expect(outage.take()).toEqual({ joined: [{ ...alice, userInfo: '{}' }], left: [{ ...alice, userId: 'bob' }] });
    expect(outage.take()).toEqual({ joined: [], left: [] });
  });

  it('keeps what a failed resync took for the next attempt', () => {
    const outage = new OutagePresence();
    outage.joined({ ...alice, userInfo: '{}' });
    const taken = outage.take();
    outage.left({ ...alice, userId: 'bob' });
    outage.restore(taken);
    expect(outage.take()).toEqual({ joined: [{ ...alice, userInfo: '{}' }], left: [{ ...alice, userId: 'bob' }] });
  });

  it('remembers at most maxOutageAnnouncements of each', () => {
    const outage = new OutagePresence();
    for (let i = 0; i <= maxOutageAnnouncements; i++) {
      outage.joined({ ...alice, userId: `j${i}`, userInfo: '{}' });
      outage.left({ ...alice, userId: `l${i}` });
    }
    const { joined, left } = outage.take();
    expect([joined.length, left.length]).toEqual([maxOutageAnnouncements, maxOutageAnnouncements]);
  });
});
