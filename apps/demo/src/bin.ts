#!/usr/bin/env node
import { spawnDaemon } from './daemon-process.js';
import type { DaemonProcess } from './daemon-process.js';
import { DemoError } from './errors.js';
import { demoOptionsFromEnv } from './options.js';
import { startDemo } from './start-demo.js';

const USAGE = `Usage: realtime-demo [--no-daemon]

Starts the realtime daemon (apps/server) and the demo on 127.0.0.1, then prints the URL.
  --no-daemon   use a daemon that is already running (REALTIME_HOST, REALTIME_PORT, REALTIME_APP_*)

Environment: DEMO_PORT (3000), DEMO_DATA_DIR (keep notifications on disk), DEMO_SECRET,
REALTIME_PORT (daemon port; any free one by default), REALTIME_APP_ID / _KEY / _SECRET,
REALTIME_WS_HOST / REALTIME_WS_PORT (what the browser connects to, if different).`;

async function main(argv: readonly string[]): Promise<void> {
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(USAGE);
    return;
  }
  const unknown = argv.filter((arg) => arg !== '--no-daemon');
  if (unknown.length > 0) throw new DemoError('INVALID_OPTION', `Unknown argument ${unknown[0]}\n\n${USAGE}`);
  const ownDaemon = !argv.includes('--no-daemon');

  const options = demoOptionsFromEnv(process.env);
  let daemon: DaemonProcess | undefined;
  let stopping = false;
  if (ownDaemon) {
    // Without REALTIME_PORT the daemon picks a free port; the options then learn it.
    daemon = await spawnDaemon({
      port: process.env.REALTIME_PORT ? options.realtime.port : 0,
      credentials: { appId: options.realtime.appId, key: options.realtime.key, secret: options.realtime.secret },
      onLog: (line) => console.error(`[realtime] ${line}`),
    });
    options.realtime.port = daemon.port;
    if (!process.env.REALTIME_WS_PORT) options.realtime.wsPort = daemon.port;
    console.log(`realtime daemon (pid ${daemon.pid}) on ws://127.0.0.1:${daemon.port}`);
    void daemon.exited.then((code) => {
      if (stopping) return;
      console.error(`[realtime] the daemon exited (${code}); stopping the demo.`);
      process.exit(1);
    });
  }

  let demo;
  try {
    demo = await startDemo(options);
  } catch (error) {
    stopping = true;
    await daemon?.stop();
    throw error;
  }
  console.log(`demo on ${demo.url}  (open it and sign in as the demo user)`);

  const shutdown = async () => {
    if (stopping) return;
    stopping = true;
    await demo.close();
    await daemon?.stop();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown());
  process.once('SIGTERM', () => void shutdown());
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error instanceof DemoError ? `realtime-demo: ${error.message}` : error);
  process.exit(1);
});
