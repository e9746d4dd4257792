import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebhookReceiver, type WebhookReceiver } from '@org/webhooks/testing';
import { daemonConfig, testApp, type TestApp } from './helpers/apps.js';
import { backend, connected, disconnect, pusherClient, subscribed } from './helpers/clients.js';
import { startDaemon, type RunningDaemon } from './helpers/daemon.js';
import { connectRaw, openRaw } from './helpers/raw-socket.js';
import { scalingConfig, testRedisUrl, uniqueChannel } from './helpers/redis.js';
import { signedFetch } from './helpers/signed-request.js';
import { sleep } from './helpers/wait.js';

/**
 * What an operator relies on: the README's metric list, the Grafana
 * dashboard and the names the daemon exports are the same set. A daemon with
 * scaling and webhooks on is exercised (connections, messages, HTTP, a rate
 * limit, refusals, a webhook delivery after a failure) so labelled series
 * exist, and its /metrics is parsed strictly.
 */

const readmePath = new URL('../README.md', import.meta.url);
const dashboardPath = new URL('../grafana/realtime-server-dashboard.json', import.meta.url);
const packageJsonPath = new URL('../package.json', import.meta.url);

// ---------------------------------------------------------------------------
// The Prometheus text exposition format (0.0.4), parsed strictly.

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

interface Family {
  name: string;
  help: string | undefined;
  type: string | undefined;
  samples: Sample[];
}

class ExpositionError extends Error {
  constructor(line: number, message: string) {
    super(`/metrics line ${line}: ${message}`);
    this.name = 'ExpositionError';
  }
}

const metricNamePattern = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const labelNamePattern = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const valuePattern = /^(?:[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?|[+-]?Inf|NaN)$/;
const familyTypes = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);
/** The sample names a family of each type may have besides its own name. */
const sampleSuffixes: Record<string, readonly string[]> = { histogram: ['_bucket', '_sum', '_count'], summary: ['_sum', '_count'] };

/** Reads `name="value",...}` from `text` at `start` (just after `{`); returns the labels and the index after `}`. */
function parseLabels(text: string, start: number, line: number): { labels: Record<string, string>; end: number } {
  const labels: Record<string, string> = {};
  let i = start;
  for (;;) {
    if (text[i] === '}') return { labels, end: i + 1 };
    const eq = text.indexOf('=', i);
    if (eq < 0) throw new ExpositionError(line, 'a label without "="');
    const name = text.slice(i, eq);
    if (!labelNamePattern.test(name) || name.startsWith('__')) throw new ExpositionError(line, `invalid label name ${JSON.stringify(name)}`);
    if (name in labels) throw new ExpositionError(line, `label ${name} twice`);
    if (text[eq + 1] !== '"') throw new ExpositionError(line, `label ${name}: the value is not quoted`);
    let value = '';
    let j = eq + 2;
    for (; j < text.length && text[j] !== '"'; j++) {
      if (text[j] !== '\\') {
        value += text[j];
        continue;
      }
      const escaped = text[++j];
      if (escaped === 'n') value += '\n';
      else if (escaped === '\\' || escaped === '"') value += escaped;
      else throw new ExpositionError(line, `label ${name}: invalid escape \\${escaped ?? ''}`);
    }
    if (j >= text.length) throw new ExpositionError(line, `label ${name}: unterminated value`);
    labels[name] = value;
    i = j + 1;
    if (text[i] === ',') i++;
    else if (text[i] !== '}') throw new ExpositionError(line, `label ${name}: expected "," or "}"`);
  }
}

/**
 * Every family has one HELP and one TYPE line before its samples, its
 * samples are together, every sample belongs to a typed family (histograms:
 * `_bucket` with `le` including `+Inf`, `_sum`, `_count`), no series twice.
 */
