import type { MetricSpec, RunResult, Scenario } from './scenarios/scenario.js';
import { median } from './measure/stats.js';

interface MetricRow {
  scenario: string;
  metric: string;
  unit: string;
  baseline: number;
  subject: number;
  /** subject / baseline. */
  ratio: number;
  target: string;
  /** 'met', 'missed' or '' when the metric has no target. */
  verdict: '' | 'met' | 'missed';
  /** The load generator used >= 90% of its core on the baseline: its figure is a floor, the ratio a ceiling. */
  loadBound: boolean;
}

/** Load generator CPU above which the baseline's rate says more about the load than the server. */
const loadBoundPct = 90;

export interface ScenarioReport {
  id: string;
  title: string;
  sizes: string;
  baseline: string;
  subject: string;
  /** Every repetition's raw figures, in run order. */
  runs: { target: string; repetition: number; result: RunResult; error?: string }[];
  rows: MetricRow[];
  /** Medians of the diagnostics (CPU of load and server) per target. */
  diagnostics: Record<string, Record<string, number>>;
}

function targetText(spec: MetricSpec): string {
  if (!spec.target) return '';
  return 'atLeast' in spec.target ? `>= ${spec.target.atLeast}x` : `<= ${spec.target.atMost}x`;
}

function verdictOf(spec: MetricSpec, ratio: number): MetricRow['verdict'] {
  if (!spec.target || Number.isNaN(ratio)) return '';
  return 'atLeast' in spec.target ? (ratio >= spec.target.atLeast ? 'met' : 'missed') : ratio <= spec.target.atMost ? 'met' : 'missed';
}

/** Medians per target and the rows of the table for one scenario. */
export function summarise(scenario: Scenario, sizes: string, runs: ScenarioReport['runs']): ScenarioReport {
  const valuesOf = (target: string, key: string) =>
    runs.filter((run) => run.target === target && !run.error).map((run) => run.result[key] ?? Number.NaN);
  const baselineLoad = median(valuesOf(scenario.baseline, 'load_cpu_pct'));
  const perCore = (target: string, key: string) =>
    runs
      .filter((run) => run.target === target && !run.error)
      .map((run) => (run.result[key] ?? Number.NaN) / ((run.result['server_cpu_pct'] ?? Number.NaN) / 100));
  const rows = scenario.metrics.flatMap((spec): MetricRow[] => {
    const baseline = median(valuesOf(scenario.baseline, spec.key));
    const subject = median(valuesOf(scenario.subject, spec.key));
    const ratio = subject / baseline;
    const loadBound = spec.better === 'higher' && baselineLoad >= loadBoundPct;
    const row: MetricRow = { scenario: scenario.title, metric: spec.label, unit: spec.unit, baseline, subject, ratio, target: targetText(spec), verdict: verdictOf(spec, ratio), loadBound };
    if (!spec.perServerCore) return [row];
    const coreBaseline = median(perCore(scenario.baseline, spec.key));
    const coreSubject = median(perCore(scenario.subject, spec.key));
    const coreRatio = coreSubject / coreBaseline;
    return [
      row,
      {
        scenario: scenario.title,
        metric: `${spec.label} per server core`,
        unit: spec.unit,
        baseline: coreBaseline,
        subject: coreSubject,
        ratio: coreRatio,
        target: targetText(spec),
        verdict: verdictOf(spec, coreRatio),
        loadBound: false,
      },
    ];
  });
  const diagnostics: ScenarioReport['diagnostics'] = {};
  for (const target of [scenario.baseline, scenario.subject]) {
    diagnostics[target] = {
      load_cpu_pct: median(valuesOf(target, 'load_cpu_pct')),
      server_cpu_pct: median(valuesOf(target, 'server_cpu_pct')),
      heap_per_connection: median(valuesOf(target, 'heap_per_connection')),
    };
  }
  return { id: scenario.id, title: scenario.title, sizes, baseline: scenario.baseline, subject: scenario.subject, runs, rows, diagnostics };
}

function formatNumber(value: number, unit: string): string {
  if (Number.isNaN(value)) return 'n/a';
  if (unit === 'ms') return value < 10 ? value.toFixed(2) : value.toFixed(1);
  if (unit === 'bytes') return `${Math.round(value).toLocaleString('en')} B`;
  if (Math.abs(value) >= 100) return Math.round(value).toLocaleString('en');
  return value.toFixed(1);
}

function formatUnit(unit: string): string {
  return unit === 'bytes' || unit === '' ? '' : ` ${unit}`;
}

/** The Markdown table: scenario, metric, baseline, subject, ratio, target. */
export function markdownTable(reports: ScenarioReport[]): string {
  const lines = [
    '| scenario | metric | ceiling (or 1 node) | daemon (or 2 nodes) | ratio | target |',
    '| --- | --- | ---: | ---: | ---: | --- |',
  ];
  for (const report of reports) {
    for (const row of report.rows) {
      const target = row.target ? `${row.target} ${row.verdict === 'met' ? 'met' : row.verdict === 'missed' ? '**missed**' : ''}` : '';
      lines.push(
        `| ${row.scenario} | ${row.metric} | ${formatNumber(row.baseline, row.unit)}${formatUnit(row.unit)}${row.loadBound ? ' (load-bound)' : ''} | ${formatNumber(row.subject, row.unit)}${formatUnit(row.unit)} | ${Number.isNaN(row.ratio) ? 'n/a' : `${row.ratio.toFixed(2)}x`} | ${target.trim()} |`,
      );
    }
  }
  return lines.join('\n');
}

/** Load generator and server CPU per scenario, to show who saturated. */
export function markdownCpu(reports: ScenarioReport[]): string {
  const lines = ['| scenario | target | load generator CPU | server CPU |', '| --- | --- | ---: | ---: |'];
  for (const report of reports) {
    for (const [target, figures] of Object.entries(report.diagnostics)) {
      const pct = (value: number | undefined) => (value === undefined || Number.isNaN(value) ? 'n/a' : `${Math.round(value)}%`);
      lines.push(`| ${report.title} | ${target} | ${pct(figures['load_cpu_pct'])} | ${pct(figures['server_cpu_pct'])} |`);
    }
  }
  return lines.join('\n');
}

/** A plain-text table for the terminal. */
export function textTable(reports: ScenarioReport[]): string {
  const rows = [['scenario', 'metric', 'ceiling', 'daemon', 'ratio', 'target']];
  for (const report of reports) {
    for (const row of report.rows) {
      rows.push([
        row.scenario,
        row.metric,
        formatNumber(row.baseline, row.unit) + formatUnit(row.unit) + (row.loadBound ? ' (load-bound)' : ''),
        formatNumber(row.subject, row.unit) + formatUnit(row.unit),
        Number.isNaN(row.ratio) ? 'n/a' : `${row.ratio.toFixed(2)}x`,
        row.target ? `${row.target} ${row.verdict}` : '',
      ]);
    }
  }
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows.map((row) => row.map((cell, column) => cell.padEnd(widths[column]!)).join('  ')).join('\n');
}
