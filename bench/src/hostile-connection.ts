import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { collectMachine, type MachineInfo } from './machine.js';
import { sleep } from './measure/stats.js';
import { connectMany, PusherClient } from './load/pusher-client.js';
import { benchApp } from './load/signing.js';
import { attack, attackChannel, type AttackResult } from './hostile/attacker.js';
import { Bystander, type PingSummary } from './hostile/bystander.js';
import { HostileDaemon, type Exit } from './hostile/daemon-process.js';
import { RedisProbe } from './hostile/redis-probe.js';
import { Inspector, type MemoryUsage } from './hostile/inspector.js';
import { canPin, pin } from './targets/processes.js';

/**
 * What one hostile (or runaway) connection can cost a node: a flood of
 * `pusher:subscribe` frames against the shipped per-connection limits, or
 * with them raised out of the way (`--unbounded`, the behaviour before they
 * existed); the per-connection and per-subscription memory at the defaults;
 * and a SIGTERM with 10,000 subscriptions held. Not a test: nothing asserts,
 * but every figure a limit is judged by is printed and written as JSON.
 */
const usage = `node bench/dist/hostile-connection.js [--redis URL] [--unbounded] [--channels N] [--no-pin]

  --redis URL    scaling on over this Redis (yours: the bench does not start it; reads DBSIZE and INFO memory)
  --unbounded    max_channels_per_connection and max_frames_per_second at 10,000,000 (the old behaviour)
  --channels N   subscribe frames the attacker sends (default 100,000)
  --no-pin       do not pin the daemon to CPU 0 and the bench to CPU 1`;

const log = (message: string) => process.stderr.write(`${message}\n`);

/** The whole run, hard: past it everything started is killed and what was measured is written. */
const watchdogMs = 60_000;
const attackTimeoutMs = 20_000;
const apiTimeoutMs = 10_000;
const cleanupTimeoutMs = 12_000;
const pollMs = 100;
const settleMs = 700;
const idleConnections = 2_000;
const subscribers = 100;
const channelsPerSubscriber = 100;
/**
 * The three attackers: a flood; a paced one under the default 100 frames a
 * second, so only the channel limit applies; and a sustained one at 150
 * frames a second, over the frame limit but under twice it, which only the
 * "three seconds in a row" rule closes.
 */
const attackers = {
  flood: { batch: 1_000, intervalMs: 0 },
  paced: { count: 150, batch: 1, intervalMs: 12 },
  sustained: { count: 600, batch: 15, intervalMs: 100 },
} as const;
type AttackKind = keyof typeof attackers;

interface RedisFigures {
  dbsize: number;
  usedMemory: number;
}

interface ChannelsListing {
  status: number;
  channels: number;
  attackerChannels: number;
  bytes: number;
  ms: number;
}

interface Cleanup {
  /** From the attacker's close until `GET /channels` lists none of its channels; undefined: not within the timeout. */
  channelsMs: number | undefined;
  /** From the close until DBSIZE is back at its value before the attack (Redis mode). */
  redisMs: number | undefined;
  redisDbsizeAtEnd: number | undefined;
  bystander: PingSummary;
}

interface AttackPhase {
  kind: AttackKind;
  framesPerSecond: number | 'as fast as the socket takes them';
  result: AttackResult;
  listing: ChannelsListing | undefined;
  rssBefore: number;
  rssAfter: number;
  rssDelta: number;
  redisBefore: RedisFigures | undefined;
  redisAfter: RedisFigures | undefined;
  bystander: PingSummary;
  cleanup: Cleanup;
}

/**
 * Every reading follows a full GC in the daemon (through the inspector):
 * without it, RSS deltas of a few MiB are mostly garbage not yet collected
 * and whatever the previous collection happened to give back.
 */
interface MemoryReading {
  /** The daemon's `process.memoryUsage()` after a full GC. */
  usage: MemoryUsage;
  redis: RedisFigures | undefined;
}

/** Bytes per item between two readings. */
interface PerItem {
  /** Resident set after a full GC: what the node keeps paying. */
  rss: number;
  /** V8 heap used after a full GC: the JavaScript share. */
  heap: number;
  /** Memory V8 knows of outside its heap (Buffers). */
  external: number;
  /** Redis `used_memory`. */
  redis: number | undefined;
}

