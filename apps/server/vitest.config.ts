import { defineConfig } from 'vitest/config';

/**
 * The protocol's end-to-end cases that must hold whatever serves them, run a second time against daemons with
 * two worker threads (`REALTIME_WORKERS`, which the test helpers pass to every daemon they start): sockets then
 * land on both threads, so every case also crosses the in-process hub (or, with Redis, four nodes).
 */
const acrossWorkers = [
  'test/channel-subscriptions.test.ts',
  'test/client-events.test.ts',
  'test/presence-members.test.ts',
  'test/user-signin.test.ts',
  'test/authorized-connections.test.ts',
  'test/http-api-routes.test.ts',
  'test/app-isolation.test.ts',
  'test/scaling-delivery.test.ts',
  'test/idempotent-triggers.test.ts',
  'test/subscription-counts.test.ts',
  'test/watchlist-events.test.ts',
];

export default defineConfig({
  test: {
    testTimeout: 20_000,
    hookTimeout: 30_000,
    projects: [
      { extends: true, test: { name: 'server', include: ['src/**/*.test.ts', 'test/**/*.test.ts'] } },
      { extends: true, test: { name: 'two workers', include: acrossWorkers, env: { REALTIME_WORKERS: '2' } } },
    ],
  },
});
