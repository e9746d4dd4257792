import { randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';

/**
 * A minimal RFC 6455 client over a plain TCP socket, made for load: no
 * extensions, no UTF-8 validation, no per-message Buffer copies unless the
 * caller asks for the payload. Server frames are unmasked; ours carry a zero
 * masking key, which is legal and makes masking a no-op (RFC 6455 wants
 * unpredictable keys to protect intermediaries; loopback load has none).
 */
export interface RawWebSocketHandlers {
  /**
   * A complete text frame: bytes `start` to `end` of `buffer`, valid only
   * during the call (offsets rather than a slice: no object per frame).
   */
  onText(buffer: Buffer, start: number, end: number): void;
  /** The connection ended (close frame, TCP close or error). */
  onClose?(code: number, reason: string): void;
}

class RawWebSocketError extends Error {
  override readonly name = 'RawWebSocketError';
  constructor(
    readonly code: 'HANDSHAKE_FAILED' | 'CONNECT_FAILED',
    message: string,
  ) {
    super(message);
  }
}

const OP_CONTINUATION = 0x0;
const OP_TEXT = 0x1;
const OP_CLOSE = 0x8;
const OP_PING = 0x9;

export class RawWebSocket {
  closed = false;
  readonly #socket: Socket;
  #handlers: RawWebSocketHandlers;
  #pending: Buffer | undefined;
  #fragments: Buffer[] | undefined;

  private constructor(socket: Socket, handlers: RawWebSocketHandlers) {
    this.#socket = socket;
    this.#handlers = handlers;
  }

  /** Opens `ws://host:port/path` and resolves after the 101 response. */
  static open(host: string, port: number, path: string, handlers: RawWebSocketHandlers): Promise<RawWebSocket> {
    return new Promise((resolve, reject) => {
      const socket = connect({ host, port, noDelay: true });
      const ws = new RawWebSocket(socket, handlers);
      let head: Buffer = Buffer.alloc(0);
      const fail = (error: Error) => {
        socket.destroy();
        reject(error);
      };
      const onHandshakeData = (chunk: Buffer) => {
        head = head.length ? Buffer.concat([head, chunk]) : chunk;
        const end = head.indexOf('\r\n\r\n');
        if (end < 0) return;
        socket.off('data', onHandshakeData);
        socket.off('error', onConnectError);
        const status = head.subarray(0, head.indexOf('\r\n')).toString('latin1');
        if (!status.startsWith('HTTP/1.1 101')) return fail(new RawWebSocketError('HANDSHAKE_FAILED', `${path}: ${status}`));
        socket.on('data', (data: Buffer) => ws.#onData(data));
        socket.on('error', () => ws.#finish(1006, 'socket error'));
        socket.on('close', () => ws.#finish(1006, 'connection lost'));
        const rest = head.subarray(end + 4);
        resolve(ws);
        if (rest.length) ws.#onData(rest);
      };
      const onConnectError = (error: Error) => fail(new RawWebSocketError('CONNECT_FAILED', error.message));
      socket.on('error', onConnectError);
      socket.on('data', onHandshakeData);
      socket.once('connect', () => {
        const key = randomBytes(16).toString('base64');
        socket.write(
          `GET ${path} HTTP/1.1\r\nHost: ${host}:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
            `Sec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
        );
      });
    });
  }

  /** Replaces the handlers (the Pusher layer takes over after the handshake). */
  setHandlers(handlers: RawWebSocketHandlers): void {
    this.#handlers = handlers;
  }

  /** Sends one text frame (zero mask). */
  sendText(text: string): void {
    if (this.closed) return;
    const length = Buffer.byteLength(text);
    const headerLength = length < 126 ? 2 : length < 65_536 ? 4 : 10;
    const frame = Buffer.allocUnsafe(headerLength + 4 + length);
    frame[0] = 0x80 | OP_TEXT;
    if (headerLength === 2) frame[1] = 0x80 | length;
    else if (headerLength === 4) {
      frame[1] = 0x80 | 126;
      frame.writeUInt16BE(length, 2);
    } else {
      frame[1] = 0x80 | 127;
      frame.writeBigUInt64BE(BigInt(length), 2);
    }
    frame.writeUInt32BE(0, headerLength);
    frame.write(text, headerLength + 4, 'utf8');
    this.#socket.write(frame);
  }

  /** Sends a close frame and ends the TCP stream. */
  close(): void {
    if (this.closed) return;
    const frame = Buffer.from([0x80 | OP_CLOSE, 0x80 | 2, 0, 0, 0, 0, 0x03, 0xe8]); // 1000, zero mask
    this.#socket.end(frame);
    this.#finish(1000, 'closed by client');
  }

  /** Drops the TCP connection at once (no close handshake). */
  destroy(): void {
    this.#socket.destroy();
    this.#finish(1006, 'destroyed');
  }

  #finish(code: number, reason: string): void {
    if (this.closed) return;
    this.closed = true;
    this.#handlers.onClose?.(code, reason);
  }

  #onData(chunk: Buffer): void {
    // Replies sent while handling this chunk leave in one write.
    this.#socket.cork();
    try {
      this.#parse(chunk);
    } finally {
      this.#socket.uncork();
    }
  }

  #parse(chunk: Buffer): void {
    const buffer = this.#pending ? Buffer.concat([this.#pending, chunk]) : chunk;
    this.#pending = undefined;
    let offset = 0;
    while (buffer.length - offset >= 2) {
      const first = buffer[offset]!;
      let length = buffer[offset + 1]! & 0x7f;
      let header = 2;
      if (length === 126) {
        if (buffer.length - offset < 4) break;
        length = buffer.readUInt16BE(offset + 2);
        header = 4;
      } else if (length === 127) {
        if (buffer.length - offset < 10) break;
        length = Number(buffer.readBigUInt64BE(offset + 2));
        header = 10;
      }
      if (buffer.length - offset < header + length) break;
      const start = offset + header;
      offset = start + length;
      const opcode = first & 0x0f;
      // The hot path: a whole text frame goes out as offsets.
      if (opcode === OP_TEXT && first & 0x80 && !this.#fragments) this.#handlers.onText(buffer, start, offset);
      else this.#onFrame(opcode, (first & 0x80) !== 0, buffer.subarray(start, offset));
      if (this.closed) return;
    }
    if (offset < buffer.length) {
      // Keep only the unfinished frame; copy it so the big chunk can be freed.
      this.#pending = Buffer.from(buffer.subarray(offset));
    }
  }

  #onFrame(opcode: number, fin: boolean, payload: Buffer): void {
    if (opcode === OP_TEXT || opcode === OP_CONTINUATION) {
      (this.#fragments ??= []).push(Buffer.from(payload));
      if (fin) {
        const whole = Buffer.concat(this.#fragments);
        this.#fragments = undefined;
        this.#handlers.onText(whole, 0, whole.length);
      }
      return;
    }
    if (opcode === OP_CLOSE) {
      const code = payload.length >= 2 ? payload.readUInt16BE(0) : 1005;
      const reason = payload.subarray(2).toString('utf8');
      this.#socket.end();
      this.#finish(code, reason);
      return;
    }
    if (opcode === OP_PING) {
      // Answer with a pong carrying the same (short) payload.
      const pong = Buffer.alloc(6 + payload.length);
      pong[0] = 0x8a;
      pong[1] = 0x80 | payload.length;
      pong.writeUInt32BE(0, 2);
      payload.copy(pong, 6);
      this.#socket.write(pong);
    }
    // Binary and pong frames are ignored.
  }
}
