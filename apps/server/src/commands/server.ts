import type { Command } from '../cli.js';
import { loadConfig } from '../config/load-config.js';
import { createDaemon, startDaemon, type DaemonOptions } from '../daemon.js';
import { createLogging } from '../logging.js';
import { registerPid } from '../pid-files.js';
import { installProcessPolicy, unexpectedErrorExitCode } from '../process-policy.js';
import { Supervisor, type SupervisedDaemon } from '../supervisor.js';
import { workerCount } from '../workers/worker-count.js';
import { WorkerPool } from '../workers/worker-pool.js';

/**
 * `server`: loads the configuration, starts the daemon under the supervisor
 * and hands it the process's signals and unexpected errors.
 */
export async function runServer(command: Extract<Command, { name: 'server' }>): Promise<void> {
  const load = () => loadConfig({ file: command.config, host: command.host, port: command.port, workers: command.workers });
  const first = await load();
  let { config } = first;
  const logging = createLogging(config.logging);
  const startLog = logging.scope('command.server.start');

  if (first.generatedApp) {
    const app = config.applications[0]!;
    // Printed on purpose (stdout, not the log): the operator needs these to connect.
    process.stdout.write(
      `No applications configured; generated one for this run:\n  app id:     ${app.id}\n  app key:    ${app.key}\n  app secret: ${app.secret}\n`,
    );
  }

  const daemonOptions = (): DaemonOptions => ({ config, logging, allowUwsFallback: command.allowUwsFallback, onClusterRestart: () => void supervisor.restart() });
  // With one worker the daemon runs in this thread, exactly as before workers existed.
  const workers = workerCount(config.workers);
  const onFatal = (error: unknown, origin: 'uncaughtException' | 'unhandledRejection' | (string & {})) => {
    const fields = { scope: 'command.server', origin, err: error, exitCode: unexpectedErrorExitCode };
    const message = 'unexpected exception: the process may be in an unknown state; draining, then exiting so that a supervisor restarts it';
    // Written even with logging off or the scope muted: nothing else says why the process went away.
    if (config.logging.enabled) logging.root.fatal(fields, message);
    else process.stderr.write(`${message} (${origin}): ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    supervisor.fail();
  };
  const startPool = (count: number) =>
    WorkerPool.start({
      config,
      count,
      allowUwsFallback: command.allowUwsFallback,
      script: new URL('./worker.js', import.meta.url),
      log: logging.scope('command.server'),
      onClusterRestart: () => void supervisor.restart(),
      onFatal,
    });
  const supervisor: Supervisor<SupervisedDaemon> = new Supervisor<SupervisedDaemon>({
    async rebuild() {
      ({ config } = await load());
      const count = workerCount(config.workers);
      return count > 1 ? startPool(count) : createDaemon(daemonOptions());
    },
    registerPid: (port) => registerPid(port),
    // Logs are flushed (a log file is written asynchronously) before the process ends.
    exit(code) {
      const now = () => process.exit(code);
      setTimeout(now, 1_000).unref();
      logging.root.flush(now);
    },
    forceExit: (code) => process.exit(code),
    hardStopMs: () => (config.servers[config.default]!.shutdown_grace_period + 5) * 1000,
    log: logging.scope('command.server'),
    startLog,
  });

  // Before the daemon starts: an error thrown from a timer during start-up is handled the same way.
  installProcessPolicy({ onFatal });

  const daemon = await supervisor.start(async (): Promise<SupervisedDaemon> => {
    if (workers === 1) return startDaemon(daemonOptions());
    const pool = await startPool(workers);
    try {
      await pool.listen();
    } catch (error) {
      await pool.stop();
      throw error;
    }
    return pool;
  });
  process.on('SIGTERM', () => supervisor.shutdown('SIGTERM'));
  process.on('SIGINT', () => supervisor.shutdown('SIGINT'));
  process.on('SIGHUP', () => void supervisor.restart());
  // Tests only: an uncaught error in a worker thread (signals reach the main thread only).
  if (process.env['REALTIME_TEST_CRASH_WORKER']) {
    process.on('SIGUSR2', () => {
      const current = supervisor.daemon;
      if (current instanceof WorkerPool) current.crashFirstWorkerForTest();
    });
  }
  // Only now: a supervisor (or a test) may signal as soon as it reads this line.
  startLog.info({ port: daemon.port, apps: config.applications.length, pid: process.pid, workers }, 'server started');
}
