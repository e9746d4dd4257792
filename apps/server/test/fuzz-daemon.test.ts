// End-to-end fuzz run: the built daemon takes a few thousand fast-check-generated hostile
// WebSocket frames (from several raw sockets) and HTTP requests (fetch, and raw bytes over TCP)
// while a pusher-js bystander must keep receiving backend-triggered events. Bounded in count and
// time; the seed is printed so a failing run can be replayed with FUZZ_SEED.
import { connect } from 'node:net';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { daemonConfig, testApp } from './helpers/apps.js';
import { backend, connected, pusherClient, subscribed } from './helpers/clients.js';
import { startDaemon, type RunningDaemon } from './helpers/daemon.js';
import { hostileFrame, memberChannels, type HostileFrame } from './helpers/hostile-frames.js';
import { hostileHttpRequest, rawHttpGarbage, type HostileHttpRequest } from './helpers/hostile-http.js';
import { connectRaw, type RawSocket } from './helpers/raw-socket.js';
import { sleep, waitFor } from './helpers/wait.js';

// Client events get past the per-second client-event limit, so hostile data reaches the relay code.
const app = testApp('fuzz', { max_connections: 1_000, max_client_events_per_second: 1_000 });

/** `FUZZ_SCALE=5` sends five times as much for five times as long (a longer hunt, by hand). */
const scale = Number(process.env['FUZZ_SCALE'] ?? 1);
const seed = Number(process.env['FUZZ_SEED'] ?? Math.floor(Math.random() * 2 ** 31));
const budget = {
  frames: Math.round(2_500 * scale),
  requests: Math.round(800 * scale),
  rawRequests: Math.round(100 * scale),
  ms: Math.round(7_000 * scale),
};
const sockets = 12;
/** Frames per socket per 50 ms tick: 80 a second, under the engine's default 100 frames per second, so frames are handled, not dropped. */
const framesPerTick = 4;
const heartbeatEveryMs = 1_000;

let daemon: RunningDaemon;
beforeAll(async () => {
  // A large request size, so deep and huge bodies reach the JSON parser instead of the 413.
  daemon = await startDaemon(daemonConfig([app], { servers: { main: { max_request_size: 100_000 } } }));
});

const alive = () => daemon.process.exitCode === null && daemon.process.signalCode === null;
const describeFrame = (frame: HostileFrame) =>
  `${frame.binary ? 'binary ' : ''}${'text' in frame ? JSON.stringify(frame.text.length > 300 ? `${frame.text.slice(0, 300)}… (${frame.text.length} chars)` : frame.text) : `bytes ${frame.bytes.toString('hex').slice(0, 80)}`}`;

interface FuzzStats {
  framesSent: number;
  floodFrames: number;
  socketsOpened: number;
  socketOpenFailures: number;
  closeCodes: Record<number, number>;
  requestsSent: number;
  statuses: Record<number, number>;
  /** Requests fetch refused to send (an invalid header, say): never reached the daemon. */
  notSent: number;
  /** Requests whose connection the daemon closed without an answer, by method: uWS drops methods it does not know. */
  dropped: Record<string, number>;
  rawRequestsSent: number;
  serverErrors: string[];
  heartbeatsTriggered: number;
  heartbeatFailures: string[];
}

/** A socket subscribed (with valid auth) to both member channels, so its client events reach the relay code. */
async function fuzzSocket(index: number, stats: FuzzStats): Promise<RawSocket | undefined> {
  try {
    const { socket, socketId } = await connectRaw(daemon, app.key);
    const sdk = backend(daemon, app);
    const [privateChannel, presenceChannel] = memberChannels;
    socket.subscribe(privateChannel, sdk.authorizeChannel(socketId, privateChannel));
    socket.subscribe(presenceChannel, sdk.authorizeChannel(socketId, presenceChannel, { user_id: `fuzzer-${index}`, user_info: { name: `fuzzer ${index}` } }));
    await socket.next((frame) => frame.event === 'pusher_internal:subscription_succeeded' && frame.channel === privateChannel);
    await socket.next((frame) => frame.event === 'pusher_internal:subscription_succeeded' && frame.channel === presenceChannel);
    stats.socketsOpened++;
    void socket.closed.then(({ code }) => (stats.closeCodes[code] = (stats.closeCodes[code] ?? 0) + 1));
    return socket;
  } catch {
    stats.socketOpenFailures++;
    return undefined;
  }
}