function parseExposition(text: string): Map<string, Family> {
  const families = new Map<string, Family>();
  const family = (name: string): Family => {
    let found = families.get(name);
    if (!found) families.set(name, (found = { name, help: undefined, type: undefined, samples: [] }));
    return found;
  };
  if (text !== '' && !text.endsWith('\n')) throw new ExpositionError(0, 'the body does not end with a newline');
  const finished = new Set<string>();
  const series = new Set<string>();
  let current: Family | undefined;
  const lines = text.split('\n');
  lines.forEach((content, index) => {
    const line = index + 1;
    if (content === '') return;
    const meta = /^# (HELP|TYPE) (\S+)(?: (.*))?$/.exec(content);
    if (meta) {
      const [, keyword, name = '', rest = ''] = meta;
      if (!metricNamePattern.test(name)) throw new ExpositionError(line, `invalid metric name ${JSON.stringify(name)}`);
      const target = family(name);
      if (target.samples.length > 0 || finished.has(name)) throw new ExpositionError(line, `${keyword} of ${name} after its samples`);
      if (keyword === 'HELP') {
        if (target.help !== undefined) throw new ExpositionError(line, `a second HELP for ${name}`);
        target.help = rest;
      } else {
        if (target.type !== undefined) throw new ExpositionError(line, `a second TYPE for ${name}`);
        if (!familyTypes.has(rest)) throw new ExpositionError(line, `unknown type ${JSON.stringify(rest)} for ${name}`);
        target.type = rest;
      }
      return;
    }
    if (content.startsWith('#')) return;
    const nameMatch = /^[a-zA-Z_:][a-zA-Z0-9_:]*/.exec(content);
    if (!nameMatch) throw new ExpositionError(line, `not a sample: ${JSON.stringify(content.slice(0, 80))}`);
    const name = nameMatch[0];
    let labels: Record<string, string> = {};
    let i = name.length;
    if (content[i] === '{') ({ labels, end: i } = parseLabels(content, i + 1, line));
    if (content[i] !== ' ') throw new ExpositionError(line, `${name}: expected a space before the value`);
    const [value = '', timestamp, ...extra] = content.slice(i + 1).split(' ');
    if (!valuePattern.test(value)) throw new ExpositionError(line, `${name}: invalid value ${JSON.stringify(value)}`);
    if (extra.length > 0 || (timestamp !== undefined && !/^-?\d+$/.test(timestamp))) throw new ExpositionError(line, `${name}: trailing text after the value`);

    const owner = [...families.values()].find(
      (candidate) => candidate.name === name || (sampleSuffixes[candidate.type ?? '']?.some((suffix) => candidate.name + suffix === name) ?? false),
    );
    if (!owner?.type) throw new ExpositionError(line, `sample ${name} before any TYPE line for it`);
    if (owner !== current) {
      if (current) finished.add(current.name);
      if (finished.has(owner.name)) throw new ExpositionError(line, `the samples of ${owner.name} are not together`);
      current = owner;
    }
    if (owner.type === 'histogram' && name === owner.name) throw new ExpositionError(line, `histogram ${name}: a sample without _bucket, _sum or _count`);
    if (name.endsWith('_bucket') && owner.type === 'histogram' && labels['le'] === undefined) throw new ExpositionError(line, `${name}: a bucket without le`);
    const key = `${name}${JSON.stringify(Object.entries(labels).sort())}`;
    if (series.has(key)) throw new ExpositionError(line, `series ${name}${JSON.stringify(labels)} twice`);
    series.add(key);
    owner.samples.push({ name, labels, value: Number(value.replace('Inf', 'Infinity')) });
  });
  for (const found of families.values()) {
    if (found.help === undefined || found.type === undefined) throw new ExpositionError(0, `${found.name} lacks a HELP or TYPE line`);
    if (found.type === 'histogram') {
      const buckets = found.samples.filter((sample) => sample.name.endsWith('_bucket'));
      const sets = new Set(buckets.map((sample) => JSON.stringify(Object.entries(sample.labels).filter(([name]) => name !== 'le').sort())));
      const infinite = new Set(buckets.filter((sample) => sample.labels['le'] === '+Inf').map((sample) => JSON.stringify(Object.entries(sample.labels).filter(([name]) => name !== 'le').sort())));
      for (const set of sets) if (!infinite.has(set)) throw new ExpositionError(0, `${found.name}${set}: no le="+Inf" bucket`);
    }
  }
  return families;
}

/** The label names a family's samples carry (without a histogram's `le` or a summary's `quantile`). */
function labelNames(found: Family): string[] {
  const names = new Set<string>();
  for (const sample of found.samples) for (const name of Object.keys(sample.labels)) if (name !== 'le' && name !== 'quantile') names.add(name);
  return [...names].sort();
}

