import { connect } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { daemonConfig, testApp } from './helpers/apps.js';
import { startDaemon, type RunningDaemon } from './helpers/daemon.js';
import { connectRaw, openRaw } from './helpers/raw-socket.js';

const app = testApp('limits');
const byHost = testApp('by-host', { allowed_origins: ['app.example.com', 'https://secure.example.com', 'dev.example.com:5173'] });
const maxBody = 2_000;
const maxHead = 4_096;
let daemon: RunningDaemon;

beforeAll(async () => {
  daemon = await startDaemon(daemonConfig([app, byHost], { servers: { main: { max_request_size: maxBody, max_request_head_size: maxHead } } }));
});

interface RawAnswer {
  status: number | undefined;
  body: string;
  /** The daemon closed the connection after answering. */
  closed: boolean;
}

/** Sends these exact bytes and reads one answer; with `waitForClose`, waits (bounded) for the daemon to close. */
function rawRequest(bytes: string, waitForClose = false): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const socket = connect(daemon.port, '127.0.0.1');
    let text = '';
    let closed = false;
    const finish = () => {
      clearTimeout(timer);
      socket.destroy();
      const end = text.indexOf('\r\n\r\n');
      const status = /^HTTP\/1\.1 (\d{3})/.exec(text)?.[1];
      resolve({ status: status === undefined ? undefined : Number(status), body: end === -1 ? '' : text.slice(end + 4), closed });
    };
    const timer = setTimeout(finish, 5_000);
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      text += chunk;
      const end = text.indexOf('\r\n\r\n');
      const length = /\r\ncontent-length: *(\d+)/i.exec(text)?.[1];
      if (!waitForClose && end !== -1 && length !== undefined && text.length - end - 4 >= Number(length)) finish();
    });
    socket.on('close', () => {
      closed = true;
      finish();
    });
    socket.on('error', () => undefined);
    socket.write(bytes);
  });
}

async function metric(series: string): Promise<number> {
  const text = await (await fetch(`${daemon.httpUrl}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
}

const refused = (reason: string) => metric(`realtime_transport_refused_total{reason="${reason}"}`);

describe('HTTP routes by path, never by Host', () => {
  it('answers GET /up as /up when Host says x/metrics# (it used to serve the metrics)', async () => {
    for (const host of ['x/metrics#', 'x/metrics?', 'a@x/metrics']) {
      const answer = await rawRequest(`GET /up HTTP/1.1\r\nHost: ${host}\r\n\r\n`);
      expect(answer.status, host).toBe(200);
      expect(JSON.parse(answer.body), host).toEqual({ health: 'OK' });
    }
  });
});

describe('WebSocket frames over the size limit', () => {
  it('closes the connection with 1009 and a reason (a real close frame, not 1006), counted in /metrics', async () => {
    const before = await refused('frame_too_large');
    const { socket } = await connectRaw(daemon, app.key);
    // The frame limit is 2 x the largest max_message_size (at least 10,000) + 4 KiB = 24,096 bytes.
    socket.send(JSON.stringify({ event: 'client-big', channel: 'private-x', data: 'b'.repeat(30_000) }));
    expect(await socket.closedWithin()).toEqual({ code: 1009, reason: 'Frame is larger than 24096 bytes.' });
    expect(await refused('frame_too_large')).toBe(before + 1);
    await connectRaw(daemon, app.key);
  });
});

describe('HTTP request sizes', () => {
  it('refuses a body over max_request_size with 413 and a JSON error, and counts it', async () => {
    const before = await refused('body_too_large');
    const body = 'x'.repeat(maxBody + 1);
    const answer = await rawRequest(`POST /apps/${app.id}/events HTTP/1.1\r\nHost: x\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toEqual({ error: `the request body is larger than ${maxBody} bytes`, code: 413 });
    expect(await refused('body_too_large')).toBe(before + 1);
  });

  it('closes the connection at once for a declared body far over the limit, reading none of it', async () => {
    const answer = await rawRequest(`POST /apps/${app.id}/events HTTP/1.1\r\nHost: x\r\nContent-Length: 100000000\r\n\r\n`, true);
    expect(answer.status).toBe(413);
    expect(answer.closed).toBe(true);
  });

  it('refuses a request head over max_request_head_size with 431 and a JSON error, and counts it', async () => {
    const before = await refused('head_too_large');
    const answer = await rawRequest(`GET /up HTTP/1.1\r\nHost: x\r\nCookie: ${'c'.repeat(maxHead)}\r\n\r\n`, true);
    expect(answer.status).toBe(431);
    expect(JSON.parse(answer.body)).toEqual({ error: `the request head is larger than ${maxHead} bytes`, code: 431 });
    expect(answer.closed).toBe(true);
    expect(await refused('head_too_large')).toBe(before + 1);
  });

  it('refuses a WebSocket upgrade with an over-size head with 431', async () => {
    const ws = new WebSocket(`${daemon.wsUrl}/app/${app.key}?protocol=7`, { headers: { cookie: 'c'.repeat(maxHead) } });
    const status = await new Promise<number | undefined>((resolve) => {
      ws.on('unexpected-response', (_request, response) => resolve(response.statusCode));
      ws.on('open', () => resolve(undefined));
      ws.on('error', () => undefined);
    });
    expect(status).toBe(431);
  });
});

describe('allowed_origins match on host name', () => {
  it('accepts a listed host on any port and scheme', async () => {
    for (const origin of ['http://app.example.com:3000', 'https://app.example.com', 'https://secure.example.com:8443', 'http://dev.example.com:5173']) {
      const { socketId } = await connectRaw(daemon, byHost.key, { origin });
      expect(socketId, origin).toMatch(/^\d+\.\d+$/);
    }
  });

  it('refuses with 4009 another host, a scheme the entry excludes, or a port the entry excludes', async () => {
    for (const origin of ['http://evil.example.com', 'http://secure.example.com', 'http://dev.example.com:3000']) {
      const socket = await openRaw(daemon, byHost.key, { origin });
      expect((await socket.next('pusher:error')).data, origin).toMatchObject({ code: 4009 });
      expect((await socket.closedWithin()).code, origin).toBe(4009);
    }
  });
});
