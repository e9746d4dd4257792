import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startCeilingServer, type CeilingServer } from './ceiling/ceiling-server.js';
import { readSentAt, timedData, triggerRequest } from './load/events.js';
import { HttpConnection } from './load/http-client.js';
import { PusherClient, type Endpoint } from './load/pusher-client.js';
import { benchApp, presenceChannelAuth, privateChannelAuth } from './load/signing.js';
import { subscribeMany } from './load/subscribers.js';
import { pumpClosedLoop } from './load/trigger-pump.js';
import { sleep } from './measure/stats.js';
import { daemonBin, startDaemon, type RunningTarget } from './targets/targets.js';

/**
 * Keeps the benchmark's parts from rotting: the load generator against both
 * servers on a small size. Counts and payloads are asserted, never timings.
 */
async function waitUntil(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(10);
  }
}

function behavesLikeAPusherServer(endpointOf: () => Endpoint) {
  test('20 subscribers each receive every HTTP trigger, with its sent_at readable from the raw frame', async () => {
    const endpoint = endpointOf();
    const group = await subscribeMany(endpoint, 20, () => 'smoke-fanout', { probeEvery: 5 });
    const http = await HttpConnection.open(endpoint);
    try {
      group.counter.recording = true;
      for (let i = 0; i < 5; i++) {
        const response = await http.fetch(triggerRequest(endpoint, benchApp, ['smoke-fanout'], 'tick', timedData('pad')));
        expect(response.status).toBe(200);
      }
      await waitUntil(() => group.counter.deliveries === 100);
      expect(group.counter.latency.count).toBe(20); // 4 probes x 5 events
      expect(group.counter.latency.percentile(1)).toBeGreaterThanOrEqual(0);
      expect(group.closedCount()).toBe(0);
    } finally {
      http.close();
      group.closeAll();
    }
  });

  test('the pipelined closed loop gets every request answered', async () => {
    const endpoint = endpointOf();
    const connections = await Promise.all([HttpConnection.open(endpoint), HttpConnection.open(endpoint)]);
    try {
      const request = triggerRequest(endpoint, benchApp, ['smoke-empty'], 'tick', '{}');
      const result = await pumpClosedLoop(connections, 8, 200, () => request);
      expect(result.failed).toBe(0);
      expect(result.ok).toBeGreaterThan(0);
      expect(connections.every((connection) => connection.inFlight === 0)).toBe(true);
    } finally {
      connections.forEach((connection) => connection.close());
    }
  });

  test('a client event on a private channel reaches the partner, not the sender', async () => {
    const endpoint = endpointOf();
    const [a, b] = await Promise.all([PusherClient.connect(endpoint, benchApp.key), PusherClient.connect(endpoint, benchApp.key)]);
    try {
      for (const client of [a!, b!]) await client.subscribe('private-smoke', { auth: privateChannelAuth(benchApp, client.socketId, 'private-smoke') });
      const received: Buffer[] = [];
      const echoed: Buffer[] = [];
      b!.onRawFrame = (buffer, start, end) => received.push(Buffer.from(buffer.subarray(start, end)));
      a!.onRawFrame = (buffer, start, end) => echoed.push(Buffer.from(buffer.subarray(start, end)));
      a!.sendText('{"event":"client-smoke","channel":"private-smoke","data":{"sent_at":12.5}}');
      await waitUntil(() => received.length === 1);
      expect(readSentAt(received[0]!)).toBe(12.5);
      await sleep(50);
      expect(echoed).toHaveLength(0);
    } finally {
      a!.destroy();
      b!.destroy();
    }
  });

  test('a presence join is announced to the observer with the new user id, and the leave too', async () => {
    const endpoint = endpointOf();
    const join = async (userId: string) => {
      const client = await PusherClient.connect(endpoint, benchApp.key);
      const channelData = JSON.stringify({ user_id: userId, user_info: {} });
      await client.subscribe('presence-smoke', { auth: presenceChannelAuth(benchApp, client.socketId, 'presence-smoke', channelData), channel_data: channelData });
      return client;
    };
    const observer = await join('observer');
    const events: string[] = [];
    observer.onFrame = (frame) => events.push(`${frame.event} ${String(frame.data)}`);
    const churner = await join('churner');
    try {
      churner.unsubscribe('presence-smoke');
      await waitUntil(() => events.length === 2);
      expect(events[0]).toMatch(/^pusher_internal:member_added .*"user_id":"churner"/);
      expect(events[1]).toMatch(/^pusher_internal:member_removed .*"user_id":"churner"/);
    } finally {
      observer.destroy();
      churner.destroy();
    }
  });
}

describe('against the raw uWebSockets.js ceiling', () => {
  let ceiling: CeilingServer;
  beforeAll(async () => {
    ceiling = await startCeilingServer({ host: '127.0.0.1', port: 0 });
  });
  afterAll(() => ceiling.close());
  behavesLikeAPusherServer(() => ({ host: '127.0.0.1', port: ceiling.port }));
});

describe('against the daemon (apps/server/dist)', () => {
  let daemon: RunningTarget;
  beforeAll(async () => {
    if (!existsSync(daemonBin())) throw new Error(`${daemonBin()} is missing: build with pnpm turbo run build --filter=@org/bench...`);
    daemon = await startDaemon({ cpu: undefined });
  });
  afterAll(async () => {
    await daemon?.stop();
  });
  behavesLikeAPusherServer(() => daemon.nodes[0]!);

  test('RSS and CPU of the server process are readable', () => {
    expect(daemon.rss()).toBeGreaterThan(1024 * 1024);
    expect(daemon.cpu()).toBeGreaterThan(0);
  });
});
