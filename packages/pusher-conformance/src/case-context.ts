import { randomBytes } from 'node:crypto';
import type { CaseContext } from './case.js';
import { fail } from './checks.js';
import type { Target } from './target.js';
import type { WebhookInbox } from './webhook-receiver.js';

/** Marks this run's names, so that two runs against one server (or a rerun) never share a channel. */
const runMark = randomBytes(3).toString('hex');
let caseNumber = 0;

/** A case's context and what the runner needs to end it: its clean-up and what it was waiting for. */
export interface OwnedContext extends CaseContext {
  /** What the case is waiting for right now, for the timeout message. */
  readonly waiting: string | undefined;
  /** Aborts the case's waits. */
  abort(reason: string): void;
  /** Runs every deferred clean-up, newest first; never throws. */
  cleanUp(): Promise<void>;
}

const pollMs = 10;

export function createCaseContext(target: Target, webhooks: WebhookInbox | undefined): OwnedContext {
  const controller = new AbortController();
  const cleanups: (() => unknown)[] = [];
  const mark = `${runMark}-${(caseNumber++).toString(36)}`;
  let counter = 0;
  let waiting: (() => string) | undefined;

  const sleep = (ms: number) =>
    new Promise<void>((resolve, reject) => {
      if (controller.signal.aborted) {
        reject(controller.signal.reason as Error);
        return;
      }
      const timer = setTimeout(() => {
        controller.signal.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      const onAbort = () => {
        clearTimeout(timer);
        reject(controller.signal.reason as Error);
      };
      controller.signal.addEventListener('abort', onAbort, { once: true });
    });

  return {
    target,
    webhooks,
    signal: controller.signal,
    get waiting() {
      return waiting?.();
    },
    defer: (cleanup) => void cleanups.push(cleanup),
    unique: (prefix) => `${prefix}-${mark}-${(counter++).toString(36)}`,
    sleep,
    async waitFor<T>(probe: () => T | undefined | false, what: string | (() => string), timeoutMs = 5_000): Promise<T> {
      const deadline = Date.now() + timeoutMs;
      const describe = typeof what === 'string' ? () => what : what;
      waiting = describe;
      try {
        for (;;) {
          const value = probe();
          if (value !== undefined && value !== false) return value;
          if (Date.now() >= deadline) fail(`waited ${(timeoutMs / 1_000).toFixed(1)} s for ${describe()}`);
          await sleep(pollMs);
        }
      } finally {
        waiting = undefined;
      }
    },
    abort: (reason) => controller.abort(new Error(reason)),
    async cleanUp() {
      for (const cleanup of cleanups.reverse()) {
        try {
          await cleanup();
        } catch {
          // a socket already gone; the next clean-up still runs
        }
      }
      cleanups.length = 0;
    },
  };
}
