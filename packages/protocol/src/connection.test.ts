import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createApp } from './app.js';
import { inChannelOrder } from './channel-order.js';
import { ConnectionRecord } from './connection.js';

const app = createApp({ id: '1', key: 'key', secret: 'secret' });
const record = () => new ConnectionRecord('1.1', app, undefined, 1_000);

describe('a connection record', () => {
  it('keeps its memberships like a map, whichever channel comes and goes first', () => {
    const ops = fc.array(fc.record({ add: fc.boolean(), channel: fc.constantFrom('a', 'b', 'c', 'd') }), { maxLength: 40 });
    fc.assert(
      fc.property(ops, (steps) => {
        const connection = record();
        const model = new Map<string, unknown>();
        for (const { add, channel } of steps) {
          const existing = connection.membership(channel);
          expect(existing).toBe(model.get(channel));
          if (add && !existing) model.set(channel, connection.addMembership(channel));
          if (!add && existing) {
            expect(connection.removeMembership(existing)).toBe(true);
            model.delete(channel);
          }
          expect(connection.channelCount).toBe(model.size);
          expect(connection.channelNames().sort()).toEqual([...model.keys()].sort());
        }
        expect(connection.takeMemberships().map((m) => m.channel).sort()).toEqual([...model.keys()].sort());
        expect(connection.channelCount).toBe(0);
      }),
    );
  });

  it('removes only the membership it is given, not a newer one of the same channel', () => {
    const connection = record();
    const first = connection.addMembership('room');
    expect(connection.removeMembership(first)).toBe(true);
    const second = connection.addMembership('room');
    expect(connection.removeMembership(first)).toBe(false);
    expect(connection.membership('room')).toBe(second);
  });

  it('tells whether it joined any presence channel as a user', () => {
    const connection = record();
    connection.addMembership('presence-a');
    connection.addMembership('presence-b').presenceUserId = 'ann';
    expect(connection.presentAs('ann')).toBe(true);
    expect(connection.presentAs('bob')).toBe(false);
  });

  it('keeps no map of channel operations once they have settled', async () => {
    const connection = record();
    let release: () => void = () => undefined;
    const first = inChannelOrder(connection, 'a', () => new Promise<void>((resolve) => (release = resolve)));
    const second = inChannelOrder(connection, 'a', async () => undefined);
    expect(connection.channelOps?.size).toBe(1);
    release();
    await Promise.all([first, second]);
    expect(connection.channelOps).toBeUndefined();
  });
});