// ---------------------------------------------------------------------------
// The README's metric list: rows `| \`name\` | type | labels | unit | meaning |` in "## Metrics".

interface DocumentedMetric {
  name: string;
  type: string;
  labels: string[];
  unit: string;
  linuxOnly: boolean;
  /** Exported only by a server with workers and scaling off (the main thread's hub). */
  hubOnly: boolean;
  /** Exported only with scaling off (state a server holds in memory without Redis). */
  withoutRedisOnly: boolean;
}

function documentedMetrics(markdown: string): Map<string, DocumentedMetric> {
  const start = markdown.indexOf('\n## Metrics\n');
  if (start < 0) throw new Error('README: no "## Metrics" section');
  const next = markdown.indexOf('\n## ', start + 1);
  const section = markdown.slice(start, next < 0 ? undefined : next);
  const metrics = new Map<string, DocumentedMetric>();
  for (const row of section.split('\n').filter((line) => line.startsWith('| `realtime_'))) {
    // Cells split on pipes that are not escaped (`\|` may appear in a meaning).
    const cells = row.trim().slice(1, -1).split(/(?<!\\)\|/).map((cell) => cell.trim());
    if (cells.length !== 5) throw new Error(`README metric row with ${cells.length} cells, not 5: ${row}`);
    const [nameCell = '', type = '', labelCell = '', unit = '', meaning = ''] = cells;
    const name = /^`(realtime_[a-z0-9_]+)`$/.exec(nameCell)?.[1];
    if (!name) throw new Error(`README metric row: the first cell is not one backticked name: ${nameCell}`);
    if (!familyTypes.has(type)) throw new Error(`README ${name}: unknown type ${JSON.stringify(type)}`);
    const labels = labelCell === '' ? [] : labelCell.split(', ').map((label) => /^`([a-z_]+)`$/.exec(label)?.[1] ?? '');
    if (labels.includes('')) throw new Error(`README ${name}: labels are not backticked names separated by ", ": ${labelCell}`);
    if (unit === '' || meaning === '') throw new Error(`README ${name}: no unit or no meaning`);
    if (metrics.has(name)) throw new Error(`README lists ${name} twice`);
    metrics.set(name, { name, type, labels: labels.sort(), unit, linuxOnly: meaning.includes('(*Linux*)'), hubOnly: meaning.includes('(*workers without Redis*)'), withoutRedisOnly: meaning.includes('(*without Redis*)') });
  }
  return metrics;
}

// ---------------------------------------------------------------------------
// Metric names in PromQL: a tokenizer that keeps identifiers used as metric
// names and skips everything else (functions, aggregations and their
// by/without clauses, keywords, label matchers, strings, numbers, durations,
// ranges, Grafana variables).

class PromqlError extends Error {
  constructor(expr: string, message: string) {
    super(`PromQL ${JSON.stringify(expr)}: ${message}`);
    this.name = 'PromqlError';
  }
}

interface MetricReference {
  name: string;
  /** The innermost function or aggregation around it (`rate`, `sum`, ...), if any. */
  within: string | undefined;
}

const aggregations = new Set(['sum', 'min', 'max', 'avg', 'group', 'stddev', 'stdvar', 'count', 'count_values', 'bottomk', 'topk', 'quantile', 'limitk', 'limit_ratio']);
/** Followed by a list of label names in parentheses (or, for group_left/right, possibly nothing). */
const labelListKeywords = new Set(['by', 'without', 'on', 'ignoring', 'group_left', 'group_right']);
const keywords = new Set(['and', 'or', 'unless', 'bool', 'offset', 'atan2', 'inf', 'nan']);

