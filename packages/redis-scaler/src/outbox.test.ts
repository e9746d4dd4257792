import { describe, expect, it } from 'vitest';
import { Outbox, type OutboxEntry } from './outbox.js';

const entry = (body: string, at = 0): OutboxEntry => ({ body, bytes: Buffer.byteLength(body), at });
const bodies = (entries: OutboxEntry[]) => entries.map((e) => e.body);
/** An entry sent once (numbered), as the publisher puts it back. */
const numbered = (body: string, seq: number): OutboxEntry => ({ ...entry(body), payload: `${seq}:${body}`, seq });

describe('the outbox', () => {
  it('gives messages back oldest first, in batches bounded by count and bytes', () => {
    const outbox = new Outbox(1_000, 60_000);
    for (let i = 0; i < 10; i++) outbox.push(entry(`m${i}`), 0);
    expect(outbox.size).toBe(10);
    expect(outbox.bytes).toBe(20);
    expect(bodies(outbox.take(3, 1_000, 0))).toEqual(['m0', 'm1', 'm2']);
    expect(bodies(outbox.take(100, 4, 0))).toEqual(['m3', 'm4']);
    expect(bodies(outbox.take(100, 1, 0))).toEqual(['m5']); // at least one, whatever its size
    expect(bodies(outbox.take(100, 1_000, 0))).toEqual(['m6', 'm7', 'm8', 'm9']);
    expect(outbox.size + outbox.bytes).toBe(0);
  });

  it('drops the oldest past the byte bound and counts them', () => {
    const outbox = new Outbox(10, 60_000);
    for (let i = 0; i < 8; i++) outbox.push(entry(`m${i}`), 0);
    expect(outbox.dropped).toBe(3);
    expect(outbox.bytes).toBe(10);
    expect(bodies(outbox.take(100, 100, 0))).toEqual(['m3', 'm4', 'm5', 'm6', 'm7']);
  });

  it('drops a message larger than the whole bound at once', () => {
    const outbox = new Outbox(10, 60_000);
    outbox.push(entry('small'), 0);
    outbox.push(entry('x'.repeat(11)), 0);
    expect(outbox.size).toBe(0);
    expect(outbox.dropped).toBe(2);
  });

  it('drops messages older than the age bound when a message arrives or a batch is taken', () => {
    const outbox = new Outbox(1_000, 1_000);
    outbox.push(entry('old', 0), 0);
    outbox.push(entry('mid', 500), 500);
    outbox.push(entry('new', 1_200), 1_200);
    expect(bodies(outbox.take(100, 1_000, 1_200))).toEqual(['mid', 'new']);
    outbox.push(entry('later', 1_300), 1_300);
    expect(outbox.take(100, 1_000, 5_000)).toEqual([]);
    expect(outbox.dropped).toBe(2);
  });

  it('puts unconfirmed messages back in front, in their order', () => {
    const outbox = new Outbox(1_000, 60_000);
    outbox.push(entry('c'), 0);
    outbox.requeue([numbered('a', 1), numbered('b', 2)], 0);
    expect(bodies(outbox.take(100, 1_000, 0))).toEqual(['a', 'b', 'c']);
  });

  it('merges messages put back with those put back before in the order of their sequence numbers, ahead of those never sent', () => {
    const outbox = new Outbox(1_000, 60_000);
    outbox.push(entry('held'), 0);
    outbox.requeue([numbered('in-flight-5', 5), numbered('in-flight-6', 6)], 0);
    // Confirmed before them, put back later (the outage was noticed after their PUBLISH failed).
    outbox.requeue([numbered('confirmed-3', 3), numbered('confirmed-4', 4)], 0);
    expect(bodies(outbox.take(100, 1_000, 0))).toEqual(['confirmed-3', 'confirmed-4', 'in-flight-5', 'in-flight-6', 'held']);
  });

  it('does not count messages confirmed before the outage when it drops or clears them', () => {
    const outbox = new Outbox(12, 60_000);
    outbox.requeue([{ ...numbered('confirmed-1', 1), confirmed: true }, { ...numbered('confirmed-2', 2), confirmed: true }], 0);
    outbox.push(entry('held-3'), 0);
    outbox.push(entry('held-4'), 0);
    expect(outbox.dropped).toBe(0); // past 12 bytes both confirmed ones went, uncounted
    expect(bodies(outbox.take(100, 1_000, 0))).toEqual(['held-3', 'held-4']);
    const closing = new Outbox(1_000, 60_000);
    closing.requeue([{ ...numbered('confirmed-5', 5), confirmed: true }, numbered('unconfirmed-6', 6)], 0);
    expect(closing.clear()).toBe(1);
  });

  it('puts announcements behind messages already numbered (sent once, put back) but ahead of those never sent', () => {
    const outbox = new Outbox(1_000, 60_000);
    outbox.requeue([numbered('sent-1', 1), numbered('sent-2', 2)], 0);
    outbox.push(entry('held'), 0);
    outbox.insertBeforeUnsent([entry('announce')], 0);
    expect(bodies(outbox.take(100, 1_000, 0))).toEqual(['sent-1', 'sent-2', 'announce', 'held']);
    outbox.push(entry('held-2'), 0);
    outbox.insertBeforeUnsent([entry('announce-2')], 0);
    expect(bodies(outbox.take(100, 1_000, 0))).toEqual(['announce-2', 'held-2']);
    expect(outbox.bytes).toBe(0);
  });

  it('holds nothing when a bound is 0 (disabled), counting every message as dropped', () => {
    for (const outbox of [new Outbox(0, 60_000), new Outbox(1_000, 0)]) {
      outbox.push(entry('a'), 0);
      expect(outbox.size).toBe(0);
      expect(outbox.dropped).toBe(1);
    }
  });

  it('keeps order and accounting over many pushes and takes', () => {
    const outbox = new Outbox(1_000_000, 60_000);
    let next = 0;
    let expected = 0;
    for (let round = 0; round < 50; round++) {
      for (let i = 0; i < 100; i++) outbox.push(entry(String(next++)), 0);
      for (const taken of outbox.take(70, 1_000_000, 0)) expect(taken.body).toBe(String(expected++));
    }
    expect(outbox.size).toBe(next - expected);
    expect(outbox.clear()).toBe(next - expected);
    expect(outbox.bytes).toBe(0);
  });
});
