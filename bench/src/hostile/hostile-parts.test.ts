import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PusherClient } from '../load/pusher-client.js';
import { benchApp } from '../load/signing.js';
import { daemonBin } from '../targets/targets.js';
import { attack } from './attacker.js';
import { Bystander } from './bystander.js';
import { HostileDaemon } from './daemon-process.js';
import { Inspector } from './inspector.js';
import { RedisProbe } from './redis-probe.js';

/**
 * Keeps hostile-connection's parts from rotting, against the built daemon at
 * its default limits: counts and close codes are asserted, never timings.
 */
describe.skipIf(!existsSync(daemonBin()) && process.env['CI'] !== 'true')('hostile-connection parts against the daemon', () => {
  let daemon: HostileDaemon;

  beforeAll(async () => {
    daemon = await HostileDaemon.start({ unbounded: false, redisUrl: undefined, cpu: undefined, inspect: true });
  });

  afterAll(async () => {
    await daemon?.stop();
  });

  test('a flooding attacker is closed with 4100 holding at most max_channels_per_connection channels', async () => {
    const client = await PusherClient.connect(daemon.endpoint, benchApp.key);
    const result = await attack(client, { count: 1_000, timeoutMs: 10_000, batch: 1_000, intervalMs: 0 });
    expect(result.outcome).toBe('closed');
    expect(result.closeCode).toBe(4100);
    expect(result.succeeded).toBeLessThanOrEqual(100);
    expect(result.firstErrorCode).toBe(4301);
  });

  test('an attacker within the frame budget gets LimitReached past 100 channels and stays connected', async () => {
    const client = await PusherClient.connect(daemon.endpoint, benchApp.key);
    const result = await attack(client, { count: 105, timeoutMs: 10_000, batch: 1, intervalMs: 12 });
    expect(result).toMatchObject({ outcome: 'answered', succeeded: 100, refused: 5, limitReached: 5, errors: 0 });
    expect(client.closed).toBe(false);
    const { status, body } = await daemon.api('/channels', 5_000);
    expect(status).toBe(200);
    expect(Object.keys((JSON.parse(body.toString('utf8')) as { channels: object }).channels)).toHaveLength(100);
    client.close();
  });

  test('the bystander times every ping it sends', async () => {
    const bystander = await Bystander.connect(daemon.endpoint, benchApp.key);
    const summary = await bystander.measure(5);
    expect(summary).toMatchObject({ pings: 5, unanswered: 0 });
    expect(summary.medianMs).toBeGreaterThan(0);
    bystander.close();
  });

  test('the inspector forces a GC and reads the daemon memory', async () => {
    const inspector = await Inspector.attach(daemon.endpoint.host, daemon.inspectPort!);
    const usage = await inspector.memoryAfterGc();
    inspector.detach();
    expect(usage.heapUsed).toBeGreaterThan(0);
    expect(usage.rss).toBeGreaterThan(usage.heapUsed);
  });

  test('SIGTERM ends the daemon with exit code 0', async () => {
    const exit = await daemon.terminate(10_000);
    expect(exit).toMatchObject({ code: 0, signal: null });
  });
});

// CI always has REDIS_URL (.ci/run starts Redis): there a missing one fails instead of skipping.
describe.skipIf(!process.env['REDIS_URL'] && process.env['CI'] !== 'true')('RedisProbe against REDIS_URL', () => {
  test('reads DBSIZE and used_memory', async () => {
    const probe = await RedisProbe.open(process.env['REDIS_URL']!);
    try {
      expect(Number.isInteger(await probe.dbsize())).toBe(true);
      expect(await probe.usedMemory()).toBeGreaterThan(0);
    } finally {
      probe.close();
    }
  });
});
