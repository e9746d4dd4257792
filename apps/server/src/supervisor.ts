import type { Logger } from '@org/protocol';
import { unexpectedErrorExitCode } from './process-policy.js';

/** What the supervisor needs of a daemon (`Daemon` from daemon.ts; fakes in tests). */
export interface SupervisedDaemon {
  readonly port: number;
  listen(port?: number): Promise<number>;
  /** Resolves once the port is free for the next daemon (a pool's workers answer asynchronously). */
  stopListening(): void | Promise<void>;
  stop(reason?: string): Promise<void>;
}

export interface SupervisorOptions<D extends SupervisedDaemon> {
  /** Re-reads the configuration and builds the next daemon, not listening yet; throws to abort a restart. */
  rebuild(): Promise<D>;
  /** Writes this process's pid file for `port`; returns its removal. */
  registerPid(port: number): () => void;
  /** Ends the process once logs are flushed. */
  exit(code: number): void;
  /** Ends the process now (the hard stop: something hung). */
  forceExit(code: number): void;
  /** How long a drain may take before the hard stop, in ms; read when the drain starts (a restart may have changed it). */
  hardStopMs(): number;
  /** `setTimeout` whose timer does not keep the process alive; replaceable in tests. */
  setTimer?: (run: () => void, ms: number) => void;
  /** `command.server`: shutdown and restart failures. */
  log: Logger;
  /** `command.server.start`: restarts. */
  startLog: Logger;
}

export const shutdownReason = 'Server is shutting down, please reconnect.';
export const restartReason = 'Server is restarting, please reconnect.';
export const fatalReason = 'Server is restarting after an internal error, please reconnect.';

/**
 * The running server's life: start, graceful restarts (SIGHUP, a cluster
 * restart) and the one way out (a signal or an unexpected error). It owns the
 * current daemon and its pid file; the process (signals, exit, timers) is
 * handed in, so every path runs in unit tests with fake daemons and clocks.
 */
export class Supervisor<D extends SupervisedDaemon> {
  readonly #options: SupervisorOptions<D>;
  #daemon: D | undefined;
  #unregister = (): void => {};
  #restarting: Promise<void> | undefined;
  #shuttingDown = false;

  constructor(options: SupervisorOptions<D>) {
    this.#options = options;
  }

  /** The daemon serving now. */
  get daemon(): D | undefined {
    return this.#daemon;
  }

  get shuttingDown(): boolean {
    return this.#shuttingDown;
  }

  /** Starts the first daemon (built and listening) and registers the pid file. */
  async start(startFirst: () => Promise<D>): Promise<D> {
    const daemon = await startFirst();
    this.#daemon = daemon;
    this.#unregister = this.#options.registerPid(daemon.port);
    return daemon;
  }

  /**
   * Graceful restart with the configuration re-read: the next daemon is built
   * and takes over the port before the old one tells its clients (4200) to
   * reconnect, so they reconnect at once to the new one. One at a time; none
   * while shutting down.
   */
  restart(): Promise<void> {
    if (this.#shuttingDown || this.#restarting || !this.#daemon) return this.#restarting ?? Promise.resolve();
    this.#restarting = this.#restartNow().finally(() => (this.#restarting = undefined));
    return this.#restarting;
  }

  /** A signal: drain and exit 0, after a restart in progress has finished. A second signal changes nothing. */
  shutdown(signal: string): void {
    if (this.#shuttingDown) return;
    this.#options.log.info({ signal }, 'shutting down');
    void this.#drainAndExit(0, shutdownReason, { waitForRestart: true });
  }

  /**
   * An unexpected error: drain and exit 70 so a supervisor starts a fresh
   * process. A restart in progress is not waited for: it may be what broke.
   */
  fail(): void {
    void this.#drainAndExit(unexpectedErrorExitCode, fatalReason, { waitForRestart: false });
  }

  async #restartNow(): Promise<void> {
    const { log, startLog } = this.#options;
    log.info({}, 'restarting');
    const previous = this.#daemon!;
    let next: D;
    try {
      next = await this.#options.rebuild();
      await previous.stopListening();
      try {
        await next.listen(previous.port);
      } catch (error) {
        await previous.listen(previous.port);
        await next.stop();
        throw error;
      }
      this.#daemon = next;
    } catch (error) {
      log.error({ err: error }, 'restart aborted; keeping the running server');
      return;
    }
    this.#unregister();
    this.#unregister = this.#options.registerPid(next.port);
    await previous.stop(restartReason);
    startLog.info({ port: next.port }, 'server restarted');
  }

  /**
   * The one way out of a running server: stop accepting, tell clients to
   * reconnect (4200), wait for in-flight work up to the grace period, remove
   * the pid file, exit with `code`. Whatever hangs, the process is gone
   * `hardStopMs` after the drain began, with a non-zero code.
   */
  async #drainAndExit(code: number, reason: string, options: { waitForRestart: boolean }): Promise<void> {
    this.#shuttingDown = true;
    const setTimer = this.#options.setTimer ?? ((run, ms) => setTimeout(run, ms).unref());
    setTimer(() => {
      this.#unregister();
      this.#options.forceExit(code || 1);
    }, this.#options.hardStopMs());
    // A signal during a restart is not lost: the restart finishes, then whichever daemon runs is stopped.
    if (options.waitForRestart) await this.#restarting;
    try {
      await this.#daemon?.stop(reason);
    } catch (error) {
      this.#options.log.error({ err: error }, 'stopping failed');
      code ||= 1;
    }
    this.#unregister();
    this.#options.exit(code);
  }
}
