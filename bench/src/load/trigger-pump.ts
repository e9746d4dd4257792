import { HttpConnection } from './http-client.js';
import type { Endpoint } from './pusher-client.js';
import { sleep } from '../measure/stats.js';
import type { DeliveryCounter } from './subscribers.js';

export interface PumpResult {
  /** Requests answered 2xx. */
  ok: number;
  /** Requests answered with another status (first status kept in `firstError`). */
  failed: number;
  firstError: string | undefined;
  /** Open loop only: requests not sent because too many were in flight. */
  shed: number;
  seconds: number;
}

export async function openHttpConnections(endpoint: Endpoint, count: number): Promise<HttpConnection[]> {
  return Promise.all(Array.from({ length: count }, () => HttpConnection.open(endpoint)));
}

function tally() {
  const result: PumpResult = { ok: 0, failed: 0, firstError: undefined, shed: 0, seconds: 0 };
  const onResponse = (status: number, body: Buffer) => {
    if (status >= 200 && status < 300) result.ok++;
    else {
      result.failed++;
      result.firstError ??= `${status} ${body.toString('utf8').slice(0, 200)}`;
    }
  };
  return { result, onResponse };
}

/**
 * Closed loop, like wrk: every connection keeps `depth` pipelined requests
 * in flight for `durationMs`; measures the server's maximum request rate.
 */
export async function pumpClosedLoop(connections: HttpConnection[], depth: number, durationMs: number, nextRequest: () => Buffer | string): Promise<PumpResult> {
  const { result, onResponse } = tally();
  let running = true;
  const started = performance.now();
  for (const connection of connections) {
    const refill = (status: number, body: Buffer) => {
      onResponse(status, body);
      if (running && !connection.failed) connection.send(nextRequest(), refill);
    };
    for (let i = 0; i < depth; i++) connection.send(nextRequest(), refill);
  }
  await sleep(durationMs);
  running = false;
  result.seconds = (performance.now() - started) / 1000;
  // Answers still arriving after the window are not counted in the rate.
  const counted = { ...result };
  await drain(connections);
  return counted;
}

/**
 * Open loop at `perSecond` requests for `durationMs`, spread over the
 * connections; sheds requests when `maxInFlight` are already waiting, so an
 * overloaded server shows as a lower achieved rate instead of an endless queue.
 */
export async function pumpAtRate(
  connections: HttpConnection[],
  perSecond: number,
  durationMs: number,
  maxInFlight: number,
  nextRequest: () => Buffer | string,
): Promise<PumpResult> {
  const { result, onResponse } = tally();
  const started = performance.now();
  let due = 0;
  let next = 0;
  const inFlight = () => connections.reduce((sum, connection) => sum + connection.inFlight, 0);
  while (performance.now() - started < durationMs) {
    const target = Math.floor(((performance.now() - started) / 1000) * perSecond);
    for (; due < target; due++) {
      if (inFlight() >= maxInFlight) {
        result.shed++;
        continue;
      }
      const connection = connections[next++ % connections.length]!;
      connection.send(nextRequest(), onResponse);
    }
    await sleep(1);
  }
  result.seconds = (performance.now() - started) / 1000;
  await drain(connections);
  return result;
}

/** Waits until every request sent has been answered (or 10 s passed). */
async function drain(connections: HttpConnection[], timeoutMs = 10_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (connections.some((connection) => connection.inFlight > 0 && !connection.failed) && performance.now() < deadline) await sleep(5);
}

/**
 * Flow-controlled loop for fan-out: sends the next trigger whenever fewer
 * than `windowEvents` events are still on their way to the subscribers
 * (judged by deliveries counted, `perEvent` per event). It measures the
 * most a server sustains end to end with bounded queueing, and a scheduling
 * hiccup only slows it down instead of snowballing into backpressure.
 */
export async function pumpWindowed(
  connections: HttpConnection[],
  counter: DeliveryCounter,
  perEvent: number,
  windowEvents: number,
  durationMs: number,
  nextRequest: () => Buffer | string,
): Promise<PumpResult & { deliveries: number }> {
  const { result, onResponse } = tally();
  const startDeliveries = counter.deliveries;
  let sent = 0;
  let next = 0;
  let running = true;
  const fill = () => {
    if (!running) return;
    const done = Math.floor((counter.deliveries - startDeliveries) / perEvent);
    for (; sent - done < windowEvents; sent++) connections[next++ % connections.length]!.send(nextRequest(), onResponse);
    // Wake when the oldest event in flight has been delivered everywhere.
    counter.wakeAt = startDeliveries + (sent - windowEvents + 1) * perEvent;
  };
  counter.onReach = fill;
  const started = performance.now();
  fill();
  await sleep(durationMs);
  running = false;
  const deliveries = counter.deliveries - startDeliveries;
  result.seconds = (performance.now() - started) / 1000;
  counter.onReach = undefined;
  counter.wakeAt = Number.POSITIVE_INFINITY;
  await drain(connections);
  return { ...result, deliveries };
}