function perItem(before: MemoryReading, after: MemoryReading, items: number): PerItem {
  return {
    rss: (after.usage.rss - before.usage.rss) / items,
    heap: (after.usage.heapUsed - before.usage.heapUsed) / items,
    external: (after.usage.external - before.usage.external) / items,
    redis: before.redis && after.redis ? (after.redis.usedMemory - before.redis.usedMemory) / items : undefined,
  };
}

interface OversizedFrame {
  bytes: number;
  closeCode: number | undefined;
  ms: number;
}

/** Just over the default frame limit (24,096), and past uWS's own ceiling (twice it), where uWS drops the TCP connection. */
const oversizedFrames = [30_000, 60_000];

async function oversizedFrame(daemon: HostileDaemon, size: number): Promise<OversizedFrame> {
  const client = await PusherClient.connect(daemon.endpoint, benchApp.key);
  const from = performance.now();
  const prefix = '{"event":"client-x","channel":"private-x","data":"';
  client.sendText(`${prefix}${'a'.repeat(size - prefix.length - 2)}"}`);
  await client.waitFor(() => false, 5_000).catch(() => undefined);
  const result = { bytes: size, closeCode: client.closeCode, ms: performance.now() - from };
  client.destroy();
  return result;
}

interface MemoryPhase {
  idleConnections: number;
  perIdleConnection: PerItem;
  subscriptions: number;
  /** Each of 100 connections on 100 channels of its own (the worst case: every subscription creates a channel). */
  perSubscription: PerItem;
  redisKeysPerSubscription: number | undefined;
  connectMs: number;
  subscribeMs: number;
}

interface TerminatePhase {
  connections: number;
  subscriptions: number;
  exit: Exit;
  redisDbsizeBaseline: number | undefined;
  redisDbsizeBeforeSigterm: number | undefined;
  redisDbsizeAfterExit: number | undefined;
}

interface Report {
  mode: string;
  command: string;
  startedAt: string;
  machine: MachineInfo;
  /** Source files of the daemon and packages that differed from the commit when this ran (the build may include them). */
  uncommittedSources: string[];
  limits: { max_channels_per_connection: number; max_frames_per_second: number; max_json_depth: number };
  attackerChannels: number;
  bystanderBaseline: PingSummary | undefined;
  flood: AttackPhase | undefined;
  paced: AttackPhase | undefined;
  sustained: AttackPhase | undefined;
  /** One frame over the transport's size limit (2 x max_message_size + 4 KiB = 24,096 bytes at the defaults). */
  oversizedFrames: OversizedFrame[];
  /** 50 pings after everything above: the node is back to normal. */
  bystanderAfter: PingSummary | undefined;
  memory: MemoryPhase | undefined;
  sigterm: TerminatePhase | undefined;
  /** max_channels_per_connection x per subscription + per idle connection, after a full GC (+ Redis, in Redis mode). */
  worstConnectionAtDefaults: { rssBytes: number; heapBytes: number; redisBytes: number | undefined } | undefined;
  totalSeconds: number;
  errors: string[];
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      redis: { type: 'string' },
      unbounded: { type: 'boolean', default: false },
      channels: { type: 'string' },
      'no-pin': { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) return void process.stdout.write(`${usage}\n`);
  const count = Number(values.channels ?? 100_000);
  if (!Number.isInteger(count) || count < 1) throw new Error(`--channels must be a positive integer\n${usage}`);
  const redisUrl = values.redis;
  const unbounded = values.unbounded;
  const mode = `${redisUrl ? 'redis' : 'local'}-${unbounded ? 'unbounded' : 'default'}${count === 100_000 ? '' : `-n${count}`}`;

  const pinned = !values['no-pin'] && canPin() && pin(process.pid, 1);
  const cpu = pinned ? 0 : undefined;
  log(`${mode}: ${pinned ? 'daemon on CPU 0, bench on CPU 1' : 'not pinned'}`);

  const started = performance.now();
  const report: Report = {
    mode,
    command: ['node', 'bench/dist/hostile-connection.js', ...process.argv.slice(2)].join(' '),
    startedAt: new Date().toISOString(),
    machine: collectMachine(pinned),
    uncommittedSources: uncommittedSources(),
    limits: unbounded
      ? { max_channels_per_connection: 10_000_000, max_frames_per_second: 10_000_000, max_json_depth: 64 }
      : { max_channels_per_connection: 100, max_frames_per_second: 100, max_json_depth: 64 },
    attackerChannels: count,
    bystanderBaseline: undefined,
    flood: undefined,
    paced: undefined,
    sustained: undefined,
    oversizedFrames: [],
    bystanderAfter: undefined,
    memory: undefined,
    sigterm: undefined,
    worstConnectionAtDefaults: undefined,
    totalSeconds: Number.NaN,
    errors: [],
  };

