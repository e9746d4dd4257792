import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { collectMachine, type MachineInfo } from './machine.js';
import { markdownCpu, markdownTable, summarise, textTable, type ScenarioReport } from './report.js';
import { withLatestTable } from './readme-table.js';
import { scenarios } from './scenarios/index.js';
import type { RunResult } from './scenarios/scenario.js';
import { canPin, pin } from './targets/processes.js';
import { startRedis, type RunningRedis } from './targets/redis.js';
import { startTarget, type TargetKind } from './targets/targets.js';

const serverCpu = 0;
const loadCpu = 1;

const usage = `node bench/run.mjs [--quick] [--reps N] [--only id,id] [--profile] [--no-pin] [--workers N] [--nodes N]

  --quick     smoke sizes, 1 repetition (about a minute)
  --reps N    repetitions per target (default 3; runs interleave ceiling, daemon, ceiling, daemon, ...)
  --only      scenario ids: ${scenarios.map((s) => s.id).join(', ')}
  --profile   write V8 CPU profiles of the daemon to bench/results/profiles/
  --no-pin    do not pin the server to CPU ${serverCpu} and the load to CPU ${loadCpu}
  --workers N compare the daemon with N workers (the "daemon" column) against the same daemon with 1 worker
              (the "ceiling" column), interleaved run by run, instead of against the ceiling; the per-server-core
              rows are then the cost per event with N workers against 1; results/workers-N.*
  --nodes N   daemons over Redis in the multi-node runs (default 2; cross-node-routed with 3 or 4 shows the bus
              traffic per node falling to 1/N; with 1, one daemon with Redis scaling on against one without:
              the cost of the Redis path alone, without several daemons sharing a core); results/nodes-N.*`;

