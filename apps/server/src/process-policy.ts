/**
 * What the daemon does about an exception nobody caught (`uncaughtException`)
 * or a rejection nobody handled (`unhandledRejection`): such an error leaves
 * the process in an unknown state, so it is never ignored and never silently
 * survived. The first one is reported once, with the error; the server then
 * drains (stops accepting, tells clients to reconnect with 4200, bounded by
 * the grace period) and exits with `unexpectedErrorExitCode`, so that a
 * supervisor (systemd, Kubernetes, pm2) starts a fresh process. Errors that
 * follow while draining are only counted: the first one is the cause.
 */

/** EX_SOFTWARE from sysexits.h: an internal software error. */
export const unexpectedErrorExitCode = 70;

type UnexpectedOrigin = 'uncaughtException' | 'unhandledRejection';

export interface ProcessPolicyOptions {
  /** Called once, for the first unexpected error: report it, drain, exit non-zero. */
  onFatal(error: unknown, origin: UnexpectedOrigin): void;
  /** Counts the unexpected errors after the first (while the process drains). */
  onFurther?(error: unknown, origin: UnexpectedOrigin): void;
  env?: NodeJS.ProcessEnv;
}

/**
 * Installs the handlers; returns a function that removes them (for tests).
 * With `REALTIME_TEST_CRASH_ON_SIGNAL` set (tests only), SIGUSR2 makes the
 * process throw from a timer (`throw`, or any other value) or leave a
 * rejected promise unhandled (`reject`), to exercise this policy end to end.
 */
export function installProcessPolicy(options: ProcessPolicyOptions): () => void {
  let fatal = false;
  const handle = (error: unknown, origin: UnexpectedOrigin) => {
    if (fatal) return options.onFurther?.(error, origin);
    fatal = true;
    options.onFatal(error, origin);
  };
  const onException = (error: Error) => handle(error, 'uncaughtException');
  const onRejection = (reason: unknown) => handle(reason, 'unhandledRejection');
  process.on('uncaughtException', onException);
  process.on('unhandledRejection', onRejection);

  const testMode = (options.env ?? process.env)['REALTIME_TEST_CRASH_ON_SIGNAL'];
  const onTestSignal = () => {
    if (testMode === 'reject') void Promise.reject(new Error('test crash: a rejection nobody handles (REALTIME_TEST_CRASH_ON_SIGNAL=reject, SIGUSR2)'));
    else
      setTimeout(() => {
        throw new Error('test crash: an exception thrown from a timer (REALTIME_TEST_CRASH_ON_SIGNAL, SIGUSR2)');
      });
  };
  if (testMode) process.on('SIGUSR2', onTestSignal);

  return () => {
    process.off('uncaughtException', onException);
    process.off('unhandledRejection', onRejection);
    process.off('SIGUSR2', onTestSignal);
  };
}
