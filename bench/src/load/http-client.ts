import { connect, type Socket } from 'node:net';
import type { Endpoint } from './pusher-client.js';

export type ResponseCallback = (status: number, body: Buffer) => void;

class HttpClientError extends Error {
  override readonly name = 'HttpClientError';
  constructor(
    readonly code: 'CONNECT_FAILED' | 'CONNECTION_LOST' | 'BAD_RESPONSE',
    message: string,
  ) {
    super(message);
  }
}

/**
 * One keep-alive HTTP/1.1 connection with pipelining, like wrk: requests are
 * pre-built bytes, responses are matched in order and only their status line
 * and Content-Length are read. Far cheaper than a general client, so the
 * server, not the load generator, is what saturates.
 */
export class HttpConnection {
  readonly #socket: Socket;
  readonly #callbacks: ResponseCallback[] = [];
  #head = 0;
  #pending: Buffer | undefined;
  #failed: Error | undefined;

  private constructor(socket: Socket) {
    this.#socket = socket;
    socket.on('data', (chunk: Buffer) => this.#onData(chunk));
    const lost = () => this.#fail(new HttpClientError('CONNECTION_LOST', 'the server closed the connection'));
    socket.on('close', lost);
    socket.on('error', lost);
  }

  static open(endpoint: Endpoint): Promise<HttpConnection> {
    return new Promise((resolve, reject) => {
      const socket = connect({ host: endpoint.host, port: endpoint.port, noDelay: true });
      socket.once('error', (error) => reject(new HttpClientError('CONNECT_FAILED', error.message)));
      socket.once('connect', () => resolve(new HttpConnection(socket)));
    });
  }

  /** Requests sent and not yet answered. */
  get inFlight(): number {
    return this.#callbacks.length - this.#head;
  }

  get failed(): Error | undefined {
    return this.#failed;
  }

  send(request: Buffer | string, onResponse: ResponseCallback): void {
    if (this.#failed) throw this.#failed;
    this.#callbacks.push(onResponse);
    this.#socket.write(request);
  }

  /** One request, awaited (setup and smoke use). */
  fetch(request: Buffer | string): Promise<{ status: number; body: string }> {
    return new Promise((resolve, reject) => {
      try {
        this.send(request, (status, body) => resolve({ status, body: body.toString('utf8') }));
      } catch (error) {
        reject(error as Error);
      }
    });
  }

  close(): void {
    this.#socket.destroy();
  }

  #fail(error: Error): void {
    this.#failed ??= error;
  }

  #onData(chunk: Buffer): void {
    const buffer = this.#pending ? Buffer.concat([this.#pending, chunk]) : chunk;
    this.#pending = undefined;
    let offset = 0;
    for (;;) {
      const headEnd = buffer.indexOf('\r\n\r\n', offset, 'latin1');
      if (headEnd < 0) break;
      const head = buffer.toString('latin1', offset, headEnd);
      const status = Number(head.slice(9, 12));
      const lengthMatch = /\r\ncontent-length: *(\d+)/i.exec(head);
      if (!lengthMatch) {
        this.#fail(new HttpClientError('BAD_RESPONSE', `no Content-Length in ${JSON.stringify(head.slice(0, 200))}`));
        this.#socket.destroy();
        return;
      }
      const bodyStart = headEnd + 4;
      const bodyEnd = bodyStart + Number(lengthMatch[1]);
      if (bodyEnd > buffer.length) break;
      offset = bodyEnd;
      const callback = this.#callbacks[this.#head++];
      if (this.#head > 1024 && this.#head * 2 > this.#callbacks.length) {
        this.#callbacks.splice(0, this.#head);
        this.#head = 0;
      }
      callback?.(status, buffer.subarray(bodyStart, bodyEnd));
    }
    if (offset < buffer.length) this.#pending = Buffer.from(buffer.subarray(offset));
  }
}

/** The bytes of a POST with a JSON body. */
export function postRequest(endpoint: Endpoint, pathWithQuery: string, body: string): Buffer {
  const bodyBytes = Buffer.from(body);
  return Buffer.concat([
    Buffer.from(
      `POST ${pathWithQuery} HTTP/1.1\r\nHost: ${endpoint.host}:${endpoint.port}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${bodyBytes.length}\r\n\r\n`,
      'latin1',
    ),
    bodyBytes,
  ]);
}

/** The bytes of a GET. */
export function getRequest(endpoint: Endpoint, pathWithQuery: string): string {
  return `GET ${pathWithQuery} HTTP/1.1\r\nHost: ${endpoint.host}:${endpoint.port}\r\n\r\n`;
}
