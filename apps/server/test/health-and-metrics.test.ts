import { beforeAll, describe, expect, it } from 'vitest';
import { daemonConfig, testApp } from './helpers/apps.js';
import { backend } from './helpers/clients.js';
import { startDaemon, type RunningDaemon } from './helpers/daemon.js';
import { connectRaw, openRaw } from './helpers/raw-socket.js';

const app = testApp('metrics');
let daemon: RunningDaemon;

beforeAll(async () => {
  daemon = await startDaemon(daemonConfig([app]));
});

async function metrics(): Promise<string> {
  const response = await fetch(`${daemon.httpUrl}/metrics`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
  return response.text();
}

/** The value of one Prometheus sample, e.g. `realtime_connections{app_id="x"}`; 0 when absent. */
function sample(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
}

describe('health endpoints', () => {
  it.each(['/up', '/pusher/health'])('GET %s answers 200 with a JSON body', async (path) => {
    const response = await fetch(`${daemon.httpUrl}${path}`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ health: 'OK' });
  });

  it('refuses POST /up with 405', async () => {
    expect((await fetch(`${daemon.httpUrl}/up`, { method: 'POST' })).status).toBe(405);
  });
});

describe('GET /metrics', () => {
  const label = `{app_id="${app.id}"}`;

  it('is Prometheus text with HELP and TYPE lines for the realtime series', async () => {
    const text = await metrics();
    expect(text).toContain('# TYPE realtime_connections gauge');
    expect(text).toContain('# TYPE realtime_connections_opened_total counter');
    expect(text).toContain('# HELP realtime_ws_messages_received_total');
    expect(text).toMatch(/^realtime_process_/m);
  });

  it('counts open connections in realtime_connections and drops them on close', async () => {
    const before = sample(await metrics(), `realtime_connections${label}`);
    const sockets = await Promise.all([1, 2].map(() => connectRaw(daemon, app.key)));
    expect(sample(await metrics(), `realtime_connections${label}`)).toBe(before + 2);
    expect(sample(await metrics(), `realtime_connections_opened_total${label}`)).toBeGreaterThanOrEqual(2);
    for (const { socket } of sockets) socket.close();
    await Promise.all(sockets.map(({ socket }) => socket.closed));
    await expect.poll(async () => sample(await metrics(), `realtime_connections${label}`)).toBe(before);
    expect(sample(await metrics(), `realtime_connections_closed_total${label}`)).toBeGreaterThanOrEqual(2);
  });

  it('counts messages and bytes in and out', async () => {
    const { socket } = await connectRaw(daemon, app.key);
    socket.subscribe('metered');
    await socket.next('pusher_internal:subscription_succeeded');
    socket.send({ event: 'pusher:ping', data: {} });
    await socket.next('pusher:pong');
    await backend(daemon, app).trigger('metered', 'm', 'x'.repeat(100));
    await socket.next('m');
    const text = await metrics();
    expect(sample(text, `realtime_ws_messages_received_total${label}`)).toBeGreaterThanOrEqual(2);
    expect(sample(text, `realtime_ws_received_bytes_total${label}`)).toBeGreaterThan(0);
    expect(sample(text, `realtime_ws_messages_sent_total${label}`)).toBeGreaterThanOrEqual(1);
    expect(sample(text, `realtime_ws_sent_bytes_total${label}`)).toBeGreaterThan(100);
  });

  it('counts HTTP API requests by status', async () => {
    await fetch(`${daemon.httpUrl}/apps/${app.id}/channels`);
    await backend(daemon, app).get({ path: '/channels' });
    const text = await metrics();
    expect(sample(text, `realtime_http_requests_total{app_id="${app.id}",method="GET",status="401"}`)).toBeGreaterThanOrEqual(1);
    expect(sample(text, `realtime_http_requests_total{app_id="${app.id}",method="GET",status="200"}`)).toBeGreaterThanOrEqual(1);
  });

  it('counts refused connections by code', async () => {
    const socket = await openRaw(daemon, 'unknown-key');
    await socket.closed;
    expect(sample(await metrics(), 'realtime_connections_refused_total{app_id="unknown",code="4001"}')).toBeGreaterThanOrEqual(1);
  });
});