  const daemons = new Set<HostileDaemon>();
  const redis = redisUrl ? await RedisProbe.open(redisUrl) : undefined;
  const finishReport = () => {
    report.totalSeconds = (performance.now() - started) / 1000;
    return writeReport(report);
  };
  const watchdog = setTimeout(() => {
    report.errors.push(`watchdog: the run passed ${watchdogMs / 1000} s; everything started was killed`);
    for (const daemon of daemons) daemon.kill();
    finishReport();
    process.exit(1);
  }, watchdogMs);
  const startDaemon = async (limitsRaised: boolean, inspect = false) => {
    const daemon = await HostileDaemon.start({ unbounded: limitsRaised, redisUrl, cpu, inspect });
    daemons.add(daemon);
    return daemon;
  };

  try {
    // 1-4: the attack, against the mode's limits.
    const daemon = await startDaemon(unbounded);
    try {
      const bystander = await Bystander.connect(daemon.endpoint, benchApp.key);
      report.bystanderBaseline = await bystander.measure(50);
      log(`bystander baseline: ${ms(report.bystanderBaseline.medianMs)} median, ${ms(report.bystanderBaseline.p99Ms)} p99`);
      report.flood = await attackPhase('flood', daemon, bystander, redis, count);
      log(`flood: ${report.flood.result.outcome} after ${ms(report.flood.result.ms)}, ${report.flood.result.succeeded} subscribed`);
      report.paced = await attackPhase('paced', daemon, bystander, redis, attackers.paced.count);
      log(`paced: ${report.paced.result.succeeded} subscribed, ${report.paced.result.limitReached} LimitReached`);
      report.sustained = await attackPhase('sustained', daemon, bystander, redis, attackers.sustained.count);
      log(`sustained: ${report.sustained.result.outcome} after ${ms(report.sustained.result.ms)}`);
      for (const size of oversizedFrames) report.oversizedFrames.push(await oversizedFrame(daemon, size));
      report.bystanderAfter = await bystander.measure(50);
      await bystander.stop();
      bystander.close();
    } finally {
      await daemon.stop();
      daemons.delete(daemon);
    }

    // 5-6: memory at the defaults, then SIGTERM with 100 x 100 channels held.
    const redisBaseline = await redisFigures(redis);
    const fresh = await startDaemon(false, true);
    try {
      const [memory, sigterm] = await memoryAndTerminate(fresh, redis, redisBaseline);
      report.memory = memory;
      report.sigterm = sigterm;
      const worst = (pick: (item: PerItem) => number | undefined) => {
        const [channel, connection] = [pick(memory.perSubscription), pick(memory.perIdleConnection)];
        return channel === undefined || connection === undefined ? undefined : 100 * channel + connection;
      };
      report.worstConnectionAtDefaults = { rssBytes: worst((item) => item.rss)!, heapBytes: worst((item) => item.heap)!, redisBytes: worst((item) => item.redis) };
    } finally {
      await fresh.stop();
      daemons.delete(fresh);
    }
  } catch (error) {
    report.errors.push((error as Error).stack ?? String(error));
    for (const daemon of daemons) await daemon.stop();
  } finally {
    clearTimeout(watchdog);
    redis?.close();
  }
  const file = finishReport();
  process.stdout.write(`${textReport(report)}\nwritten: ${file}\n`);
  process.exit(report.errors.length ? 1 : 0);
}

async function redisFigures(redis: RedisProbe | undefined): Promise<RedisFigures | undefined> {
  if (!redis) return undefined;
  return { dbsize: await redis.dbsize(), usedMemory: await redis.usedMemory() };
}

/** Polls `check` every `pollMs` until it holds; ms from `from`, or undefined past `timeoutMs`. */
async function until(check: () => Promise<boolean>, from: number, timeoutMs: number): Promise<number | undefined> {
  while (performance.now() - from < timeoutMs) {
    if (await check()) return performance.now() - from;
    await sleep(pollMs);
  }
  return undefined;
}