function promqlMetricReferences(expr: string): MetricReference[] {
  const found: MetricReference[] = [];
  // One entry per open "(": the function it calls, or undefined for a plain group.
  const frames: (string | undefined)[] = [];
  let call: string | undefined;
  let i = 0;
  const skipString = () => {
    const quote = expr[i];
    for (i++; i < expr.length && expr[i] !== quote; i++) if (expr[i] === '\\' && quote !== '`') i++;
    if (i >= expr.length) throw new PromqlError(expr, 'an unterminated string');
    i++;
  };
  const skipBlock = (open: string, close: string) => {
    let depth = 0;
    while (i < expr.length) {
      const c = expr[i];
      if (c === '"' || c === "'" || c === '`') {
        skipString();
        continue;
      }
      i++;
      if (c === open) depth++;
      else if (c === close && --depth === 0) return;
    }
    throw new PromqlError(expr, `an unclosed ${open}`);
  };
  const innermost = () => frames.findLast((frame) => frame !== undefined);
  while (i < expr.length) {
    const c = expr[i] ?? '';
    if (/\s/.test(c)) i++;
    else if (c === '"' || c === "'" || c === '`') skipString();
    else if (c === '{') skipBlock('{', '}');
    else if (c === '[') skipBlock('[', ']');
    else if (c === '}' || c === ']') throw new PromqlError(expr, `an unopened ${c}`);
    else if (c === '$') {
      // Grafana: $name, ${name}, ${name:format}.
      i++;
      if (expr[i] === '{') skipBlock('{', '}');
      else while (i < expr.length && /\w/.test(expr[i] ?? '')) i++;
    } else if (c === '(') {
      frames.push(call);
      call = undefined;
      i++;
    } else if (c === ')') {
      if (frames.length === 0) throw new PromqlError(expr, 'an unopened )');
      frames.pop();
      i++;
    } else if (/[0-9.]/.test(c)) {
      // A number (1, 0.5, 1e3, 0x1f) or a duration (5m, 1h30m).
      while (i < expr.length && /[0-9a-zA-Z_.]/.test(expr[i] ?? '')) i++;
    } else if (/[a-zA-Z_:]/.test(c)) {
      const start = i;
      while (i < expr.length && /[a-zA-Z0-9_:]/.test(expr[i] ?? '')) i++;
      const word = expr.slice(start, i);
      const lower = word.toLowerCase();
      while (i < expr.length && /\s/.test(expr[i] ?? '')) i++;
      if (labelListKeywords.has(lower)) {
        if (expr[i] === '(') skipBlock('(', ')');
      } else if (keywords.has(lower)) {
        // An operator or a modifier: its operands are read on their own.
      } else if (expr[i] === '(' || (aggregations.has(lower) && /^(?:by|without)\b/i.test(expr.slice(i)))) {
        call = lower;
      } else {
        found.push({ name: word, within: innermost() });
      }
    } else {
      // Operators (+ - * / % ^ == != < > <= >=), commas, @, the colon of a subquery.
      i++;
    }
  }
  if (frames.length > 0) throw new PromqlError(expr, 'an unclosed (');
  return found;
}

/** The family a referenced name belongs to: itself, or a histogram's or summary's `_bucket`/`_sum`/`_count` mapped to its base. */
function familyOf(name: string, families: Map<string, Family>): Family | undefined {
  const direct = families.get(name);
  if (direct) return direct;
  const suffix = /_(?:bucket|sum|count)$/.exec(name)?.[0];
  if (!suffix) return undefined;
  const base = families.get(name.slice(0, -suffix.length));
  return base && sampleSuffixes[base.type ?? '']?.includes(suffix) ? base : undefined;
}

/** Whether the series a name selects are counters: counters, and a histogram's or summary's `_bucket`/`_sum`/`_count`. */
const isCounterSeries = (name: string, found: Family) => found.type === 'counter' || (found.name !== name && (found.type === 'histogram' || found.type === 'summary'));
const counterFunctions = new Set(['rate', 'irate', 'increase']);

