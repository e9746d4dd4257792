import { createApp, silentLogger } from '@org/protocol';
import { describe, expect, it } from 'vitest';
import { testRedisClusterNodes } from '../../test/helpers/redis.js';
import { configSchema } from '../config/schema.js';
import { createRateLimits } from './create-rate-limits.js';

const config = configSchema.parse({
  applications: [
    { id: 'own', key: 'own-key', secret: 'own-secret', max_backend_events_per_second: 3, max_read_requests_per_second: 1 },
    { id: 'defaults', key: 'defaults-key', secret: 'defaults-secret' },
  ],
  rate_limiter: { enabled: true, driver: 'local', max_backend_events_per_second: 2, max_read_requests_per_second: 4 },
});
const appOf = (id: string) => createApp({ id, key: `${id}-key`, secret: `${id}-secret` });

/** How many points of `kind` an app may spend at once before a refusal. */
async function allowance(limits: NonNullable<ReturnType<typeof createRateLimits>>, id: string, kind: 'backend_events' | 'read'): Promise<number> {
  let spent = 0;
  while ((await limits.rateLimit(appOf(id), kind, 1)).allowed) spent++;
  return spent;
}

describe('HTTP API rate limits', () => {
  it('give each app its own allowance, else the limiter default, resolved once when built', async () => {
    const limits = createRateLimits(config, silentLogger)!;
    // Built: later changes to the config object do not reach the limits (they are not looked up per request).
    config.applications[0]!.max_backend_events_per_second = 100;
    config.rate_limiter.max_read_requests_per_second = 100;
    expect(await allowance(limits, 'own', 'backend_events')).toBe(3);
    expect(await allowance(limits, 'own', 'read')).toBe(1);
    expect(await allowance(limits, 'defaults', 'backend_events')).toBe(2);
    expect(await allowance(limits, 'defaults', 'read')).toBe(4);
    await limits.close();
  });

  it('is off unless enabled', () => {
    expect(createRateLimits(configSchema.parse({}), silentLogger)).toBeUndefined();
  });

  it('share one allowance across nodes through a Redis Cluster named in the redis section, without cluster_mode', async () => {
    const nodes = await testRedisClusterNodes();
    if (!nodes) return;
    const shared = configSchema.parse({
      redis: { cluster: { nodes } },
      rate_limiter: { enabled: true, driver: 'redis', max_read_requests_per_second: 3 },
    });
    // Two daemons' limiters: each alone would allow 3; shared, the two together allow 3.
    const [a, b] = [createRateLimits(shared, silentLogger)!, createRateLimits(shared, silentLogger)!];
    await Promise.all([a.ready(), b.ready()]);
    const app = appOf(`cluster-${process.pid}-${Date.now()}`);
    const decisions = [];
    for (let i = 0; i < 6; i++) decisions.push((await (i % 2 ? b : a).rateLimit(app, 'read', 1)).allowed);
    expect(decisions.filter(Boolean)).toHaveLength(3);
    await Promise.all([a.close(), b.close()]);
  });
});