async function listChannels(daemon: HostileDaemon): Promise<ChannelsListing> {
  const from = performance.now();
  const { status, body } = await daemon.api('/channels', apiTimeoutMs);
  const elapsed = performance.now() - from;
  const names = status === 200 ? Object.keys((JSON.parse(body.toString('utf8')) as { channels: Record<string, unknown> }).channels) : [];
  return { status, channels: names.length, attackerChannels: names.filter((name) => name.startsWith(attackChannel(0).slice(0, -1))).length, bytes: body.length, ms: elapsed };
}

async function attackPhase(
  kind: AttackKind,
  daemon: HostileDaemon,
  bystander: Bystander,
  redis: RedisProbe | undefined,
  count: number,
): Promise<AttackPhase> {
  const { batch, intervalMs } = attackers[kind];
  const attacker = await PusherClient.connect(daemon.endpoint, benchApp.key);
  await sleep(200);
  const redisBefore = await redisFigures(redis);
  const rssBefore = daemon.rss();
  bystander.start();
  const result = await attack(attacker, { count, timeoutMs: attackTimeoutMs, batch, intervalMs });
  const rssAfter = daemon.rss();
  const redisAfter = await redisFigures(redis);
  // Closed by the server: cleanup runs from that moment and the listing is its first look. Otherwise the
  // attacker holds its channels for the listing, then closes.
  const closedByServer = result.outcome === 'closed';
  const listing = await listChannels(daemon).catch(() => undefined);
  const closedAt = closedByServer ? result.endedAt : performance.now();
  attacker.close();
  const [channelsMs, redisMs] = await Promise.all([
    until(async () => (await listChannels(daemon)).attackerChannels === 0, closedAt, cleanupTimeoutMs),
    redis && redisBefore ? until(async () => (await redis.dbsize()) <= redisBefore.dbsize, closedAt, cleanupTimeoutMs) : Promise.resolve(undefined),
  ]);
  const cleanupEnd = performance.now();
  // At least 2 s of bystander pings from the first frame, even when the attacker was closed within milliseconds.
  const attackWindowEnd = Math.max(result.endedAt, result.endedAt - result.ms + 2_000);
  await sleep(Math.max(100, attackWindowEnd - performance.now()));
  await bystander.stop();
  return {
    kind,
    framesPerSecond: intervalMs > 0 ? Math.round((1000 * batch) / intervalMs) : 'as fast as the socket takes them',
    result,
    listing,
    rssBefore,
    rssAfter,
    rssDelta: rssAfter - rssBefore,
    redisBefore,
    redisAfter,
    bystander: bystander.summary(result.endedAt - result.ms, attackWindowEnd),
    cleanup: {
      channelsMs,
      redisMs,
      redisDbsizeAtEnd: redis ? await redis.dbsize() : undefined,
      bystander: bystander.summary(closedAt, cleanupEnd),
    },
  };
}

/** `baseline`: Redis before this daemon started, what must be left after it exits. */
async function memoryAndTerminate(daemon: HostileDaemon, redis: RedisProbe | undefined, baseline: RedisFigures | undefined): Promise<[MemoryPhase, TerminatePhase]> {
  const inspector = await Inspector.attach(daemon.endpoint.host, daemon.inspectPort!);
  const reading = async (): Promise<MemoryReading> => {
    await sleep(settleMs);
    return { usage: await inspector.memoryAfterGc(), redis: await redisFigures(redis) };
  };
  const r0 = await reading();
  const connectFrom = performance.now();
  const idle = await connectMany(idleConnections, 50, () => PusherClient.connect(daemon.endpoint, benchApp.key));
  const connectMs = performance.now() - connectFrom;
  const r1 = await reading();

  const subscribing = await connectMany(subscribers, 50, () => PusherClient.connect(daemon.endpoint, benchApp.key));
  const r2 = await reading();
  const subscribeFrom = performance.now();
  await Promise.all(subscribing.map((client, index) => subscribeAll(client, index)));
  const subscribeMs = performance.now() - subscribeFrom;
  const r3 = await reading();
  inspector.detach();
  const subscriptions = subscribers * channelsPerSubscriber;
  const memory: MemoryPhase = {
    idleConnections,
    perIdleConnection: perItem(r0, r1, idleConnections),
    subscriptions,
    perSubscription: perItem(r2, r3, subscriptions),
    redisKeysPerSubscription: r2.redis && r3.redis ? (r3.redis.dbsize - r2.redis.dbsize) / subscriptions : undefined,
    connectMs,
    subscribeMs,
  };

  // Only the 100 subscribers stay for the SIGTERM.
  for (const client of idle) client.close();
  await sleep(settleMs);
  const beforeSigterm = await redisFigures(redis);
  const exit = await daemon.terminate(15_000);
  const afterExit = await redisFigures(redis);
  for (const client of subscribing) client.destroy();
  return [
    memory,
    {
      connections: subscribers,
      subscriptions,
      exit,
      redisDbsizeBaseline: baseline?.dbsize,
      redisDbsizeBeforeSigterm: beforeSigterm?.dbsize,
      redisDbsizeAfterExit: afterExit?.dbsize,
    },
  ];
}

