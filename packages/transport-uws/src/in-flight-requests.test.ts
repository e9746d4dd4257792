import { afterEach, describe, expect, it, vi } from 'vitest';
import { InFlightRequests } from './in-flight-requests.js';

afterEach(() => vi.useRealTimers());

const day = 24 * 60 * 60 * 1000;
/** Waiters are told the loop turn after the last request settled (once uWS has written its answer). */
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('waiting for the requests in flight', () => {
  it('tells every waiter when the last request settles, not before', async () => {
    const requests = new InFlightRequests();
    requests.started();
    requests.started();
    const outcomes: boolean[] = [];
    void requests.drained(Date.now() + 60_000).then((drained) => outcomes.push(drained));
    void requests.drained(Date.now() + 60_000).then((drained) => outcomes.push(drained));
    requests.settled();
    await nextTurn();
    expect(outcomes).toEqual([]);
    requests.settled();
    expect(outcomes).toEqual([]);
    await nextTurn();
    expect(outcomes).toEqual([true, true]);
    expect(requests.count).toBe(0);
  });

  it('never counts below zero, so a request settled twice does not hide the next one from a drain', async () => {
    const requests = new InFlightRequests();
    requests.started();
    requests.settled();
    requests.settled();
    expect(requests.count).toBe(0);
    requests.started();
    const outcomes: boolean[] = [];
    void requests.drained(Date.now() + 60_000).then((drained) => outcomes.push(drained));
    await nextTurn();
    await nextTurn();
    expect(outcomes).toEqual([]);
    requests.settled();
    await nextTurn();
    await nextTurn();
    expect(outcomes).toEqual([true]);
  });

  it('goes on waiting when a request starts in the turn between the last settle and the answer', async () => {
    const requests = new InFlightRequests();
    requests.started();
    const outcomes: boolean[] = [];
    void requests.drained(Date.now() + 60_000).then((drained) => outcomes.push(drained));
    requests.settled();
    requests.started();
    await nextTurn();
    await nextTurn();
    expect(outcomes).toEqual([]);
    requests.settled();
    await nextTurn();
    expect(outcomes).toEqual([true]);
  });

  it('answers true when nothing is in flight, even with a deadline already past', async () => {
    const requests = new InFlightRequests();
    await expect(requests.drained(Date.now() - 1)).resolves.toBe(true);
  });

  it('waits out a deadline further away than the longest timer (about 24.8 days) instead of giving up at once', async () => {
    vi.useFakeTimers();
    const requests = new InFlightRequests();
    requests.started();
    let outcome: boolean | undefined;
    void requests.drained(Date.now() + 30 * day).then((drained) => (outcome = drained));
    await vi.advanceTimersByTimeAsync(29 * day);
    expect(outcome).toBeUndefined();
    await vi.advanceTimersByTimeAsync(day);
    expect(outcome).toBe(false);
  });

  it('waits for as long as it takes with an Infinity deadline', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'Date'] });
    const requests = new InFlightRequests();
    requests.started();
    let outcome: boolean | undefined;
    void requests.drained(Infinity).then((drained) => (outcome = drained));
    await vi.advanceTimersByTimeAsync(100 * day);
    expect(outcome).toBeUndefined();
    requests.settled();
    await nextTurn();
    expect(outcome).toBe(true);
  });
});
