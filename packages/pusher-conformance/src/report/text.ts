import type { CaseResult } from '../case.js';
import type { Summary } from './summary.js';

const labels = { pass: 'PASS', fail: 'FAIL', skip: 'SKIP' } as const;

/** One line per case: status, duration, id, title; the reason after a failure or a skip. */
export function formatResult(result: CaseResult): string {
  const duration = `${result.durationMs} ms`.padStart(8);
  const extension = result.extension ? ' [extension]' : '';
  const reason = result.reason ? `\n       ${result.status === 'skip' ? 'skipped' : 'reason'}: ${result.reason}` : '';
  return `${labels[result.status]} ${duration}  ${result.id}${extension}: ${result.title}${reason}`;
}

export function formatSummary(summary: Summary, strict: boolean): string {
  const skips = summary.skipped > 0 && strict ? ' (skips fail --strict)' : '';
  const verdict = summary.ok ? 'conforms' : 'does not conform';
  const score = summary.total === 0 ? 0 : Math.round((summary.passed / summary.total) * 1_000) / 10;
  return `${summary.passed}/${summary.total} passed (${score} %), ${summary.failed} failed, ${summary.skipped} skipped${skips} in ${(summary.durationMs / 1_000).toFixed(1)} s: ${verdict}`;
}