describe('PromQL metric names (the dashboard test tokenizer)', () => {
  const names = (expr: string) => promqlMetricReferences(expr).map((reference) => reference.name);

  it('keeps metric names and skips functions, aggregations, clauses, matchers, strings, durations and variables', () => {
    expect(names('sum by (app_id, status) (rate(realtime_http_requests_total{app_id=~"$app_id",status!="200"}[$__rate_interval]))')).toEqual(['realtime_http_requests_total']);
    expect(names('sum(rate(a_total[5m] offset 1h)) by (instance) / on(instance) group_left(version) max without (x) (b_info)')).toEqual(['a_total', 'b_info']);
    expect(names('histogram_quantile(0.99, sum by (le) (rate(h_seconds_bucket{job="x}y"}[1h30m:1m])))')).toEqual(['h_seconds_bucket']);
    expect(names('label_replace(up, "dst", "$1", "src", "(.*)") > bool 0 and topk(5, g) unless count_values("v", c) or vector(1) @ start()')).toEqual(['up', 'g', 'c']);
    expect(names('{__name__=~"realtime_.+"} * 1e3 - 0x1f + Inf - NaN')).toEqual([]);
    expect(names('a{l="\\"}"} + ${var:raw} + b')).toEqual(['a', 'b']);
  });

  it('says which function or aggregation is around each name', () => {
    expect(promqlMetricReferences('sum by (a) (rate(c_total[5m])) / sum(g) + (h)')).toEqual([
      { name: 'c_total', within: 'rate' },
      { name: 'g', within: 'sum' },
      { name: 'h', within: undefined },
    ]);
  });

  it('refuses unbalanced expressions with a PromqlError', () => {
    for (const bad of ['rate(x[5m]', 'x{a="b"', 'x)', 'x]', 'x{a="b}', 'sum(x[5m)']) expect(() => promqlMetricReferences(bad)).toThrow(PromqlError);
  });

  it('finds exactly the metrics of generated expressions, whatever the label values', () => {
    const metric = fc.stringMatching(/^[a-z][a-z0-9_]{0,12}$/).map((name) => `m_${name}`);
    const labelValue = fc.string({ maxLength: 12 }).map((value) => JSON.stringify(value));
    const selector = fc
      .tuple(metric, fc.array(fc.tuple(fc.constantFrom('app_id', 'le', 'reason'), fc.constantFrom('=', '!=', '=~', '!~'), labelValue), { maxLength: 3 }), fc.constantFrom('', '[5m]', '[$__rate_interval]', '[1h:1m]'))
      .map(([name, matchers, range]) => ({ text: `${name}${matchers.length > 0 ? `{${matchers.map(([label, op, value]) => `${label}${op}${value}`).join(',')}}` : ''}${range}`, names: [name] }));
    type Generated = { text: string; names: string[] };
    const { expr } = fc.letrec<{ expr: Generated }>((tie) => ({
      expr: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        selector,
        fc.double({ noNaN: true, noDefaultInfinity: true, min: 0, max: 1e6 }).map((value) => ({ text: String(value), names: [] })),
        fc.tuple(fc.constantFrom('rate', 'increase', 'abs', 'label_replace'), tie('expr') as fc.Arbitrary<Generated>).map(([fn, inner]) => ({ text: `${fn}(${inner.text})`, names: inner.names })),
        fc
          .tuple(fc.constantFrom('sum', 'max', 'count'), fc.constantFrom('', ' by (app_id, reason)', ' without (le)'), tie('expr') as fc.Arbitrary<Generated>)
          .map(([agg, clause, inner]) => ({ text: `${agg}${clause} (${inner.text})`, names: inner.names })),
        fc
          .tuple(tie('expr') as fc.Arbitrary<Generated>, fc.constantFrom(' + ', ' / on(instance) ', ' and ', ' > bool ', ' * ignoring(x) group_left(y) '), tie('expr') as fc.Arbitrary<Generated>)
          .map(([left, op, right]) => ({ text: `${left.text}${op}${right.text}`, names: [...left.names, ...right.names] })),
      ),
    }));
    fc.assert(
      fc.property(expr, (generated) => {
        expect(names(generated.text)).toEqual(generated.names);
      }),
      { numRuns: 300 },
    );
  });

  it('answers any input with names or a PromqlError, never anything else', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60, unit: fc.constantFrom(...'ab_(){}[]"\'`\\$ ,=~5m'.split('')) }), (input) => {
        try {
          for (const reference of promqlMetricReferences(input)) expect(reference.name).toMatch(/^[a-zA-Z_:][a-zA-Z0-9_:]*$/);
        } catch (error) {
          expect(error).toBeInstanceOf(PromqlError);
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe('the exposition parser', () => {
  it('reads a well-formed body and refuses malformed ones', () => {
    const good = '# HELP a_total A.\n# TYPE a_total counter\na_total{x="1\\n\\"2"} 3\n# HELP h H.\n# TYPE h histogram\nh_bucket{le="1"} 0\nh_bucket{le="+Inf"} 1\nh_sum 0.5\nh_count 1\n';
    expect(parseExposition(good).get('a_total')?.samples).toEqual([{ name: 'a_total', labels: { x: '1\n"2' }, value: 3 }]);
    for (const bad of [
      'a 1\n',
      '# TYPE a gauge\na 1\n',
      '# HELP a A.\n# TYPE a gauge\na 1',
      '# HELP a A.\n# TYPE a gauge\na{x=1} 1\n',
      '# HELP a A.\n# TYPE a gauge\na one\n',
      '# HELP a A.\n# TYPE a gauge\na 1\na 2\n',
      '# HELP a A.\n# TYPE a gauge\na{x="1"} 1\n# HELP b B.\n# TYPE b gauge\nb 1\na{x="2"} 1\n',
      '# HELP a A.\n# TYPE a gauge\n# TYPE a counter\n',
      '# HELP h H.\n# TYPE h histogram\nh_bucket{le="1"} 0\nh_sum 0\nh_count 0\n',
    ]) {
      expect(() => parseExposition(bad), bad).toThrow(ExpositionError);
    }
  });
});

// ---------------------------------------------------------------------------
// The live daemon.

const redisUrl = await testRedisUrl();
const app = testApp('metrics-catalogue');
const limited = testApp('metrics-catalogue-limited', { max_backend_events_per_second: 1 });

/**
 * Families that move only on rare events (a flood, lost webhooks) or
 * that hold what is in flight at the scrape (libuv requests, GC pauses), so
 * they may have no series after the exercise. Every other family must.
 */
const mayBeEmpty = new Set([
  'realtime_connections_flood_closed_total',
  'realtime_connections_unauthorized_closed_total',
  'realtime_webhook_events_dropped_total',
  'realtime_nodejs_active_requests',
  'realtime_nodejs_gc_duration_seconds',
  'realtime_idempotency_in_flight_refused_total',
]);

describe.skipIf(!redisUrl)('the metrics a daemon exports (scaling and webhooks on, exercised)', () => {
  let daemon: RunningDaemon;
  let hook: WebhookReceiver;
  let families: Map<string, Family>;

  const scrape = async () => {
    const response = await fetch(`${daemon.httpUrl}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    return response.text();
  };

  const trigger = (on: TestApp, channel: string) =>
    signedFetch(daemon.httpUrl, on, { method: 'POST', path: `/apps/${on.id}/events`, body: JSON.stringify({ name: 'tick', channels: [channel], data: '{}' }) });

  beforeAll(async () => {
    // The first attempt fails, the retry (about a second later) is accepted.
    hook = await startWebhookReceiver(app, (n) => (n === 1 ? 500 : 200));
    daemon = await startDaemon(
      daemonConfig([{ ...app, webhooks: [{ url: hook.url, event_types: ['channel_occupied'] }] }, limited], {
        rate_limiter: { enabled: true, driver: 'local' },
        ...scalingConfig(redisUrl ?? '', uniqueChannel('metrics-catalogue')),
      }),
    );

    // Connections and messages, both ways.
    const client = pusherClient(daemon, app);
    await connected(client);
    const channel = await subscribed(client, 'private-orders');
    const shipped = new Promise((resolve) => channel.bind('shipped', resolve));
    await backend(daemon, app).trigger('private-orders', 'shipped', { id: 1 });
    await shipped;

    // HTTP: unsigned (401), a rate limit (429 on the second trigger of the second), a body over max_request_size (413).
    expect((await fetch(`${daemon.httpUrl}/apps/${app.id}/channels`)).status).toBe(401);
    const statuses = [(await trigger(limited, 'a')).status, (await trigger(limited, 'b')).status];
    expect(statuses).toContain(429);
    expect((await fetch(`${daemon.httpUrl}/apps/${app.id}/events`, { method: 'POST', body: 'x'.repeat(300_000) })).status).toBe(413);

    // An idempotent trigger retried: one replay.
    const idempotencyKey = uniqueChannel('catalogue');
    const keyed = () =>
      signedFetch(daemon.httpUrl, app, { method: 'POST', path: `/apps/${app.id}/events`, body: JSON.stringify({ name: 'tick', channels: ['keyed'], data: '{}' }), headers: { 'x-idempotency-key': idempotencyKey } });
    expect((await keyed()).status).toBe(200);
    expect((await keyed()).headers.get('x-idempotent-replay')).toBe('true');

    // Refusals: an unknown key, a subscription with a bad signature, a frame that is not JSON.
    const unknown = await openRaw(daemon, 'no-such-key');
    await unknown.closed;
    const { socket } = await connectRaw(daemon, app.key);
    socket.subscribe('private-secret', { auth: `${app.key}:${'0'.repeat(64)}` });
    await socket.next('pusher:subscription_error');
    socket.send('not json');
    await socket.next('pusher:error');
    const { socket: signer } = await connectRaw(daemon, app.key);
    signer.send(JSON.stringify({ event: 'pusher:signin', data: { user_data: '{"id":"u"}', auth: `${app.key}:${'0'.repeat(64)}` } }));
    await signer.next('pusher:error');

    // The webhook: delivered on its retry.
    await hook.waitForAccepted(1, 10_000);
    disconnect(client);

    // The daemon counts a delivery once it has read the answer, and a close once the socket is gone.
    let text = '';
    for (let attempt = 0; attempt < 100; attempt++) {
      text = await scrape();
      if (text.includes(`realtime_webhook_deliveries_total{app_id="${app.id}"}`) && text.includes(`realtime_connections_closed_total{app_id="${app.id}"}`)) break;
      await sleep(50);
    }
    families = parseExposition(text);
  });

  afterAll(async () => {
    await hook.close();
  });

  it('is well-formed, with one realtime_ prefix and _total on counters only', () => {
    expect(families.size).toBeGreaterThan(40);
    for (const found of families.values()) {
      expect(found.name).toMatch(/^realtime_[a-z0-9_]+$/);
      expect(found.name).not.toMatch(/^realtime_(?:[a-z]+_)?(?:realtime|process|nodejs)_(?:process|nodejs)_/);
      expect(found.help, found.name).not.toBe('');
      expect(found.name.endsWith('_total'), `${found.name} is a ${String(found.type)}`).toBe(found.type === 'counter');
      for (const name of labelNames(found)) expect(name).toMatch(/^[a-z][a-z_]*$/);
    }
    expect([...families.keys()]).toEqual(expect.arrayContaining(['realtime_process_cpu_user_seconds_total', 'realtime_nodejs_eventloop_lag_seconds', 'realtime_scaling_outbox_messages']));
  });

  it('has series for every family the exercise moves', () => {
    const empty = [...families.values()].filter((found) => found.samples.length === 0).map((found) => found.name);
    expect(empty.filter((name) => !mayBeEmpty.has(name))).toEqual([]);
  });

  it('exports exactly what the README lists, with the types and labels it gives', () => {
    const documented = documentedMetrics(readFileSync(readmePath, 'utf8'));
    const problems: string[] = [];
    for (const found of families.values()) {
      const entry = documented.get(found.name);
      if (!entry) problems.push(`${found.name} (${String(found.type)}) is exported but not in the README`);
      else if (entry.type !== found.type) problems.push(`${found.name}: the README says ${entry.type}, the daemon ${String(found.type)}`);
      else if (found.samples.length > 0 && entry.labels.join() !== labelNames(found).join()) problems.push(`${found.name}: the README lists labels [${entry.labels.join(', ')}], the daemon exports [${labelNames(found).join(', ')}]`);
    }
    for (const entry of documented.values()) {
      if (!families.has(entry.name) && !entry.hubOnly && !entry.withoutRedisOnly && (process.platform === 'linux' || !entry.linuxOnly)) problems.push(`${entry.name} is in the README but not exported`);
    }
    expect(problems).toEqual([]);
  });

  it('has a Grafana dashboard whose every query uses exported metrics, counters through rate() or increase()', () => {
    const packageJson = JSON.parse(readFileSync(packageJsonPath, 'utf8')) as { files: string[] };
    expect(packageJson.files).toContain('grafana');

    interface Target {
      expr?: string;
      datasource?: { uid?: string };
    }
    interface Panel {
      id: number;
      type: string;
      title: string;
      datasource?: { uid?: string };
      targets?: Target[];
      panels?: Panel[];
    }
    interface Variable {
      name: string;
      type: string;
      query: string | { query: string };
    }
    const dashboard = JSON.parse(readFileSync(dashboardPath, 'utf8')) as { schemaVersion: number; uid: string; panels: Panel[]; templating: { list: Variable[] } };
    expect(dashboard.schemaVersion).toBeGreaterThanOrEqual(36);
    expect(dashboard.uid).toBe('realtime-server');
    const variables = new Map(dashboard.templating.list.map((variable) => [variable.name, variable]));
    expect(variables.get('DS_PROMETHEUS')).toMatchObject({ type: 'datasource', query: 'prometheus' });
    expect(variables.get('app_id')).toMatchObject({ type: 'query' });

    const panels = dashboard.panels.flatMap((panel) => [panel, ...(panel.panels ?? [])]).filter((panel) => panel.type !== 'row');
    expect(new Set(dashboard.panels.flatMap((panel) => [panel, ...(panel.panels ?? [])]).map((panel) => panel.id)).size).toBe(dashboard.panels.flatMap((panel) => [panel, ...(panel.panels ?? [])]).length);
    expect(panels.length).toBeGreaterThanOrEqual(20);

    const problems: string[] = [];
    const check = (where: string, expr: string, requireMetric: boolean) => {
      const references = promqlMetricReferences(expr);
      if (requireMetric && references.length === 0) problems.push(`${where}: no metric in ${expr}`);
      for (const { name, within } of references) {
        const found = familyOf(name, families);
        if (!found) problems.push(`${where}: ${name} is not exported`);
        else if (isCounterSeries(name, found) && !counterFunctions.has(within ?? '')) problems.push(`${where}: counter ${name} not inside rate(), irate() or increase()`);
        else if (!isCounterSeries(name, found) && counterFunctions.has(within ?? '')) problems.push(`${where}: ${found.type} ${name} inside ${within}()`);
      }
    };
    for (const panel of panels) {
      const targets = panel.targets ?? [];
      if (targets.length === 0) problems.push(`panel "${panel.title}": no query`);
      if (panel.datasource?.uid !== '${DS_PROMETHEUS}') problems.push(`panel "${panel.title}": data source is not \${DS_PROMETHEUS}`);
      for (const target of targets) {
        if (!target.expr) problems.push(`panel "${panel.title}": a query without expr`);
        else check(`panel "${panel.title}"`, target.expr, true);
        if (target.datasource?.uid !== '${DS_PROMETHEUS}') problems.push(`panel "${panel.title}": a query whose data source is not \${DS_PROMETHEUS}`);
      }
    }
    for (const variable of variables.values()) {
      if (variable.type !== 'query') continue;
      const query = typeof variable.query === 'string' ? variable.query : variable.query.query;
      const selector = /^label_values\((.*),\s*([a-zA-Z_]\w*)\)$/.exec(query)?.[1];
      if (selector === undefined) problems.push(`variable ${variable.name}: not label_values(selector, label): ${query}`);
      else check(`variable ${variable.name}`, selector, false);
    }
    expect(problems).toEqual([]);
  });
});

describe('the metrics a server with workers and no Redis exports (the hub in the main thread)', () => {
  it('exports the hub families the README marks, counting a node-wide message handed to the other worker', async () => {
    const daemon = await startDaemon(daemonConfig([app], { workers: 2 }));
    await daemon.waitForLog((line) => line['msg'] === 'server started');
    // terminate_connections reaches every worker whatever its subscribers: one message handed to the other worker.
    const terminated = await signedFetch(daemon.httpUrl, app, { method: 'POST', path: `/apps/${app.id}/users/nobody/terminate_connections`, body: '{}' });
    expect(terminated.status).toBe(200);
    const exported = parseExposition(await (await fetch(`${daemon.httpUrl}/metrics`)).text());

    const documented = documentedMetrics(readFileSync(readmePath, 'utf8'));
    const problems: string[] = [];
    for (const found of exported.values()) {
      const entry = documented.get(found.name);
      if (!entry) problems.push(`${found.name} (${String(found.type)}) is exported with workers but not in the README`);
      else if (entry.type !== found.type) problems.push(`${found.name}: the README says ${entry.type}, the daemon ${String(found.type)}`);
    }
    for (const entry of documented.values()) {
      if ((entry.hubOnly || entry.withoutRedisOnly) && !exported.has(entry.name)) problems.push(`${entry.name} is in the README but not exported with workers`);
    }
    expect(problems).toEqual([]);
    expect(exported.get('realtime_workers_messages_forwarded_total')?.samples[0]?.value).toBeGreaterThanOrEqual(1);
    expect(exported.get('realtime_workers_messages_invalid_total')?.samples[0]?.value).toBe(0);
  });
});
