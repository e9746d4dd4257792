import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createKeys, socketMember } from './keys.js';

/** The part of a key Redis Cluster hashes (the rule of CLUSTER KEYSLOT): the first `{…}` with something inside. */
function hashedPart(key: string): string {
  const open = key.indexOf('{');
  if (open < 0) return key;
  const close = key.indexOf('}', open + 1);
  return close > open + 1 ? key.slice(open + 1, close) : key;
}

function everyKey(prefix: string, appId: string, channel: string, nodeId: string): string[] {
  const keys = createKeys(prefix);
  return [
    keys.bus,
    keys.nodes,
    keys.node(nodeId),
    keys.connections(appId),
    keys.channels(appId),
    keys.subscribers(appId, channel),
    keys.presenceSockets(appId, channel),
    keys.presenceUsers(appId, channel),
    keys.presenceInfo(appId, channel),
    keys.cache(appId, channel),
    keys.online(appId),
    keys.signins(appId, channel),
  ];
}

describe('key layout', () => {
  it('puts every key under the prefix, in one hash tag', () => {
    const keys = createKeys('realtime:broadcast');
    expect(keys.bus).toBe('{realtime:broadcast}:bus');
    expect(keys.nodes).toBe('{realtime:broadcast}:nodes');
    expect(keys.connections('app')).toBe('{realtime:broadcast}:app:app:conns');
    expect(keys.subscribers('app', 'presence-room')).toBe('{realtime:broadcast}:app:app:ch:presence-room:subs');
    expect(socketMember('node', '1.2')).toBe('node|1.2');
  });

  it('cannot be tricked into another app\'s keys by a `:` in an app id', () => {
    const keys = createKeys('p');
    expect(keys.subscribers('a:ch:b', 'c')).not.toBe(keys.subscribers('a', 'b:ch:c'));
    expect(keys.connections('a:b')).toBe('{p}:app:a%3Ab:conns');
  });

  it('hashes every key of a deployment to the same slot, whatever the app, channel or node (so one script may touch them all)', () => {
    // Prefixes as the options accept them: printable ASCII without braces.
    const prefix = fc.stringMatching(/^[\x21-\x7a|~]{1,30}$/);
    fc.assert(
      fc.property(prefix, fc.string(), fc.string(), fc.stringMatching(/^[A-Za-z0-9._:@-]{1,20}$/), (p, appId, channel, nodeId) => {
        for (const key of everyKey(p, appId, channel, nodeId)) expect(hashedPart(key)).toBe(p);
      }),
    );
  });

  it('keeps braces of app ids and channel names out of the hashed part (they are percent-encoded)', () => {
    const keys = createKeys('p');
    expect(keys.subscribers('{x}', '{y}')).toBe('{p}:app:%7Bx%7D:ch:%7By%7D:subs');
  });

  it('names a key for any string, lone UTF-16 surrogates included, one key per string (a user id in a sign-in key)', () => {
    const keys = createKeys('p');
    expect(keys.signins('app', '\ud800')).toBe('{p}:app:app:user:%uD800:signins');
    expect(keys.signins('app', 'a\udc00\ud83d\ude00')).toBe('{p}:app:app:user:a%uDC00%F0%9F%98%80:signins');
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' }), (one, other) => {
        fc.pre(one !== other);
        expect(keys.signins('app', one)).not.toBe(keys.signins('app', other));
        expect(hashedPart(keys.signins(one, other))).toBe('p');
      }),
    );
  });
});
