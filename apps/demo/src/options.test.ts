import { describe, expect, it } from 'vitest';
import { demoOptionsFromEnv } from './options.js';

describe('demoOptionsFromEnv', () => {
  it('fills defaults: loopback, port 3000, daemon on 127.0.0.1:6001, browser uses the same host and port', () => {
    const options = demoOptionsFromEnv({});
    expect(options).toMatchObject({
      host: '127.0.0.1',
      port: 3000,
      seedCount: 14,
      realtime: { host: '127.0.0.1', port: 6001, appId: 'demo-app', key: 'demo-key', secret: 'demo-secret', wsHost: '127.0.0.1', wsPort: 6001 },
    });
    expect(options.secret).toMatch(/^[0-9a-f]{64}$/);
    expect(options.dataDir).toBeUndefined();
  });

  it('reads every variable, and empty ones count as unset', () => {
    const options = demoOptionsFromEnv({
      DEMO_PORT: '0',
      DEMO_SECRET: 'a-long-enough-secret',
      DEMO_DATA_DIR: '/tmp/demo-data',
      DEMO_SEED_COUNT: '3',
      REALTIME_HOST: 'localhost',
      REALTIME_PORT: '7001',
      REALTIME_APP_ID: 'id',
      REALTIME_APP_KEY: 'key',
      REALTIME_APP_SECRET: 'secret',
      REALTIME_WS_HOST: 'ws.example.test',
      REALTIME_WS_PORT: '',
    });
    expect(options).toMatchObject({
      port: 0,
      secret: 'a-long-enough-secret',
      dataDir: '/tmp/demo-data',
      seedCount: 3,
      realtime: { host: 'localhost', port: 7001, appId: 'id', key: 'key', secret: 'secret', wsHost: 'ws.example.test', wsPort: 7001 },
    });
  });

  it.each([
    [{ DEMO_PORT: 'abc' }, /DEMO_PORT/],
    [{ DEMO_PORT: '70000' }, /DEMO_PORT must be 0-65535/],
    [{ DEMO_HOST: '0.0.0.0' }, /DEMO_HOST must be 127\.0\.0\.1/],
    [{ REALTIME_PORT: '0' }, /REALTIME_PORT must be the daemon port/],
    [{ DEMO_SECRET: 'short' }, /DEMO_SECRET must be at least 16 characters/],
    [{ DEMO_SEED_COUNT: '-1' }, /DEMO_SEED_COUNT/],
  ])('refuses %o with a message naming the variable', (env, message) => {
    expect(() => demoOptionsFromEnv(env)).toThrowError(expect.objectContaining({ code: 'INVALID_OPTION', message: expect.stringMatching(message) }));
  });
});