const log = (message: string) => process.stderr.write(`${message}\n`);

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      quick: { type: 'boolean', default: false },
      reps: { type: 'string' },
      only: { type: 'string' },
      profile: { type: 'boolean', default: false },
      'no-pin': { type: 'boolean', default: false },
      workers: { type: 'string' },
      nodes: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) return void process.stdout.write(`${usage}\n`);
  const quick = values.quick;
  const reps = Number(values.reps ?? (quick ? 1 : 3));
  const only = values.only?.split(',').map((id) => id.trim());
  const selected = scenarios.filter((scenario) => !only || only.includes(scenario.id));
  if (!Number.isInteger(reps) || reps < 1 || selected.length === 0) throw new Error(`nothing to run\n${usage}`);
  const workers = values.workers === undefined ? undefined : Number(values.workers);
  if (workers !== undefined && (!Number.isInteger(workers) || workers < 1)) throw new Error(`--workers must be a positive integer\n${usage}`);
  const nodes = values.nodes === undefined ? undefined : Number(values.nodes);
  if (nodes !== undefined && (!Number.isInteger(nodes) || nodes < 1 || nodes > 8)) throw new Error(`--nodes must be an integer from 1 to 8\n${usage}`);

  const resultsDir = fileURLToPath(new URL('../results/', import.meta.url));
  const profileDir = values.profile ? `${resultsDir}profiles` : undefined;
  if (profileDir) mkdirSync(profileDir, { recursive: true });

  const pinned = !values['no-pin'] && canPin() && pin(process.pid, loadCpu);
  const cpu = pinned ? serverCpu : undefined;
  log(pinned ? `pinned: server on CPU ${serverCpu}, load generator on CPU ${loadCpu}` : 'not pinned (no taskset, one CPU, or --no-pin)');

  let redis: RunningRedis | undefined;
  const needsRedis = selected.some((scenario) => scenario.subject === 'daemon-2-nodes');
  if (needsRedis) {
    try {
      redis = await startRedis(cpu);
      log(`redis: ${redis.url}`);
    } catch (error) {
      log(`redis unavailable, skipping cross-node: ${(error as Error).message}`);
    }
  }

  const machine: MachineInfo = collectMachine(pinned);
  const reports: ScenarioReport[] = [];
  try {
    for (const chosen of selected) {
      // With --workers N: the 1-worker daemon is the baseline and the N-worker daemon the subject (no targets: those are against the ceiling).
      const scenario =
        workers === undefined
          ? chosen
          : { ...chosen, baseline: 'daemon' as const, subject: `daemon-${workers}-workers` as TargetKind, metrics: chosen.metrics.map(({ target: _target, ...metric }) => metric) };
      log(`\n${scenario.title}: ${scenario.describe(quick)}`);
      const runs: ScenarioReport['runs'] = [];
      for (let repetition = 1; repetition <= reps; repetition++) {
        for (const kind of [scenario.baseline, scenario.subject] as TargetKind[]) {
          log(`  run ${repetition}/${reps} ${kind}`);
          let result: RunResult = {};
          let error: string | undefined;
          try {
            if (kind === 'daemon-2-nodes' && !redis) throw new Error('no Redis');
            const subjectWorkers = workers !== undefined && kind === scenario.subject;
            const target = await startTarget(subjectWorkers ? 'daemon' : kind, { cpu, profileDir, redisUrl: redis?.url, redisPid: redis?.pid, workers: subjectWorkers ? workers : undefined, nodes });
            try {
              result = await scenario.run(target, { quick, log });
            } finally {
              await target.stop();
            }
          } catch (caught) {
            error = caught instanceof Error ? caught.message : String(caught);
            log(`  failed: ${error}`);
          }
          runs.push({ target: kind, repetition, result, ...(error ? { error } : {}) });
        }
      }
      reports.push(summarise(scenario, scenario.describe(quick), runs));
    }
  } finally {
    await redis?.stop();
  }

  const table = textTable(reports);
  if (workers !== undefined) process.stdout.write(`\ncolumns: "ceiling" = the daemon with 1 worker, "daemon" = with ${workers} workers\n`);
  process.stdout.write(`\n${table}\n`);
  // Only a full (every scenario, 3+ repetitions), unprofiled run replaces the latest table.
  const name = values.profile ? 'profile' : quick ? 'quick' : workers !== undefined ? `workers-${workers}` : nodes !== undefined ? `nodes-${nodes}` : only || reps < 3 ? 'partial' : 'latest';
  mkdirSync(resultsDir, { recursive: true });
  writeFileSync(`${resultsDir}${name}.json`, `${JSON.stringify({ machine, quick, repetitions: reps, reports }, null, 2)}\n`);
  writeFileSync(`${resultsDir}${name}.md`, markdownReport(machine, quick, reps, reports));
  log(`\nwrote bench/results/${name}.json and bench/results/${name}.md`);
  const readme = fileURLToPath(new URL('../README.md', import.meta.url));
  if (name === 'latest' && existsSync(readme)) {
    const updated = withLatestTable(readFileSync(readme, 'utf8'), markdownReport(machine, false, reps, reports));
    if (updated !== undefined) {
      writeFileSync(readme, updated);
      log('updated the table in bench/README.md');
    }
  }
}

function markdownReport(machine: MachineInfo, quick: boolean, reps: number, reports: ScenarioReport[]): string {
  return [
    `# Benchmark results${quick ? ' (quick smoke sizes; not comparable)' : ''}`,
    '',
    `${machine.date}, commit ${machine.commit}. ${machine.cpuModel}, ${machine.cpus} CPUs, ${machine.memoryGb} GB, ${machine.os}, Node ${machine.node}. ` +
      `${machine.pinned ? `Server pinned to CPU ${serverCpu}, load generator to CPU ${loadCpu}` : 'Not pinned'}; load average at start ${machine.loadAverage}. ` +
      `Medians of ${reps} interleaved repetition(s) per target; ratio = daemon / ceiling (cross-node: 2 nodes / 1 node). ` +
      '"(load-bound)": the load generator used 90% or more of its core against the baseline, so that rate is a floor of the true ceiling and the ratio flatters the daemon.',
    '',
    markdownTable(reports),
    '',
    '## CPU during the measured window (medians)',
    '',
    markdownCpu(reports),
    '',
    '## Sizes',
    '',
    ...reports.map((report) => `- **${report.title}**: ${report.sizes}`),
    '',
  ].join('\n');
}

main().catch((error: unknown) => {
  log(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exit(1);
});
