import { afterAll } from 'vitest';
import { demoOptionsFromEnv, spawnDaemon, startDemo } from '../../src/index.js';
import type { DaemonProcess, DemoOptions, RunningDemo } from '../../src/index.js';
import { seedNotifications } from '../../src/seed.js';
import { DEMO_USER } from '../../src/session.js';

export interface DemoStack {
  daemon: DaemonProcess;
  demo: RunningDemo;
  options: DemoOptions;
  url: string;
  /** Replaces the demo user's notifications with `count` samples (the two oldest read). */
  seed(count: number, readCount?: number): Promise<void>;
  unreadCount(): Promise<number>;
  stop(): Promise<void>;
}

const CREDENTIALS = { appId: 'e2e-app', key: 'e2e-key', secret: 'e2e-secret' };
const running = new Set<DemoStack>();

// Whatever happens in the tests, the daemon and the demo server of a file end with it.
afterAll(async () => {
  await Promise.all([...running].map((stack) => stack.stop()));
});

/** A real daemon process (apps/server/dist/bin.js on port 0) and the demo server in this process, both on 127.0.0.1. */
export async function startStack(): Promise<DemoStack> {
  const output: string[] = [];
  const daemon = await spawnDaemon({ port: 0, credentials: CREDENTIALS, onLog: (line) => output.push(line) });
  let demo: RunningDemo;
  let options: DemoOptions;
  try {
    options = demoOptionsFromEnv({
      DEMO_PORT: '0',
      DEMO_SEED_COUNT: '0',
      REALTIME_PORT: String(daemon.port),
      REALTIME_APP_ID: CREDENTIALS.appId,
      REALTIME_APP_KEY: CREDENTIALS.key,
      REALTIME_APP_SECRET: CREDENTIALS.secret,
    });
    demo = await startDemo(options);
  } catch (error) {
    await daemon.stop();
    throw error;
  }
  const store = demo.demo.store;
  let stopped: Promise<void> | undefined;
  const stack: DemoStack = {
    daemon,
    demo,
    options,
    url: demo.url,
    seed: (count, readCount = 2) => seedNotifications(store, DEMO_USER.id, count, readCount),
    unreadCount: () => store.unreadCount(DEMO_USER.id),
    stop() {
      running.delete(stack);
      stopped ??= (async () => {
        await demo.close();
        await daemon.stop();
      })();
      return stopped;
    },
  };
  running.add(stack);
  return stack;
}