/** Subscribes client `index` to its 100 channels in one burst (100 frames: exactly the default frame budget). */
function subscribeAll(client: PusherClient, index: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let answered = 0;
    const marker = Buffer.from('pusher_internal:subscription_succeeded');
    client.onRawFrame = (buffer, start, end) => {
      if (!buffer.subarray(start, end).includes(marker)) return reject(new Error(`subscriber ${index}: ${buffer.toString('utf8', start, end)}`));
      if (++answered === channelsPerSubscriber) resolve();
    };
    client.waitFor(() => false, 15_000).catch(() => reject(new Error(`subscriber ${index}: ${answered} of ${channelsPerSubscriber} answers, closed ${client.closeCode}`)));
    for (let channel = 0; channel < channelsPerSubscriber; channel++) {
      client.sendText(`{"event":"pusher:subscribe","data":{"channel":"held-${index}-${channel}"}}`);
    }
  });
}

function uncommittedSources(): string[] {
  try {
    const status = execFileSync('git', ['status', '--porcelain', '--', 'apps/server/src', 'packages'], { encoding: 'utf8', cwd: fileURLToPath(new URL('../..', import.meta.url)), stdio: ['ignore', 'pipe', 'ignore'] });
    return status.split('\n').filter((line) => line.includes('/src/') && !/\.test\.ts$/.test(line));
  } catch {
    return ['unknown (no git)'];
  }
}

function writeReport(report: Report): string {
  const dir = fileURLToPath(new URL('../results/', import.meta.url));
  mkdirSync(dir, { recursive: true });
  const file = `${dir}hostile-connection-${report.mode}.json`;
  writeFileSync(file, `${JSON.stringify(report, (_key, value: unknown) => (typeof value === 'number' && !Number.isFinite(value) ? null : value), 2)}\n`);
  return file;
}

// Formatting for the printed table.
const ms = (value: number | undefined) => (value === undefined || !Number.isFinite(value) ? 'n/a' : value < 10 ? `${value.toFixed(2)} ms` : value < 10_000 ? `${Math.round(value)} ms` : `${(value / 1000).toFixed(1)} s`);
const bytes = (value: number | undefined) => {
  if (value === undefined || !Number.isFinite(value)) return 'n/a';
  const size = Math.abs(value);
  return size >= 1024 * 1024 ? `${(value / 1024 / 1024).toFixed(1)} MiB` : size >= 10 * 1024 ? `${(value / 1024).toFixed(1)} KiB` : `${Math.round(value)} B`;
};
const pings = (summary: PingSummary | undefined) =>
  summary ? `${ms(summary.medianMs)} median, ${ms(summary.p99Ms)} p99, ${ms(summary.maxMs)} max (${summary.pings} pings${summary.unanswered ? `, ${summary.unanswered} unanswered` : ''})` : 'n/a';

