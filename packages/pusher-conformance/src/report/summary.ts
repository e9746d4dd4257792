import type { CaseResult } from '../case.js';

export interface Summary {
  readonly total: number;
  readonly passed: number;
  readonly failed: number;
  readonly skipped: number;
  readonly durationMs: number;
  /** No failure, and with `strict` no skip either: the exit code is 0 exactly then. */
  readonly ok: boolean;
}

export function summarise(results: readonly CaseResult[], durationMs: number, strict: boolean): Summary {
  const count = (status: CaseResult['status']) => results.filter((result) => result.status === status).length;
  const failed = count('fail');
  const skipped = count('skip');
  return { total: results.length, passed: count('pass'), failed, skipped, durationMs, ok: failed === 0 && (!strict || skipped === 0) };
}
