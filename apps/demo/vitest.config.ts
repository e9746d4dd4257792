import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 20_000,
    // Browser state settles asynchronously (renders, a 1 s announcement debounce, SSE and WebSocket
    // pushes); polls wait up to 5 s for it, not vitest's default 1 s, which a loaded CI machine overruns.
    expect: { poll: { timeout: 5_000 } },
    hookTimeout: 60_000,
    // One Chromium and one daemon serve the whole e2e file; files run one after another.
    fileParallelism: false,
  },
});
