import type { RunningTarget, TargetKind } from '../targets/targets.js';

/** A figure a scenario reports, and how it is judged against the baseline. */
export interface MetricSpec {
  key: string;
  label: string;
  unit: string;
  /** Which direction is better; decides how the ratio is read. */
  better: 'higher' | 'lower';
  /** The target for subject / baseline, when there is one. */
  target?: { atLeast: number } | { atMost: number };
  /**
   * Also report this rate per CPU-second the server actually got (value /
   * server CPU share, run by run). On a shared machine a server may be
   * runnable but not running; the normalised rate is the cost per event,
   * which contention and a load-bound baseline do not distort.
   */
  perServerCore?: boolean;
}

export interface ScenarioContext {
  /** Smoke sizes and short windows. */
  quick: boolean;
  /** Progress lines (stderr). */
  log(message: string): void;
}

/** Metric values of one run (NaN when not measured), plus diagnostics. */
export type RunResult = Record<string, number>;

export interface Scenario {
  id: string;
  title: string;
  /** The reference (first column) and the one judged against it. */
  baseline: TargetKind;
  subject: TargetKind;
  metrics: MetricSpec[];
  /** What the sizes were, for the report. */
  describe(quick: boolean): string;
  run(target: RunningTarget, context: ScenarioContext): Promise<RunResult>;
}