/**
 * Sends the frames from `sockets` raw sockets, each at a paced rate in its own loop, so a socket
 * the daemon closed is replaced without holding up the others.
 */
async function sendFrames(frames: readonly HostileFrame[], deadline: number, stats: FuzzStats, recent: string[]): Promise<void> {
  let next = 0;
  const more = () => next < frames.length && Date.now() < deadline && alive();
  const loop = async (index: number) => {
    let socket: RawSocket | undefined;
    let lastFlood = Date.now();
    while (more()) {
      if (!socket?.isOpen) socket = await fuzzSocket(index, stats);
      for (let count = 0; count < framesPerTick && socket?.isOpen && more(); count++) {
        const frame = frames[next++]!;
        recent.push(describeFrame(frame));
        if (recent.length > 12) recent.shift();
        socket.send('text' in frame ? frame.text : frame.bytes, { binary: frame.binary });
        stats.framesSent++;
      }
      // Once a second the first socket floods far over the frame budget: dropped or closed, then replaced.
      if (index === 0 && socket?.isOpen && Date.now() - lastFlood > 1_000) {
        lastFlood = Date.now();
        for (let count = 0; count < 250; count++) socket.send('{"event":"pusher:ping","data":{}}');
        stats.floodFrames += 250;
      }
      await sleep(50);
    }
    socket?.close();
  };
  await Promise.all(Array.from({ length: sockets }, (_, index) => loop(index)));
}

const standardMethods = new Set(['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS']);

async function sendRequest(request: HostileHttpRequest, stats: FuzzStats): Promise<void> {
  const init: RequestInit & { duplex?: 'half' } = { method: request.method, headers: request.headers, signal: AbortSignal.timeout(5_000) };
  if (request.body !== undefined) {
    const bytes = new TextEncoder().encode(request.body);
    init.body = request.chunked
      ? new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(bytes);
            controller.close();
          },
        })
      : bytes;
    if (request.chunked) init.duplex = 'half';
  }
  let response: Response;
  try {
    response = await fetch(`${daemon.httpUrl}${request.target}`, init);
  } catch (error) {
    // fetch throws a TypeError with a `cause` when the connection failed, without one when it refused to send.
    if ((error as { cause?: unknown }).cause !== undefined) {
      const method = standardMethods.has(request.method) ? request.method : 'other';
      stats.dropped[method] = (stats.dropped[method] ?? 0) + 1;
    }
    else stats.notSent++;
    return;
  }
  stats.requestsSent++;
  await response.arrayBuffer().catch(() => undefined);
  stats.statuses[response.status] = (stats.statuses[response.status] ?? 0) + 1;
  if (response.status >= 500) stats.serverErrors.push(`${response.status} for ${request.method} ${request.target.slice(0, 200)}`);
}

/** Sends requests `concurrency` at a time until they run out or the deadline passes. */
async function sendRequests(requests: readonly HostileHttpRequest[], deadline: number, stats: FuzzStats, concurrency = 10): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < requests.length && Date.now() < deadline && alive()) await sendRequest(requests[next++]!, stats);
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

/** Writes raw request bytes over TCP and waits for the daemon to answer or close (at most 300 ms). */
function sendRaw(bytes: Buffer): Promise<void> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port: daemon.port });
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve();
    };
    const timer = setTimeout(done, 300);
    socket.on('error', done);
    socket.on('close', done);
    socket.on('data', () => socket.end());
    socket.write(bytes);
  });
}

async function sendRawRequests(requests: readonly Buffer[], deadline: number, stats: FuzzStats): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < requests.length && Date.now() < deadline && alive()) {
      await sendRaw(requests[next++]!);
      stats.rawRequestsSent++;
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
}

