import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { MetricsError } from './errors.js';
import { listenForMetrics, type MetricsListener, type MetricsListenerOptions } from './metrics-listener.js';

const scrape = { contentType: 'text/plain; version=0.0.4; charset=utf-8', body: '# HELP realtime_up up\n# TYPE realtime_up gauge\nrealtime_up 1\n' };
const render = () => Promise.resolve(scrape);
let listener: MetricsListener | undefined;
afterEach(async () => {
  await listener?.close();
  listener = undefined;
});

async function request(path: string, init?: RequestInit) {
  const response = await fetch(`http://127.0.0.1:${listener!.port}${path}`, init);
  return { status: response.status, headers: response.headers, body: await response.text() };
}

describe('listenForMetrics', () => {
  it('serves GET /metrics with the rendered body and content type, and HEAD without the body', async () => {
    listener = await listenForMetrics({ host: '127.0.0.1', port: 0, render });
    const got = await request('/metrics?name[]=x');
    expect(got).toMatchObject({ status: 200, body: scrape.body });
    expect(got.headers.get('content-type')).toBe(scrape.contentType);
    expect(got.headers.get('content-length')).toBe(String(Buffer.byteLength(scrape.body)));
    const head = await request('/metrics', { method: 'HEAD' });
    expect(head).toMatchObject({ status: 200, body: '' });
    expect(head.headers.get('content-length')).toBe(String(Buffer.byteLength(scrape.body)));
  });

  it('serves nothing else: 404 for other paths, 405 with Allow for other methods, in plain text', async () => {
    listener = await listenForMetrics({ host: '127.0.0.1', port: 0, render });
    const other = await request('/up');
    expect(other).toMatchObject({ status: 404, body: 'not found; metrics are at /metrics\n' });
    expect(other.headers.get('content-type')).toBe('text/plain');
    const post = await request('/metrics', { method: 'POST', body: 'x' });
    expect(post).toMatchObject({ status: 405, body: 'method not allowed\n' });
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });

  it('answers a failing render with a bare 500, without its message', async () => {
    listener = await listenForMetrics({ host: '127.0.0.1', port: 0, render: () => Promise.reject(new Error('registry at /srv/secret broke')) });
    expect(await request('/metrics')).toMatchObject({ status: 500, body: 'metrics unavailable\n' });
  });

  it('waits for a port in use to be handed over, then listens on it', async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const { port } = holder.address() as { port: number };
    setTimeout(() => holder.close(), 200);
    listener = await listenForMetrics({ host: '127.0.0.1', port, render, retryInUseMs: 5_000 });
    expect(listener.port).toBe(port);
    expect((await request('/metrics')).status).toBe(200);
  });

  it('gives up on a port still in use after retryInUseMs with LISTEN_FAILED naming host, port and the cause', async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const { port } = holder.address() as { port: number };
    try {
      const failure = await listenForMetrics({ host: '127.0.0.1', port, render, retryInUseMs: 100 }).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(MetricsError);
      expect(failure).toMatchObject({ code: 'LISTEN_FAILED', message: `cannot listen on 127.0.0.1:${port}: EADDRINUSE` });
    } finally {
      holder.close();
    }
  });

  it('closes open keep-alive connections, and close() twice is one close', async () => {
    listener = await listenForMetrics({ host: '127.0.0.1', port: 0, render });
    await request('/metrics');
    const closing = listener.close();
    expect(listener.close()).toBe(closing);
    await closing;
    await expect(fetch(`http://127.0.0.1:${listener.port}/metrics`)).rejects.toThrow();
    listener = undefined;
  });

  it.each([
    [{ port: 0, render }, 'invalid option host: host must be an address such as "127.0.0.1"'],
    [{ host: '127.0.0.1', port: 70_000, render }, 'invalid option port: port must be 0 to 65535'],
    [{ host: '127.0.0.1', port: 1.5, render }, 'invalid option port: port must be an integer'],
    [{ host: '127.0.0.1', port: 0 }, 'invalid option render: render must be a function'],
    [{ host: '127.0.0.1', port: 0, render, retryInUseMs: -1 }, 'invalid option retryInUseMs: retryInUseMs must be at least 0'],
  ])('refuses %j naming the key', async (options, message) => {
    await expect(listenForMetrics(options as MetricsListenerOptions)).rejects.toMatchObject({ code: 'INVALID_OPTION', message: `@org/metrics: listenForMetrics: ${message}` });
  });
});
