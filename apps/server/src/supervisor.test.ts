import type { Logger } from '@org/protocol';
import { describe, expect, it } from 'vitest';
import { fatalReason, restartReason, shutdownReason, Supervisor, type SupervisedDaemon } from './supervisor.js';

/** A promise settled from outside: lets a test hold a step (a stop, a rebuild) half-way. */
function deferred<T = void>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Lets every pending promise callback run. */
const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * A fake world: daemons that record what is done to them in one shared
 * journal, a fake clock, and the process's exits and pid files.
 */
function world() {
  const journal: string[] = [];
  const timers: { run: () => void; ms: number }[] = [];
  const logged: string[] = [];
  const logger = (level: string): Logger => {
    const line = (name: string) => (_fields: Record<string, unknown>, message: string) => void logged.push(`${level}.${name}: ${message}`);
    return { debug: line('debug'), info: line('info'), warn: line('warn'), error: line('error') };
  };
  let built = 0;

  class FakeDaemon implements SupervisedDaemon {
    port = 0;
    failListen: Error | undefined;
    /** When set, `stop` waits for it (or fails with it). */
    stopping: Promise<void> | undefined;
    constructor(readonly name: string) {}
    async listen(port?: number) {
      journal.push(`${this.name} listen ${port ?? 'configured'}`);
      if (this.failListen) throw this.failListen;
      this.port = port ?? 6001;
      return this.port;
    }
    stopListening() {
      journal.push(`${this.name} stopListening`);
    }
    async stop(reason?: string) {
      journal.push(`${this.name} stop: ${reason ?? '(none)'}`);
      await this.stopping;
    }
  }

  /** What the next `rebuild` answers: a daemon, a failure, or a step held open. */
  let nextBuild: () => Promise<FakeDaemon> = async () => new FakeDaemon(`d${++built}`);
  const supervisor = new Supervisor<FakeDaemon>({
    rebuild: () => {
      journal.push('rebuild');
      return nextBuild();
    },
    registerPid(port) {
      journal.push(`pid ${port} written`);
      return () => void journal.push(`pid ${port} removed`);
    },
    exit: (code) => void journal.push(`exit ${code}`),
    forceExit: (code) => void journal.push(`force exit ${code}`),
    hardStopMs: () => 10_000,
    setTimer: (run, ms) => void timers.push({ run, ms }),
    log: logger('server'),
    startLog: logger('start'),
  });

  const start = async () => {
    const first = new FakeDaemon('d0');
    await supervisor.start(async () => {
      await first.listen();
      return first;
    });
    journal.length = 0;
    return first;
  };
  return { supervisor, journal, timers, logged, start, FakeDaemon, setNextBuild: (build: () => Promise<FakeDaemon>) => (nextBuild = build) };
}

