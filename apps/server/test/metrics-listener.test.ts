import { describe, expect, it } from 'vitest';
import { daemonConfig, testApp } from './helpers/apps.js';
import { freePort, startDaemon, type RunningDaemon } from './helpers/daemon.js';

const app = testApp('metrics-modes');

async function status(url: string, init?: RequestInit): Promise<{ status: number; body: string; contentType: string | null }> {
  const response = await fetch(url, init);
  return { status: response.status, body: await response.text(), contentType: response.headers.get('content-type') };
}

/** The port the separate metrics listener logged (port 0 picks one). */
async function metricsPort(daemon: RunningDaemon, after = 0): Promise<number> {
  let seen = 0;
  const line = await daemon.waitForLog((l) => l['msg'] === 'metrics listening' && ++seen > after);
  return line['port'] as number;
}

describe('where /metrics is served (metrics.enabled, metrics.host, metrics.port)', () => {
  it('by default, on the public port', async () => {
    const daemon = await startDaemon(daemonConfig([app]));
    const answer = await status(`${daemon.httpUrl}/metrics`);
    expect(answer.status).toBe(200);
    expect(answer.body).toContain('# TYPE realtime_connections gauge');
    expect(daemon.output.some((line) => line.includes('metrics listening'))).toBe(false);
  });

  it('nowhere when disabled: 404 on the public port, which keeps serving the rest', async () => {
    const daemon = await startDaemon(daemonConfig([app], { metrics: { enabled: false } }));
    expect((await status(`${daemon.httpUrl}/metrics`)).status).toBe(404);
    expect((await status(`${daemon.httpUrl}/up`)).status).toBe(200);
    expect(daemon.output.some((line) => line.includes('metrics listening'))).toBe(false);
  });

  it('with a port, only on its own loopback listener; handed over on a restart', async () => {
    const port = await freePort();
    const daemon = await startDaemon(daemonConfig([app], { metrics: { port } }), { port: await freePort() });
    expect(await metricsPort(daemon)).toBe(port);
    await daemon.waitForLog((line) => line['msg'] === 'server started');
    const metricsUrl = `http://127.0.0.1:${port}`;

    expect((await status(`${daemon.httpUrl}/metrics`)).status).toBe(404);
    const scraped = await status(`${metricsUrl}/metrics`);
    expect(scraped.status).toBe(200);
    expect(scraped.contentType).toMatch(/^text\/plain/);
    expect(scraped.body).toContain('# TYPE realtime_connections gauge');
    expect(scraped.body).toMatch(/^realtime_process_/m);
    // Only /metrics there, and only to read.
    expect((await status(`${metricsUrl}/up`)).status).toBe(404);
    expect((await status(`${metricsUrl}/apps/${app.id}/channels`)).status).toBe(404);
    expect((await status(`${metricsUrl}/metrics`, { method: 'POST', body: 'x' })).status).toBe(405);
    expect((await status(`${metricsUrl}/metrics`, { method: 'HEAD' })).status).toBe(200);

    // A restart builds the next daemon, which takes the metrics port over from the previous one.
    process.kill(daemon.pid, 'SIGHUP');
    await daemon.waitForLog((line) => line['msg'] === 'server restarted');
    expect(await metricsPort(daemon, 1)).toBe(port);
    expect((await status(`${metricsUrl}/metrics`)).status).toBe(200);
    expect((await status(`${daemon.httpUrl}/metrics`)).status).toBe(404);
  });

  it('refuses a metrics port equal to the public one, naming both keys', async () => {
    const port = await freePort();
    await expect(startDaemon(daemonConfig([app], { metrics: { port } }), { port, startTimeoutMs: 5_000 })).rejects.toThrow(/metrics\.port: must differ from the port of servers\.main/);
  });
});