describe('the daemon under a bounded hostile fuzz run', () => {
  it('stays up, answers /up, and keeps delivering backend events to a bystander', async () => {
    const bystander = pusherClient(daemon, app);
    await connected(bystander);
    const channel = await subscribed(bystander, 'private-bystander');
    // Not in the fuzzers' channels: pusher-js itself throws (uncaught, from its debug logger's
    // JSON.stringify) on a relayed client event whose data string holds JSON a few thousand levels deep.
    const heartbeats: number[] = [];
    channel.bind('heartbeat', (data: { n: number }) => heartbeats.push(data.n));

    const stats: FuzzStats = {
      framesSent: 0, floodFrames: 0, socketsOpened: 0, socketOpenFailures: 0, closeCodes: {},
      requestsSent: 0, statuses: {}, notSent: 0, dropped: {}, rawRequestsSent: 0, serverErrors: [],
      heartbeatsTriggered: 0, heartbeatFailures: [],
    };
    const recentFrames: string[] = [];
    const sdk = backend(daemon, app);
    const heartbeat = async () => {
      const n = ++stats.heartbeatsTriggered;
      try {
        await sdk.trigger('private-bystander', 'heartbeat', { n });
      } catch (error) {
        stats.heartbeatFailures.push(`heartbeat ${n}: ${String(error)}`);
      }
    };

    const frames = fc.sample(hostileFrame, { numRuns: budget.frames, seed });
    const requests = fc.sample(hostileHttpRequest(app), { numRuns: budget.requests, seed: seed + 1 });
    const rawRequests = fc.sample(rawHttpGarbage, { numRuns: budget.rawRequests, seed: seed + 2 });

    const started = performance.now();
    const deadline = Date.now() + budget.ms;
    let fuzzing = true;
    // During the fuzz each heartbeat must reach the bystander before the next is sent.
    const heartbeatLoop = (async () => {
      while (fuzzing && alive()) {
        await heartbeat();
        const n = stats.heartbeatsTriggered;
        await waitFor(() => (heartbeats.includes(n) ? true : undefined), `heartbeat ${n}`, 5_000).catch(() =>
          stats.heartbeatFailures.push(`heartbeat ${n} did not reach the bystander within 5 s during the fuzz`),
        );
        await sleep(heartbeatEveryMs);
      }
    })();
    await Promise.all([sendFrames(frames, deadline, stats, recentFrames), sendRequests(requests, deadline, stats), sendRawRequests(rawRequests, deadline, stats)]);
    fuzzing = false;
    await heartbeatLoop;
    const fuzzMs = Math.round(performance.now() - started);

    const summary = {
      seed,
      fuzzMs,
      framesSent: stats.framesSent,
      floodFrames: stats.floodFrames,
      socketsOpened: stats.socketsOpened,
      socketOpenFailures: stats.socketOpenFailures,
      closeCodes: stats.closeCodes,
      httpRequestsAnswered: stats.requestsSent,
      httpStatuses: stats.statuses,
      httpDroppedByDaemon: stats.dropped,
      httpNotSentByFetch: stats.notSent,
      rawHttpRequestsSent: stats.rawRequestsSent,
      heartbeatsTriggered: stats.heartbeatsTriggered,
    };
    console.log(`fuzz-daemon: ${JSON.stringify(summary)}`);
    const diagnostics = () =>
      `replay with FUZZ_SEED=${seed}; ${JSON.stringify(summary)}\nlast frames sent:\n${recentFrames.join('\n')}\n` +
      `daemon exit: ${String(daemon.process.exitCode ?? daemon.process.signalCode)}; last daemon output:\n${daemon.output.slice(-25).join('\n').slice(-6_000)}`;

    expect(alive(), `the daemon died during the fuzz run (pid ${daemon.pid}); ${diagnostics()}`).toBe(true);
    expect(() => process.kill(daemon.pid, 0)).not.toThrow();
    const up = await fetch(`${daemon.httpUrl}/up`);
    expect(up.status, diagnostics()).toBe(200);
    expect(stats.serverErrors, diagnostics()).toEqual([]);
    expect(stats.heartbeatFailures, diagnostics()).toEqual([]);

    // A last event after the fuzz, then every heartbeat must have reached the bystander, in order.
    await heartbeat();
    expect(stats.heartbeatFailures, diagnostics()).toEqual([]);
    const all = Array.from({ length: stats.heartbeatsTriggered }, (_, index) => index + 1);
    await waitFor(() => (all.every((n) => heartbeats.includes(n)) ? true : undefined), 'every heartbeat at the bystander').catch(() => undefined);
    expect(heartbeats, diagnostics()).toEqual(all);
    expect(bystander.connection.state).toBe('connected');
    // The run was not vacuous.
    expect(stats.framesSent).toBeGreaterThan(0);
    expect(stats.requestsSent).toBeGreaterThan(0);
    expect(stats.heartbeatsTriggered).toBeGreaterThan(1);
  }, 30_000 + budget.ms * 2);
});
