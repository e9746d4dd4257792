import WebSocket from 'ws';
import type { CaseContext } from '../case.js';
import { fail } from '../checks.js';
import type { Endpoint } from '../target.js';
import { webSocketBase } from './endpoint-url.js';

/** A frame as received: `data` decoded once more when it is a JSON string, as pusher-js does. */
export interface Frame {
  readonly event: string;
  readonly channel?: string;
  readonly data?: unknown;
  readonly user_id?: string;
  /** The frame's text as sent. */
  readonly raw: string;
  /** `data` exactly as in the frame (a string stays a string). */
  readonly rawData: unknown;
}

export interface CloseInfo {
  readonly code: number;
  readonly reason: string;
}

/** A WebSocket spoken to in raw Pusher frames, for what pusher-js cannot send or does not show. */
export class RawSocket {
  readonly frames: Frame[] = [];
  /** Frames that were not JSON objects with an `event`. */
  readonly unparsed: string[] = [];
  private closeInfo: CloseInfo | undefined;

  constructor(
    private readonly context: CaseContext,
    readonly socket: WebSocket,
  ) {
    socket.on('message', (data, isBinary) => {
      const text = isBinary ? Buffer.from(data as Buffer).toString('utf8') : String(data);
      const frame = decodeFrame(text);
      if (frame) this.frames.push(frame);
      else this.unparsed.push(text);
    });
    socket.on('close', (code, reason) => {
      this.closeInfo = { code, reason: reason.toString('utf8') };
    });
  }

  get closed(): CloseInfo | undefined {
    return this.closeInfo;
  }

  send(frame: object | string): void {
    if (this.socket.readyState !== WebSocket.OPEN) fail(`cannot send ${typeof frame === 'string' ? frame : JSON.stringify(frame)}: the server closed the connection (${this.describeClose()})`);
    this.socket.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
  }

  subscribe(channel: string, auth?: { auth: string; channel_data?: string }): void {
    this.send({ event: 'pusher:subscribe', data: { channel, ...(auth ?? { auth: '' }) } });
  }

  /** The first frame (from `after` on) matching `predicate`; fails if the socket closes first or time runs out. */
  async next(predicate: string | ((frame: Frame) => boolean), what?: string, timeoutMs?: number, after = 0): Promise<Frame> {
    const matches = typeof predicate === 'string' ? (frame: Frame) => frame.event === predicate : predicate;
    const label = what ?? (typeof predicate === 'string' ? `a ${predicate} frame` : 'a frame');
    return this.context.waitFor(
      () => {
        const found = this.frames.slice(after).find(matches);
        if (found) return found;
        if (this.closeInfo) fail(`the server closed the connection (${this.describeClose()}) before sending ${label}; frames: ${this.summary()}`);
        return undefined;
      },
      () => `${label} (frames so far: ${this.summary()})`,
      timeoutMs,
    );
  }

  /** Resolves with the close once the server closed the connection. */
  closedWithin(what: string | (() => string), timeoutMs?: number): Promise<CloseInfo> {
    return this.context.waitFor(() => this.closeInfo, what, timeoutMs);
  }

  summary(): string {
    const events = this.frames.map((frame) => frame.event);
    return events.length === 0 ? 'none' : events.slice(-8).join(', ');
  }

  private describeClose(): string {
    return this.closeInfo ? `code ${this.closeInfo.code}${this.closeInfo.reason ? ` "${this.closeInfo.reason}"` : ''}` : 'not closed';
  }
}

export function decodeFrame(text: string): Frame | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || typeof (parsed as { event?: unknown }).event !== 'string') return undefined;
  const frame = parsed as { event: string; channel?: string; data?: unknown; user_id?: string };
  let data = frame.data;
  if (typeof data === 'string') {
    try {
      data = JSON.parse(data);
    } catch {
      // a plain string stays as it is, as in pusher-js
    }
  }
  return { ...frame, data, raw: text, rawData: frame.data };
}

export interface OpenRawOptions {
  node: Endpoint;
  key: string;
  /** Query after `?`; default `protocol=7&client=js&version=8.4.0`, as pusher-js sends. */
  query?: string;
}

/** Opens a WebSocket to `/app/{key}` and resolves once it is open (or closed at once by the server). */
export async function openRaw(context: CaseContext, options: OpenRawOptions): Promise<RawSocket> {
  const url = `${webSocketBase(options.node)}/app/${encodeURIComponent(options.key)}?${options.query ?? 'protocol=7&client=js&version=8.4.0&flash=false'}`;
  const socket = new WebSocket(url, { handshakeTimeout: 5_000 });
  let failedToOpen: Error | undefined;
  socket.on('error', (error) => {
    // Before the upgrade (refused, HTTP answer instead of 101) it fails the open below; after it, 'close' reports it.
    if (socket.readyState !== WebSocket.OPEN) failedToOpen ??= error;
  });
  context.defer(() => {
    if (socket.readyState === WebSocket.CONNECTING || socket.readyState === WebSocket.OPEN) socket.terminate();
  });
  const raw = new RawSocket(context, socket);
  await context.waitFor(() => {
    if (socket.readyState === WebSocket.CONNECTING) return undefined;
    if (socket.readyState !== WebSocket.OPEN && raw.frames.length === 0 && failedToOpen) fail(`${url} did not open: ${failedToOpen.message}`);
    return true;
  }, `the WebSocket ${url} to open`);
  return raw;
}

/** A raw connection that got `pusher:connection_established`: its socket id and activity timeout. */
export async function connectRaw(context: CaseContext, options: OpenRawOptions): Promise<{ socket: RawSocket; socketId: string }> {
  const socket = await openRaw(context, options);
  const established = await socket.next('pusher:connection_established');
  const data = established.data as { socket_id?: unknown } | undefined;
  if (typeof data?.socket_id !== 'string') fail(`pusher:connection_established carries no string socket_id: ${established.raw}`);
  return { socket, socketId: data.socket_id };
}
