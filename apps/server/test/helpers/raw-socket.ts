import { afterAll } from 'vitest';
import WebSocket from 'ws';
import type { RunningDaemon } from './daemon.js';

/** A frame as received, `data` as sent on the wire (a string when the server double-encodes). */
export interface Frame {
  event: string;
  channel?: string;
  data?: unknown;
  user_id?: string;
  [field: string]: unknown;
}

export interface CloseInfo {
  code: number;
  reason: string;
}

export type FrameMatch = string | ((frame: Frame) => boolean);

const sockets = new Set<WebSocket>();

/** Every raw socket a test file opens is terminated when the file ends. */
afterAll(() => {
  for (const socket of sockets) socket.terminate();
  sockets.clear();
});

/**
 * A raw `ws` client that records every frame, for asserting exact frames and
 * close codes. `next` consumes frames in order, so a test reads the
 * conversation as it happened; `received` keeps all of them.
 */
export class RawSocket {
  /** Every parsed frame, in arrival order. */
  readonly received: Frame[] = [];
  /** Every text frame exactly as it arrived. */
  readonly texts: string[] = [];
  readonly closed: Promise<CloseInfo>;
  readonly #unread: Frame[] = [];
  readonly #waiters = new Set<() => void>();
  #close: CloseInfo | undefined;

  constructor(readonly ws: WebSocket) {
    sockets.add(ws);
    ws.on('message', (data, isBinary) => {
      const text = isBinary ? `<binary ${String(data)}>` : String(data);
      this.texts.push(text);
      let frame: Frame;
      try {
        frame = JSON.parse(text) as Frame;
      } catch {
        frame = { event: '<not json>', data: text };
      }
      this.received.push(frame);
      this.#unread.push(frame);
      this.#wake();
    });
    this.closed = new Promise((resolve) => {
      ws.on('close', (code, reason) => {
        this.#close = { code, reason: reason.toString() };
        sockets.delete(ws);
        resolve(this.#close);
        this.#wake();
      });
    });
    // Errors (e.g. a refused upgrade) surface as a close; keep them from crashing the runner.
    ws.on('error', () => {});
  }

  #wake(): void {
    for (const waiter of [...this.#waiters]) waiter();
  }

  /** Consumes and returns the next unread frame matching `match` (an event name or a predicate). */
  next(match: FrameMatch, timeoutMs = 5_000): Promise<Frame> {
    const test = typeof match === 'string' ? (frame: Frame) => frame.event === match : match;
    return new Promise((resolve, reject) => {
      const check = (): boolean => {
        const index = this.#unread.findIndex(test);
        if (index >= 0) {
          const [frame] = this.#unread.splice(index, 1);
          resolve(frame!);
          return true;
        }
        if (this.#close) {
          reject(new Error(`socket closed (${this.#close.code} ${this.#close.reason}) before a frame matching ${String(match)}; got ${JSON.stringify(this.received)}`));
          return true;
        }
        return false;
      };
      if (check()) return;
      const waiter = () => {
        if (!check()) return;
        clearTimeout(timer);
        this.#waiters.delete(waiter);
      };
      const timer = setTimeout(() => {
        this.#waiters.delete(waiter);
        reject(new Error(`no frame matching ${String(match)} within ${timeoutMs} ms; got ${JSON.stringify(this.received)}`));
      }, timeoutMs);
      this.#waiters.add(waiter);
    });
  }

  /** Sends a value as JSON text, or a string / bytes exactly as given. */
  send(frame: unknown, options: { binary?: boolean } = {}): void {
    const payload = typeof frame === 'string' || Buffer.isBuffer(frame) ? frame : JSON.stringify(frame);
    this.ws.send(payload, { binary: options.binary ?? false });
  }

  /** Subscribes with `pusher:subscribe`; `auth`/`channel_data` as an app's auth endpoint returns them. */
  subscribe(channel: string, auth: { auth?: string; channel_data?: string } = {}): void {
    this.send({ event: 'pusher:subscribe', data: { channel, ...auth } });
  }

  /** Resolves with the close once the server closed the socket (or rejects after `timeoutMs`). */
  async closedWithin(timeoutMs = 5_000): Promise<CloseInfo> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`socket still open after ${timeoutMs} ms; got ${JSON.stringify(this.received)}`)), timeoutMs);
    });
    try {
      return await Promise.race([this.closed, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  get isOpen(): boolean {
    return this.ws.readyState === WebSocket.OPEN;
  }

  close(): void {
    this.ws.close();
  }
}

export interface RawConnectOptions {
  /** The query string after `?`; default `protocol=7&client=js&version=8.4.0`. */
  query?: string;
  origin?: string;
  /** Path before `/app/{key}`. */
  path?: string;
}

/** Opens a raw socket on `/app/{key}`; resolves once the WebSocket is open (before any frame). */
export function openRaw(daemon: RunningDaemon, key: string, options: RawConnectOptions = {}): Promise<RawSocket> {
  const query = options.query ?? 'protocol=7&client=js&version=8.4.0';
  const url = `${daemon.wsUrl}${options.path ?? ''}/app/${key}${query ? `?${query}` : ''}`;
  const ws = new WebSocket(url, options.origin === undefined ? {} : { origin: options.origin });
  const socket = new RawSocket(ws);
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(socket));
    ws.once('unexpected-response', (_request, response) => reject(new Error(`upgrade refused with HTTP ${response.statusCode}`)));
    ws.once('error', reject);
  });
}

/** Opens a raw socket and waits for the handshake; resolves with the socket and its `socket_id`. */
export async function connectRaw(daemon: RunningDaemon, key: string, options: RawConnectOptions = {}): Promise<{ socket: RawSocket; socketId: string }> {
  const socket = await openRaw(daemon, key, options);
  const established = await socket.next('pusher:connection_established');
  const data = JSON.parse(established.data as string) as { socket_id: string };
  return { socket, socketId: data.socket_id };
}