describe('the supervisor', () => {
  it('starts the first daemon and writes its pid file', async () => {
    const { supervisor, journal, FakeDaemon } = world();
    const first = await supervisor.start(async () => {
      const daemon = new FakeDaemon('first');
      await daemon.listen();
      return daemon;
    });
    expect(journal).toEqual(['first listen configured', 'pid 6001 written']);
    expect(supervisor.daemon).toBe(first);
  });

  it('restarts by building the next daemon, handing it the port, moving the pid file, then stopping the old one', async () => {
    const { supervisor, journal, logged, start } = world();
    const first = await start();
    await supervisor.restart();
    expect(journal).toEqual([
      'rebuild',
      'd0 stopListening',
      'd1 listen 6001',
      'pid 6001 removed',
      'pid 6001 written',
      `d0 stop: ${restartReason}`,
    ]);
    expect(supervisor.daemon).not.toBe(first);
    expect(supervisor.daemon?.name).toBe('d1');
    expect(logged).toEqual(['server.info: restarting', 'start.info: server restarted']);
  });

  it('keeps the running daemon when the new configuration cannot be loaded', async () => {
    const { supervisor, journal, logged, start, setNextBuild } = world();
    const first = await start();
    setNextBuild(() => Promise.reject(new Error('config file is not valid JSON')));
    await supervisor.restart();
    expect(journal).toEqual(['rebuild']);
    expect(supervisor.daemon).toBe(first);
    expect(logged).toContain('server.error: restart aborted; keeping the running server');
  });

  it('gives the port back to the running daemon when the new one cannot listen, and stops the new one', async () => {
    const { supervisor, journal, start, setNextBuild, FakeDaemon } = world();
    const first = await start();
    const broken = new FakeDaemon('broken');
    broken.failListen = new Error('EADDRINUSE');
    setNextBuild(async () => broken);
    await supervisor.restart();
    expect(journal).toEqual(['rebuild', 'd0 stopListening', 'broken listen 6001', 'd0 listen 6001', 'broken stop: (none)']);
    expect(supervisor.daemon).toBe(first);
  });

  it('runs one restart at a time: a restart asked for during one is the same restart', async () => {
    const { supervisor, journal, start, setNextBuild, FakeDaemon } = world();
    await start();
    const build = deferred<InstanceType<typeof FakeDaemon>>();
    setNextBuild(() => build.promise);
    const first = supervisor.restart();
    const second = supervisor.restart();
    build.resolve(new FakeDaemon('d1'));
    await Promise.all([first, second]);
    expect(journal.filter((entry) => entry === 'rebuild')).toHaveLength(1);
  });

  it('on SIGTERM during a restart lets the restart finish, then stops the new daemon and exits 0', async () => {
    const { supervisor, journal, start, setNextBuild, FakeDaemon } = world();
    await start();
    const build = deferred<InstanceType<typeof FakeDaemon>>();
    setNextBuild(() => build.promise);
    const restarting = supervisor.restart();
    supervisor.shutdown('SIGTERM');
    await flush();
    expect(journal).toEqual(['rebuild']); // nothing is stopped while the restart is half-way
    build.resolve(new FakeDaemon('d1'));
    await restarting;
    await flush();
    expect(journal).toEqual([
      'rebuild',
      'd0 stopListening',
      'd1 listen 6001',
      'pid 6001 removed',
      'pid 6001 written',
      `d0 stop: ${restartReason}`,
      `d1 stop: ${shutdownReason}`,
      'pid 6001 removed',
      'exit 0',
    ]);
    // Shutting down: no further restart.
    await supervisor.restart();
    expect(journal.at(-1)).toBe('exit 0');
  });

  it('on an unexpected error during a restart does not wait for it: stops the running daemon and exits 70', async () => {
    const { supervisor, journal, start, setNextBuild } = world();
    await start();
    setNextBuild(() => new Promise(() => {})); // the restart itself hangs: it may be what broke
    void supervisor.restart();
    supervisor.fail();
    await flush();
    expect(journal).toEqual(['rebuild', `d0 stop: ${fatalReason}`, 'pid 6001 removed', 'exit 70']);
  });

  it('acts on the first signal only', async () => {
    const { supervisor, journal, logged, start } = world();
    await start();
    supervisor.shutdown('SIGTERM');
    supervisor.shutdown('SIGINT');
    supervisor.shutdown('SIGTERM');
    await flush();
    expect(journal).toEqual([`d0 stop: ${shutdownReason}`, 'pid 6001 removed', 'exit 0']);
    expect(logged).toEqual(['server.info: shutting down']);
    expect(supervisor.shuttingDown).toBe(true);
  });

  it('exits at the hard stop when stopping hangs: pid file removed, non-zero code', async () => {
    const { supervisor, journal, timers, start } = world();
    const first = await start();
    first.stopping = new Promise(() => {});
    supervisor.shutdown('SIGTERM');
    await flush();
    expect(journal).toEqual([`d0 stop: ${shutdownReason}`]);
    expect(timers.map((timer) => timer.ms)).toEqual([10_000]);
    timers[0]!.run();
    expect(journal).toEqual([`d0 stop: ${shutdownReason}`, 'pid 6001 removed', 'force exit 1']);
  });

  it('keeps the exit code of an unexpected error at the hard stop', async () => {
    const { supervisor, journal, timers, start } = world();
    const first = await start();
    first.stopping = new Promise(() => {});
    supervisor.fail();
    await flush();
    timers[0]!.run();
    expect(journal.at(-1)).toBe('force exit 70');
  });

  it('exits 1 when stopping fails, after removing the pid file', async () => {
    const { supervisor, journal, logged, start } = world();
    const first = await start();
    first.stopping = Promise.reject(new Error('scaler close failed'));
    supervisor.shutdown('SIGTERM');
    await flush();
    expect(journal).toEqual([`d0 stop: ${shutdownReason}`, 'pid 6001 removed', 'exit 1']);
    expect(logged).toContain('server.error: stopping failed');
  });

  it('exits at once, with no daemon to stop, on an unexpected error before the first daemon started', async () => {
    const { supervisor, journal } = world();
    supervisor.fail();
    await flush();
    expect(journal).toEqual(['exit 70']);
  });
});
