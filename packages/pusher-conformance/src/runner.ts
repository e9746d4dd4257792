import type { CaseResult, ConformanceCase, Need } from './case.js';
import { createCaseContext } from './case-context.js';
import type { Target } from './target.js';
import type { WebhookInbox } from './webhook-receiver.js';

export interface RunSettings {
  readonly target: Target;
  readonly webhooks: WebhookInbox | undefined;
  readonly caseTimeoutMs: number;
  readonly runTimeoutMs: number;
  /** Told each result as soon as it is known (the text reporter prints it). */
  readonly onResult?: ((result: CaseResult) => void) | undefined;
}

/** Why a case cannot run against this target, or undefined when it can. */
function missingNeed(entry: ConformanceCase, target: Target, webhooks: WebhookInbox | undefined): string | undefined {
  const reasons: Record<Need, () => string | undefined> = {
    node2: () => (target.node2 ? undefined : 'no second node (--node2-port)'),
    webhooks: () => (webhooks ? undefined : 'no webhook receiver (--webhook-port)'),
    featureApp: () => (target.featureApp ? undefined : 'no feature app (--feature-app-id, --feature-app-key, --feature-app-secret)'),
    clientEventsOffApp: () => (target.clientEventsOffApp ? undefined : 'no app with client events disabled (--client-events-off-app-id, …)'),
    watchlist: () => feature('watchlist'),
    'subscription-count': () => feature('subscription-count'),
    'authorized-connections': () => feature('authorized-connections'),
  };
  function feature(name: 'watchlist' | 'subscription-count' | 'authorized-connections') {
    if (!target.featureApp) return 'no feature app (--feature-app-id, --feature-app-key, --feature-app-secret)';
    return target.features.has(name) ? undefined : `the feature app does not enable ${name} (--features)`;
  }
  for (const need of entry.needs ?? []) {
    const reason = reasons[need]();
    if (reason) return reason;
  }
  return undefined;
}

/** How long `clean-up` may take after a case: closing sockets is immediate, so this only bounds a stuck one. */
const cleanUpMs = 2_000;

/**
 * Runs the cases one after the other. Each has its own time; when it is up the case fails, its waits
 * are aborted and everything it opened is closed, and the run goes on. The run's own time bounds the
 * whole: a case still running when it ends fails, and cases not started are reported as not run.
 */
export async function runCases(cases: readonly ConformanceCase[], settings: RunSettings): Promise<CaseResult[]> {
  const runDeadline = Date.now() + settings.runTimeoutMs;
  const results: CaseResult[] = [];
  const report = (result: CaseResult) => {
    results.push(result);
    settings.onResult?.(result);
  };

  for (const entry of cases) {
    const base = { id: entry.id, group: entry.group, title: entry.title, docs: entry.docs, extension: entry.extension ?? false };
    const skip = missingNeed(entry, settings.target, settings.webhooks);
    if (skip) {
      report({ ...base, status: 'skip', durationMs: 0, reason: skip });
      continue;
    }
    const remaining = runDeadline - Date.now();
    if (remaining <= 0) {
      report({ ...base, status: 'fail', durationMs: 0, reason: `not run: the run's time (--run-timeout ${settings.runTimeoutMs / 1_000} s) was up` });
      continue;
    }
    const ownMs = entry.timeoutMs?.(settings.target, settings.caseTimeoutMs) ?? settings.caseTimeoutMs;
    const timeoutMs = Math.min(ownMs, remaining);
    const runOut = timeoutMs < ownMs;
    report({ ...base, ...(await runOne(entry, settings, timeoutMs, runOut)) });
  }
  return results;
}

async function runOne(entry: ConformanceCase, settings: RunSettings, timeoutMs: number, runOut: boolean): Promise<Pick<CaseResult, 'status' | 'durationMs' | 'reason'>> {
  const context = createCaseContext(settings.target, settings.webhooks);
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  // An exception thrown by a client library's callback during this case fails this case, not the kit.
  let escaped: unknown;
  const onEscaped = (error: unknown) => (escaped ??= error);
  process.on('uncaughtException', onEscaped);
  process.on('unhandledRejection', onEscaped);
  const running = entry.run(context).then(
    () => ({ ok: true as const }),
    (error: unknown) => ({ ok: false as const, error }),
  );
  try {
    const outcome = await Promise.race([running, timedOut]);
    const durationMs = Math.round(performance.now() - started);
    if (outcome === 'timeout') {
      const waiting = context.waiting ? ` while waiting for ${context.waiting}` : '';
      const why = runOut ? `the run's time (--run-timeout) was up${waiting}` : `timed out after ${(timeoutMs / 1_000).toFixed(1)} s${waiting}`;
      context.abort(why);
      return { status: 'fail', durationMs, reason: why };
    }
    if (!outcome.ok) return { status: 'fail', durationMs, reason: describeError(outcome.error) };
    if (escaped !== undefined) return { status: 'fail', durationMs, reason: `an exception escaped during the case: ${describeError(escaped)}` };
    return { status: 'pass', durationMs };
  } finally {
    clearTimeout(timer);
    await Promise.race([context.cleanUp(), new Promise((resolve) => setTimeout(resolve, cleanUpMs).unref())]);
    process.off('uncaughtException', onEscaped);
    process.off('unhandledRejection', onEscaped);
  }
}

function describeError(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return code === 'CHECK_FAILED' ? error.message : `${error.name}${typeof code === 'string' ? ` ${code}` : ''}: ${error.message}`;
  }
  return String(error);
}
