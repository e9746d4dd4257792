import { describe, expect, it } from 'vitest';
import { allCases } from './cases/index.js';
import { groupNames } from './groups.js';
import { selectCases } from './selection.js';

describe('the cases', () => {
  it('each have a unique id in their group and cite a Pusher documentation section (or say they are an extension)', () => {
    const ids = allCases.map((entry) => entry.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const entry of allCases) {
      expect(entry.id.startsWith(`${entry.group}.`), entry.id).toBe(true);
      if (entry.extension) expect(entry.docs, entry.id).toMatch(/not documented by Pusher/);
      else expect(entry.docs, entry.id).toMatch(/^channels\/[a-z_]+\/[a-z_-]+/);
    }
  });

  it('run in the order of the groups, every group having cases', () => {
    const order = [...new Set(allCases.map((entry) => entry.group))];
    expect(order).toEqual([...groupNames]);
  });

  it('only the extension group holds extensions', () => {
    expect(new Set(allCases.filter((entry) => entry.extension).map((entry) => entry.group))).toEqual(new Set(['idempotency']));
  });
});

describe('selectCases', () => {
  it('keeps the groups and ids of --only, minus those of --exclude', () => {
    const selected = selectCases(allCases, ['connection', 'http-api.bad-signature'], ['connection.ping-pong']);
    expect(selected.map((entry) => entry.id)).toEqual([
      ...allCases.filter((entry) => entry.group === 'connection' && entry.id !== 'connection.ping-pong').map((entry) => entry.id),
      'http-api.bad-signature',
    ]);
  });

  it('runs everything but the excluded when --only is empty', () => {
    expect(selectCases(allCases, [], ['idempotency']).some((entry) => entry.group === 'idempotency')).toBe(false);
  });

  it('refuses a name that is neither a group nor a case', () => {
    expect(() => selectCases(allCases, ['conection'], [])).toThrow(/--only: "conection" is neither a group/);
  });
});
