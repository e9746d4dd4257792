import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // Every test runs twice: through the hono app's fetch, and through createPusherApiHandler
    // (falling back to fetch for what it does not serve), so the two paths cannot drift apart.
    projects: [
      { extends: true, test: { name: 'fetch', include: ['src/**/*.test.ts', 'test/**/*.test.ts'] } },
      { extends: true, test: { name: 'plain', include: ['src/**/*.test.ts', 'test/**/*.test.ts'], env: { REST_API_VIA: 'plain' } } },
    ],
  },
});
