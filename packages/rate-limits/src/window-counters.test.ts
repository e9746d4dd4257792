import { readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import fc from 'fast-check';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { MAX_POINTS_PER_WINDOW, WindowCounters } from './window-counters.js';

/** A time `second` s and `ms` ms after 2026-01-01. */
const at = (second: number, ms = 0) => Date.UTC(2026, 0, 1) + second * 1000 + ms;

describe('WindowCounters', () => {
  it('spends points per slot within the window and refuses what does not fit, spending nothing', () => {
    const counters = new WindowCounters(2);
    expect(counters.tryConsume(0, 2, 3, at(10))).toBe(true);
    expect(counters.tryConsume(0, 2, 3, at(10, 500))).toBe(false); // 4 > 3: refused, nothing spent
    expect(counters.tryConsume(0, 1, 3, at(10, 999))).toBe(true); // so the last point still fits
    expect(counters.tryConsume(0, 1, 3, at(10, 999))).toBe(false);
    expect(counters.tryConsume(1, 3, 3, at(10, 999))).toBe(true); // another slot has its own window
  });

  it('opens a window at the first spend, for one second, and a new one at the next spend after it', () => {
    const counters = new WindowCounters(1);
    expect(counters.tryConsume(0, 5, 5, at(10, 700))).toBe(true);
    expect(counters.tryConsume(0, 1, 5, at(11, 699))).toBe(false); // 999 ms in: the same window, not the next wall-clock second
    expect(counters.tryConsume(0, 5, 5, at(11, 700))).toBe(true); // 1,000 ms in: a new window, opened now
    expect(counters.tryConsume(0, 1, 5, at(12, 600))).toBe(false);
    expect(counters.tryConsume(0, 5, 5, at(500))).toBe(true); // after a gap
    expect(counters.tryConsume(0, 5, 5, at(400))).toBe(true); // the clock stepped back: a window opens at the earlier time
    expect(counters.tryConsume(0, 1, 5, at(400, 999))).toBe(false);
  });

  it('refuses a request worth more points than the limit, and caps a limit beyond 24 bits', () => {
    const counters = new WindowCounters(1);
    expect(counters.tryConsume(0, 4, 3, at(1))).toBe(false);
    expect(counters.tryConsume(0, MAX_POINTS_PER_WINDOW, Number.MAX_SAFE_INTEGER, at(1))).toBe(true);
    expect(counters.tryConsume(0, 1, Number.MAX_SAFE_INTEGER, at(1))).toBe(false);
    expect(counters.tryConsume(0, 1, Number.MAX_SAFE_INTEGER, at(2))).toBe(true);
    expect(counters.tryConsume(0, MAX_POINTS_PER_WINDOW + 1, Number.MAX_SAFE_INTEGER, at(9))).toBe(false);
  });

  it('counts a spend whose clock was read just before another thread opened the window in that window', () => {
    // The race the review found: a thread read the clock at 10.999 s, another opened a window at 11.000 s and
    // spent the limit; the late thread must not take the window for a clock stepped back and reset it.
    const counters = new WindowCounters(1);
    expect(counters.tryConsume(0, 3, 3, at(10))).toBe(true);
    expect(counters.tryConsume(0, 3, 3, at(11))).toBe(true);
    expect(counters.tryConsume(0, 1, 3, at(10, 999))).toBe(false);
    expect(counters.tryConsume(0, 1, 3, at(10, 1))).toBe(false);
    expect(counters.tryConsume(0, 1, 3, at(10))).toBe(true); // a full window back: the clock stepped back, a new window
  });

  it('works with any clock: before 1970, before 2025, after 2059, and across the wrap of its 40-bit clock', () => {
    for (const base of [-5_000_000, 0, Date.UTC(2024, 0, 1), Date.UTC(2060, 0, 1), Date.UTC(2200, 0, 1), 2 ** 40 - 500, 2 ** 41 - 1]) {
      const counters = new WindowCounters(1);
      expect([1, 2, 3].map(() => counters.tryConsume(0, 1, 2, base)), String(base)).toEqual([true, true, false]);
      expect(counters.tryConsume(0, 1, 2, base + 999), String(base)).toBe(false);
      expect([1, 2, 3].map(() => counters.tryConsume(0, 1, 2, base + 1_000)), String(base)).toEqual([true, true, false]);
      expect([1, 2, 3].map(() => counters.tryConsume(0, 1, 2, base + 10_000)), String(base)).toEqual([true, true, false]);
    }
  });

  it('refuses a shared buffer of the wrong size', () => {
    expect(() => new WindowCounters(3, new SharedArrayBuffer(WindowCounters.bytesFor(2)))).toThrow(/16 bytes, 24 expected for 3 slots/);
  });

  it('agrees step by step with a reference model for random consumes, slots and clocks', () => {
    const step = fc.record({
      slot: fc.nat({ max: 3 }),
      points: fc.integer({ min: 1, max: 20 }),
      limit: fc.integer({ min: 1, max: 40 }),
      // Mostly the same or the next second; sometimes a jump, forward or back.
      advanceMs: fc.oneof(fc.integer({ min: 0, max: 400 }), fc.integer({ min: -5_000, max: 100_000 })),
    });
    fc.assert(
      fc.property(fc.array(step, { maxLength: 200 }), fc.integer({ min: -100 * 365 * 86_400, max: 100 * 365 * 86_400 }), (steps, startSecond) => {
        const counters = new WindowCounters(4);
        const model = new Map<number, { start: number; spent: number }>();
        let now = at(startSecond);
        for (const { slot, points, limit, advanceMs } of steps) {
          now += advanceMs;
          const window = model.get(slot);
          const open = window !== undefined && Math.abs(now - window.start) < 1_000;
          const spent = open ? window.spent : 0;
          const fits = spent + points <= limit;
          if (fits) model.set(slot, { start: open ? window.start : now, spent: spent + points });
          expect(counters.tryConsume(slot, points, limit, now)).toBe(fits);
        }
      }),
    );
  });

  it('holds one limit for threads spending from one shared buffer at the same time', async () => {
    // The class itself, transpiled, in each worker: the test runs the shipped code, not a copy.
    const source = ts.transpileModule(readFileSync(new URL('./window-counters.ts', import.meta.url), 'utf8'), {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    }).outputText;
    const driver = `
      import { parentPort, workerData } from 'node:worker_threads';
      const { buffer, start, tries, limit, now } = workerData;
      const counters = new WindowCounters(2, buffer);
      const gate = new Int32Array(start);
      Atomics.add(gate, 1, 1);
      Atomics.wait(gate, 0, 0); // every thread waits here, then all spend at once
      let allowed = 0;
      for (let i = 0; i < tries; i++) if (counters.tryConsume(i % 2, 1, limit, now)) allowed++;
      parentPort.postMessage(allowed);`;
    const module = new URL(`data:text/javascript,${encodeURIComponent(`${source}\n${driver}`)}`);

    const threads = 3;
    const tries = 40_000;
    const limit = 30_000; // per slot; 60,000 offered per slot
    const buffer = new SharedArrayBuffer(WindowCounters.bytesFor(2));
    const start = new SharedArrayBuffer(8);
    const gate = new Int32Array(start);
    const now = at(1_000);
    const workers = Array.from({ length: threads }, () => new Worker(module, { workerData: { buffer, start, tries, limit, now } }));
    const results = workers.map((worker) => new Promise<number>((resolve, reject) => worker.once('message', resolve).once('error', reject)));
    while (Atomics.load(gate, 1) < threads) await new Promise((resolve) => setTimeout(resolve, 5));
    Atomics.store(gate, 0, 1);
    Atomics.notify(gate, 0);
    const allowed = await Promise.all(results);
    await Promise.all(workers.map((worker) => worker.terminate()));

    expect(allowed.reduce((sum, n) => sum + n, 0)).toBe(2 * limit);
    const mine = new WindowCounters(2, buffer);
    expect(mine.tryConsume(0, 1, limit, now)).toBe(false);
    expect(mine.tryConsume(1, 1, limit, now)).toBe(false);
  }, 30_000);
});
