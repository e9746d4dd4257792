import { afterEach, describe, expect, it } from 'vitest';
import { startApi, type ApiFixture } from './test-fixture.js';

let api: ApiFixture | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

describe('health endpoints', () => {
  it('answers 200 {"health":"OK"} on /up and /pusher/health when ready', async () => {
    api = await startApi();
    for (const path of ['/up', '/pusher/health']) {
      const response = await fetch(`${api.baseUrl}${path}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toContain('application/json');
      expect(await response.json()).toEqual({ health: 'OK' });
    }
  });

  it('answers 503 JSON while ready() is false, and 200 again once it is true', async () => {
    let ready = false;
    api = await startApi({ ready: () => ready });
    const notReady = await fetch(`${api.baseUrl}/up`);
    expect(notReady.status).toBe(503);
    expect(await notReady.json()).toEqual({ error: 'the server is not ready or is shutting down', code: 503 });
    ready = true;
    expect((await fetch(`${api.baseUrl}/pusher/health`)).status).toBe(200);
  });

  it('answers 503 while the engine drains', async () => {
    api = await startApi();
    const stopping = api.server.stop();
    const response = await fetch(`${api.baseUrl}/up`);
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('5');
    await stopping;
  });
});

describe('GET /metrics', () => {
  it('serves what the metrics function returns, with its content type', async () => {
    const body = '# HELP http_requests_total Requests\nhttp_requests_total 3\n';
    api = await startApi({ metrics: () => Promise.resolve({ contentType: 'text/plain; version=0.0.4', body }) });
    const response = await fetch(`${api.baseUrl}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4');
    expect(await response.text()).toBe(body);
  });

  it('is a 404 without a metrics function and a clean 500 when it fails', async () => {
    api = await startApi();
    expect((await fetch(`${api.baseUrl}/metrics`)).status).toBe(404);
    await api.close();
    api = await startApi({ metrics: () => Promise.reject(new Error('registry exploded at /srv/secret')) });
    const response = await fetch(`${api.baseUrl}/metrics`);
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ error: 'Internal server error', code: 500 });
  });
});
