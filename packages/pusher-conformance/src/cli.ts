import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { ConformanceError } from './errors.js';
import { featureNames, groupNames } from './groups.js';
import type { ConformanceOptions } from './options.js';
import { formatJunit } from './report/junit.js';
import { formatResult, formatSummary } from './report/text.js';
import { listCases, runConformance } from './run-conformance.js';

export const usage = `Usage: pusher-conformance --port <port> --app-id <id> --app-key <key> --app-secret <secret> [options]

Runs black-box conformance cases against a Pusher Channels-compatible server with pusher-js, the
pusher Node SDK and raw WebSocket frames. Exit code 0 when every case passed, 1 otherwise, 2 on bad options.

Server
  --host <host>                      default 127.0.0.1
  --port <port>                      required
  --tls                              wss:// and https://
  --app-id, --app-key, --app-secret  the app every case uses (client events enabled), required
  --node2-host <host> --node2-port <port>
                                     a second node of the same deployment: runs the two-nodes cases
  --feature-app-id, --feature-app-key, --feature-app-secret
                                     an app whose server enables the features below: runs their cases
  --features <list>                  what the feature app enables (default all): ${featureNames.join(',')}
  --user-authentication-timeout <s>  the feature app's authentication timeout (default 30)
  --client-events-off-app-id, --client-events-off-app-key, --client-events-off-app-secret
                                     an app with client events disabled: runs the case that they are refused
  --webhook-port <port>              listen for the app's webhooks here (the server must send them to it)
  --webhook-host <host>              default 127.0.0.1
  --max-event-data-bytes <n>         the server's event data limit (default 10240, Pusher's 10 KB)

Run
  --only <list>                      groups or case ids (comma-separated)
  --exclude <list>                   groups or case ids, e.g. --exclude idempotency (not Pusher-documented)
  --case-timeout <s>                 each case's time (default 10)
  --run-timeout <s>                  the whole run's time (default 300)
  --strict                           a skipped case fails the run
  --json <file>                      write the report as JSON
  --junit <file>                     write the report as JUnit XML
  --list                             print the cases and their documentation sections, run nothing
  --help

Groups: ${groupNames.join(', ')}
`;

const flags = {
  host: { type: 'string' },
  port: { type: 'string' },
  tls: { type: 'boolean' },
  'app-id': { type: 'string' },
  'app-key': { type: 'string' },
  'app-secret': { type: 'string' },
  'node2-host': { type: 'string' },
  'node2-port': { type: 'string' },
  'feature-app-id': { type: 'string' },
  'feature-app-key': { type: 'string' },
  'feature-app-secret': { type: 'string' },
  features: { type: 'string' },
  'user-authentication-timeout': { type: 'string' },
  'client-events-off-app-id': { type: 'string' },
  'client-events-off-app-key': { type: 'string' },
  'client-events-off-app-secret': { type: 'string' },
  'webhook-port': { type: 'string' },
  'webhook-host': { type: 'string' },
  'max-event-data-bytes': { type: 'string' },
  only: { type: 'string' },
  exclude: { type: 'string' },
  'case-timeout': { type: 'string' },
  'run-timeout': { type: 'string' },
  strict: { type: 'boolean' },
  json: { type: 'string' },
  junit: { type: 'string' },
  list: { type: 'boolean' },
  help: { type: 'boolean' },
} as const;

type Values = ReturnType<typeof parseArgs<{ options: typeof flags }>>['values'];

/** A number when the text is one; otherwise the text, so that validation names the flag and what it must be. */
function numeric(text: string | undefined): number | string | undefined {
  if (text === undefined) return undefined;
  return /^[+-]?\d+(\.\d+)?$/.test(text.trim()) ? Number(text) : text;
}

const list = (text: string | undefined) => (text === undefined ? undefined : text.split(',').map((item) => item.trim()).filter(Boolean));

/** Three flags `<prefix>-id/-key/-secret` as one credentials object, or undefined when none is given. */
function credentials(values: Values, prefix: 'app' | 'feature-app' | 'client-events-off-app', required: boolean) {
  const id = values[`${prefix}-id`];
  const key = values[`${prefix}-key`];
  const secret = values[`${prefix}-secret`];
  if (!required && id === undefined && key === undefined && secret === undefined) return undefined;
  return { id, key, secret };
}

/** The options object the flags describe; `runConformance` validates it. */
export function optionsFromFlags(values: Values): ConformanceOptions {
  const options: Record<string, unknown> = {
    host: values.host,
    port: numeric(values.port),
    tls: values.tls,
    app: credentials(values, 'app', true),
    node2: values['node2-port'] === undefined && values['node2-host'] === undefined ? undefined : { host: values['node2-host'], port: numeric(values['node2-port']) },
    featureApp: credentials(values, 'feature-app', false),
    features: list(values.features),
    userAuthenticationTimeout: numeric(values['user-authentication-timeout']),
    clientEventsOffApp: credentials(values, 'client-events-off-app', false),
    webhookPort: numeric(values['webhook-port']),
    webhookHost: values['webhook-host'],
    maxEventDataBytes: numeric(values['max-event-data-bytes']),
    only: list(values.only),
    exclude: list(values.exclude),
    caseTimeout: numeric(values['case-timeout']),
    runTimeout: numeric(values['run-timeout']),
    strict: values.strict,
  };
  for (const key of Object.keys(options)) if (options[key] === undefined) delete options[key];
  return options as ConformanceOptions;
}

export interface CliOutput {
  out(line: string): void;
  err(line: string): void;
}

const processOutput: CliOutput = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
};

/** Runs the CLI; resolves with the exit code (0 conforms, 1 a case failed, 2 the options are wrong). */
export async function main(argv: readonly string[], output: CliOutput = processOutput): Promise<number> {
  let values: Values;
  try {
    values = parseArgs({ args: [...argv], options: flags, strict: true, allowPositionals: false }).values;
  } catch (error) {
    output.err(`${(error as Error).message}\n\n${usage}`);
    return 2;
  }
  if (values.help) {
    output.out(usage);
    return 0;
  }
  if (values.list) {
    for (const entry of listCases()) output.out(`${entry.id}${entry.extension ? ' [extension]' : ''}: ${entry.title}\n    docs: ${entry.docs}${entry.needs.length ? `\n    needs: ${entry.needs.join(', ')}` : ''}`);
    return 0;
  }
  try {
    const report = await runConformance(optionsFromFlags(values), { onResult: (result) => output.out(formatResult(result)) });
    output.out(formatSummary(report.summary, values.strict ?? false));
    if (values.json) writeFileSync(values.json, `${JSON.stringify({ tool: '@org/pusher-conformance', ...report }, null, 2)}\n`);
    if (values.junit) writeFileSync(values.junit, formatJunit(report.results, report.summary));
    return report.summary.ok ? 0 : 1;
  } catch (error) {
    if (error instanceof ConformanceError && error.code === 'INVALID_OPTIONS') {
      output.err(`pusher-conformance: invalid options:\n${error.message}\n\nRun pusher-conformance --help for the options.`);
      return 2;
    }
    throw error;
  }
}