function attackRows(label: string, phase: AttackPhase | undefined, redisMode: boolean): [string, string][] {
  if (!phase) return [[label, 'not measured']];
  const { result, listing, cleanup } = phase;
  const outcome = result.outcome === 'closed' ? `closed by the server, code ${result.closeCode}` : result.outcome === 'answered' ? 'every subscribe answered' : `timed out (${attackTimeoutMs / 1000} s)`;
  const rows: [string, string][] = [
    [`${label}: frames`, `${result.sent.toLocaleString('en-US')} subscribe frames sent, ${typeof phase.framesPerSecond === 'number' ? `${phase.framesPerSecond}/s` : phase.framesPerSecond}`],
    [`${label}: outcome`, `${outcome} after ${ms(result.ms)}`],
    [`${label}: answers`, `${result.succeeded.toLocaleString('en-US')} subscribed, ${result.refused} refused (${result.limitReached} LimitReached), ${result.errors} pusher:error${result.firstErrorCode ? ` (first ${result.firstErrorCode})` : ''}`],
    [`${label}: GET /channels at the end`, listing ? `${listing.attackerChannels.toLocaleString('en-US')} of its channels listed, ${bytes(listing.bytes)} in ${ms(listing.ms)}` : 'failed'],
    [`${label}: daemon RSS delta`, bytes(phase.rssDelta)],
  ];
  if (redisMode && phase.redisBefore && phase.redisAfter) {
    rows.push([`${label}: Redis`, `used_memory ${bytes(phase.redisAfter.usedMemory - phase.redisBefore.usedMemory)}, keys ${phase.redisBefore.dbsize} -> ${phase.redisAfter.dbsize}`]);
  }
  rows.push([`${label}: bystander ping, first frame to end (>= 2 s)`, pings(phase.bystander)]);
  rows.push([`${label}: cleanup after close`, `GET /channels clean after ${cleanup.channelsMs === undefined ? `more than ${cleanupTimeoutMs / 1000} s` : ms(cleanup.channelsMs)}`]);
  if (redisMode) {
    rows.push([`${label}: Redis cleanup`, `DBSIZE back to ${phase.redisBefore?.dbsize} after ${cleanup.redisMs === undefined ? `more than ${cleanupTimeoutMs / 1000} s (${cleanup.redisDbsizeAtEnd} keys left)` : ms(cleanup.redisMs)}`]);
  }
  rows.push([`${label}: bystander ping during cleanup`, pings(cleanup.bystander)]);
  return rows;
}

function textReport(report: Report): string {
  const redisMode = report.mode.startsWith('redis');
  const rows: [string, string][] = [
    ['mode', `${report.mode} (max_channels_per_connection ${report.limits.max_channels_per_connection.toLocaleString('en-US')}, max_frames_per_second ${report.limits.max_frames_per_second.toLocaleString('en-US')})`],
    ['bystander ping, baseline', pings(report.bystanderBaseline)],
    ...attackRows('flood', report.flood, redisMode),
    ...attackRows('paced', report.paced, redisMode),
    ...attackRows('sustained', report.sustained, redisMode),
  ];
  for (const frame of report.oversizedFrames) {
    rows.push([`one ${frame.bytes.toLocaleString('en-US')}-byte frame`, frame.closeCode === undefined ? 'not closed within 5 s' : `closed ${frame.closeCode} after ${ms(frame.ms)}`]);
  }
  rows.push(['bystander ping, afterwards', pings(report.bystanderAfter)]);
  const memory = report.memory;
  if (memory) {
    const item = (per: PerItem) => `${bytes(per.rss)} RSS (V8 heap ${bytes(per.heap)}, external ${bytes(per.external)})${redisMode ? `, Redis ${bytes(per.redis)}` : ''}`;
    rows.push([`after a full GC, per idle connection (${memory.idleConnections.toLocaleString('en-US')} in ${ms(memory.connectMs)})`, item(memory.perIdleConnection)]);
    rows.push([`after a full GC, per subscription (${memory.subscriptions.toLocaleString('en-US')} in ${ms(memory.subscribeMs)})`, `${item(memory.perSubscription)}${redisMode ? `, ${memory.redisKeysPerSubscription?.toFixed(2)} keys` : ''}`]);
  }
  if (report.worstConnectionAtDefaults) {
    const worst = report.worstConnectionAtDefaults;
    rows.push(['worst one connection at defaults', `${bytes(worst.rssBytes)} RSS, ${bytes(worst.heapBytes)} of it V8 heap${worst.redisBytes === undefined ? '' : `, ${bytes(worst.redisBytes)} in Redis`} (connection + 100 channels; plus at most 100 frames/s)`]);
  }
  const sigterm = report.sigterm;
  if (sigterm) {
    rows.push(['SIGTERM with 100 x 100 channels', `exit ${sigterm.exit.code ?? sigterm.exit.signal} after ${ms(sigterm.exit.ms)}`]);
    if (redisMode) rows.push(['Redis keys: baseline / before SIGTERM / after exit', `${sigterm.redisDbsizeBaseline} / ${sigterm.redisDbsizeBeforeSigterm} / ${sigterm.redisDbsizeAfterExit}`]);
  }
  rows.push(['total', `${report.totalSeconds.toFixed(1)} s`]);
  for (const error of report.errors) rows.push(['ERROR', error]);
  const width = Math.max(...rows.map(([name]) => name.length));
  return rows.map(([name, value]) => `${name.padEnd(width)}  ${value}`).join('\n');
}

main().catch((error: unknown) => {
  log((error as Error).stack ?? String(error));
  process.exit(1);
});
