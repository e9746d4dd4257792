import type { CaseResult } from './case.js';
import { allCases } from './cases/index.js';
import { parseOptions, type ConformanceOptions, type ResolvedOptions } from './options.js';
import { summarise, type Summary } from './report/summary.js';
import { runCases } from './runner.js';
import { selectCases } from './selection.js';
import type { Target } from './target.js';
import { startWebhookReceiver } from './webhook-receiver.js';

export interface ConformanceReport {
  /** Where the cases ran (no secrets). */
  readonly target: { host: string; port: number; tls: boolean; node2?: { host: string; port: number } };
  readonly results: readonly CaseResult[];
  readonly summary: Summary;
}

export interface RunHooks {
  /** Told each result as soon as it is known. */
  onResult?: (result: CaseResult) => void;
}

function toTarget(options: ResolvedOptions): Target {
  const node = { host: options.host, port: options.port, tls: options.tls };
  return {
    node,
    node2: options.node2 ? { host: options.node2.host ?? options.host, port: options.node2.port, tls: options.tls } : undefined,
    app: options.app,
    featureApp: options.featureApp,
    features: new Set(options.features),
    userAuthenticationTimeout: options.userAuthenticationTimeout,
    clientEventsOffApp: options.clientEventsOffApp,
    maxEventDataBytes: options.maxEventDataBytes,
  };
}

/**
 * Runs the selected cases against the server `options` point at and returns every result with the
 * summary. Throws `ConformanceError('INVALID_OPTIONS')` for options that do not validate (before any
 * connection); a server that misbehaves or hangs fails cases, it never makes this throw or hang.
 */
export async function runConformance(options: ConformanceOptions, hooks: RunHooks = {}): Promise<ConformanceReport> {
  const resolved = parseOptions(options);
  const cases = selectCases(allCases, resolved.only, resolved.exclude);
  const target = toTarget(resolved);
  const started = performance.now();
  const receiver = resolved.webhookPort === undefined ? undefined : await startWebhookReceiver({ host: resolved.webhookHost, port: resolved.webhookPort, app: resolved.app });
  try {
    const results = await runCases(cases, {
      target,
      webhooks: receiver,
      caseTimeoutMs: resolved.caseTimeout * 1_000,
      runTimeoutMs: resolved.runTimeout * 1_000,
      onResult: hooks.onResult,
    });
    const summary = summarise(results, Math.round(performance.now() - started), resolved.strict);
    return {
      target: { host: target.node.host, port: target.node.port, tls: target.node.tls, ...(target.node2 ? { node2: { host: target.node2.host, port: target.node2.port } } : {}) },
      results,
      summary,
    };
  } finally {
    await receiver?.close();
  }
}

/** Every case with its group, title and documentation section, in run order (`--list`). */
export function listCases(): { id: string; group: string; title: string; docs: string; extension: boolean; needs: readonly string[] }[] {
  return allCases.map((entry) => ({ id: entry.id, group: entry.group, title: entry.title, docs: entry.docs, extension: entry.extension ?? false, needs: entry.needs ?? [] }));
}
