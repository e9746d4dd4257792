import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
    // One Chromium and one daemon serve the whole e2e file; files run one after another.
    fileParallelism: false,
  },
});
