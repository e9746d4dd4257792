#!/usr/bin/env node
import { parseCommand, usage, UsageError } from './cli.js';
import { ConfigError, loadConfig } from './config/load-config.js';
import { createDaemon, startDaemon, type Daemon } from './daemon.js';
import { requestClusterRestart } from './scaling/request-cluster-restart.js';
import { createLogging } from './logging.js';
import { registerPid, signalRegisteredServers } from './pid-files.js';
import { installProcessPolicy, unexpectedErrorExitCode } from './process-policy.js';

async function runServer(command: Extract<ReturnType<typeof parseCommand>, { name: 'server' }>): Promise<void> {
  const load = () => loadConfig({ file: command.config, host: command.host, port: command.port });
  let { config, generatedApp } = await load();
  const logging = createLogging(config.logging);
  const log = logging.scope('command.server');
  const startLog = logging.scope('command.server.start');

  if (generatedApp) {
    const app = config.applications[0]!;
    // Printed on purpose (stdout, not the log): the operator needs these to connect.
    process.stdout.write(
      `No applications configured; generated one for this run:\n  app id:     ${app.id}\n  app key:    ${app.key}\n  app secret: ${app.secret}\n`,
    );
  }

  let restart: () => Promise<void> = async () => {};
  const daemonOptions = () => ({ config, logging, allowUwsFallback: command.allowUwsFallback, onClusterRestart: () => void restart() });
  let daemon: Daemon | undefined;
  let unregister = () => {};
  let restarting: Promise<void> | undefined;
  let shuttingDown = false;

  /** Logs are flushed (a log file is written asynchronously) before the process ends. */
  const exit = (code: number): void => {
    const now = () => process.exit(code);
    setTimeout(now, 1_000).unref();
    logging.root.flush(now);
  };
  /**
   * The one way out of a running server: stop accepting, tell clients to
   * reconnect (4200), wait for in-flight work up to the grace period, remove
   * the pid file, exit with `code`. Whatever hangs, the process is gone 5 s
   * after the grace period, with a non-zero code.
   */
  const drainAndExit = async (code: number, reason: string, options: { waitForRestart: boolean }) => {
    shuttingDown = true;
    const hardStop = setTimeout(() => {
      unregister();
      process.exit(code || 1);
    }, (config.servers[config.default]!.shutdown_grace_period + 5) * 1000);
    hardStop.unref();
    // A signal during a restart is not lost: the restart finishes, then whichever daemon runs is stopped.
    // After an unexpected error the restart itself may be what is broken: it is not waited for.
    if (options.waitForRestart) await restarting;
    try {
      await daemon?.stop(reason);
    } catch (error) {
      log.error({ err: error }, 'stopping failed');
      code ||= 1;
    }
    unregister();
    exit(code);
  };
  const shutdown = (signal: string) => {
    if (shuttingDown) return;
    log.info({ signal }, 'shutting down');
    void drainAndExit(0, 'Server is shutting down, please reconnect.', { waitForRestart: true });
  };
  // Before the daemon starts: an error thrown from a timer during start-up is handled the same way.
  installProcessPolicy({
    onFatal(error, origin) {
      const fields = { scope: 'command.server', origin, err: error, exitCode: unexpectedErrorExitCode };
      const message = 'unexpected exception: the process may be in an unknown state; draining, then exiting so that a supervisor restarts it';
      // Written even with logging off or the scope muted: nothing else says why the process went away.
      if (config.logging.enabled) logging.root.fatal(fields, message);
      else process.stderr.write(`${message} (${origin}): ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      void drainAndExit(unexpectedErrorExitCode, 'Server is restarting after an internal error, please reconnect.', { waitForRestart: false });
    },
  });

  daemon = await startDaemon(daemonOptions());
  unregister = registerPid(daemon.port);
  /**
   * Graceful restart with the configuration re-read: the next daemon is built
   * and takes over the port before the old one tells its clients (4200) to
   * reconnect, so they reconnect at once to the new one.
   */
  restart = async () => {
    if (shuttingDown || restarting || !daemon) return;
    restarting = restartNow().finally(() => (restarting = undefined));
    await restarting;
  };
  const restartNow = async () => {
    log.info({}, 'restarting');
    const previous = daemon!;
    let next: Daemon;
    try {
      ({ config, generatedApp } = await load());
      next = await createDaemon(daemonOptions());
      previous.stopListening();
      try {
        await next.listen(previous.port);
      } catch (error) {
        await previous.listen(previous.port);
        await next.stop();
        throw error;
      }
      daemon = next;
    } catch (error) {
      log.error({ err: error }, 'restart aborted; keeping the running server');
      return;
    }
    unregister();
    unregister = registerPid(next.port);
    await previous.stop('Server is restarting, please reconnect.');
    startLog.info({ port: next.port }, 'server restarted');
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGHUP', () => void restart());
  // Only now: a supervisor (or a test) may signal as soon as it reads this line.
  startLog.info({ port: daemon.port, apps: config.applications.length, pid: process.pid }, 'server started');
}

async function main(): Promise<void> {
  const command = parseCommand(process.argv.slice(2));
  switch (command.name) {
    case 'help':
      process.stdout.write(`${usage}\n`);
      return;
    case 'restart_server': {
      const { config } = await loadConfig({ file: command.config });
      if (config.scaling.enabled) {
        const nodes = await requestClusterRestart(config);
        process.stdout.write(nodes ? `Asked ${nodes} node(s) of the cluster to restart.\n` : 'No running node is listening on this Redis prefix.\n');
        return;
      }
      const { signalled, removed } = signalRegisteredServers('SIGHUP');
      if (removed.length) process.stdout.write(`Removed ${removed.length} stale pid file(s) (process gone or not the registered server): ${removed.join(', ')}\n`);
      process.stdout.write(signalled.length ? `Asked ${signalled.length} server(s) to restart: ${signalled.join(', ')}\n` : 'No running server found on this host.\n');
      return;
    }
    case 'server':
      return runServer(command);
  }
}

main().catch((error: unknown) => {
  if (error instanceof UsageError) process.stderr.write(`${error.message}\n\n${usage}\n`);
  else if (error instanceof ConfigError) process.stderr.write(`${error.message}\n`);
  else process.stderr.write(`realtime-server failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(error instanceof UsageError ? 64 : 1);
});
