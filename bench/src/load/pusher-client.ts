import { RawWebSocket } from './raw-websocket.js';

/** A parsed server frame (setup path only; the measured path reads raw bytes). */
export interface PusherFrame {
  event: string;
  channel?: string;
  data?: unknown;
  user_id?: string;
}

export interface Endpoint {
  host: string;
  port: number;
}

export class PusherClientError extends Error {
  override readonly name = 'PusherClientError';
  constructor(
    readonly code: 'CLOSED' | 'SUBSCRIPTION_FAILED' | 'TIMEOUT',
    message: string,
  ) {
    super(message);
  }
}

interface Waiter {
  match(frame: PusherFrame): boolean;
  resolve(frame: PusherFrame): void;
  reject(error: Error): void;
}

const setupTimeoutMs = 20_000;

/**
 * The Pusher protocol over a RawWebSocket. Setup (connect, subscribe) parses
 * JSON; once a scenario sets `onRawFrame`, frames skip parsing entirely so
 * the load generator stays cheap at high delivery rates.
 */
export class PusherClient {
  socketId = '';
  /** Fast path: every frame's raw bytes (`buffer` from `start` to `end`, valid during the call), unparsed. */
  onRawFrame: ((buffer: Buffer, start: number, end: number) => void) | undefined;
  /** Slow path: every parsed frame no waiter took. */
  onFrame: ((frame: PusherFrame) => void) | undefined;
  closeCode: number | undefined;
  readonly #ws: RawWebSocket;
  readonly #waiters = new Set<Waiter>();

  private constructor(ws: RawWebSocket) {
    this.#ws = ws;
    ws.setHandlers({
      onText: (buffer, start, end) => (this.onRawFrame ? this.onRawFrame(buffer, start, end) : this.#dispatch(buffer.subarray(start, end))),
      onClose: (code, reason) => {
        this.closeCode = code;
        for (const waiter of this.#waiters) waiter.reject(new PusherClientError('CLOSED', `closed ${code} ${reason}`));
        this.#waiters.clear();
      },
    });
  }

  /** Connects to `/app/{key}` and waits for `pusher:connection_established`. */
  static async connect(endpoint: Endpoint, appKey: string): Promise<PusherClient> {
    let early: Buffer[] = [];
    const ws = await RawWebSocket.open(endpoint.host, endpoint.port, `/app/${appKey}?protocol=7&client=bench&version=1.0`, {
      // Frames that arrive with the 101 response are kept for the client below.
      onText: (buffer, start, end) => early.push(Buffer.from(buffer.subarray(start, end))),
    });
    const client = new PusherClient(ws);
    const established = client.waitFor((frame) => frame.event === 'pusher:connection_established');
    const buffered = early;
    early = [];
    for (const payload of buffered) client.#dispatch(payload);
    const frame = await established;
    client.socketId = (JSON.parse(String(frame.data)) as { socket_id: string }).socket_id;
    return client;
  }

  get closed(): boolean {
    return this.#ws.closed;
  }

  send(frame: object): void {
    this.#ws.sendText(JSON.stringify(frame));
  }

  sendText(text: string): void {
    this.#ws.sendText(text);
  }

  /** Subscribes and waits for `pusher_internal:subscription_succeeded` (its frame is returned). */
  async subscribe(channel: string, extra: { auth?: string; channel_data?: string } = {}): Promise<PusherFrame> {
    const done = this.waitFor(
      (frame) =>
        frame.channel === channel &&
        (frame.event === 'pusher_internal:subscription_succeeded' || frame.event === 'pusher:subscription_error'),
    );
    this.send({ event: 'pusher:subscribe', data: { channel, ...extra } });
    const frame = await done;
    if (frame.event !== 'pusher_internal:subscription_succeeded') {
      throw new PusherClientError('SUBSCRIPTION_FAILED', `${channel}: ${JSON.stringify(frame.data)}`);
    }
    return frame;
  }

  unsubscribe(channel: string): void {
    this.send({ event: 'pusher:unsubscribe', data: { channel } });
  }

  /** Resolves with the next parsed frame matching `match`. */
  waitFor(match: (frame: PusherFrame) => boolean, timeoutMs = setupTimeoutMs): Promise<PusherFrame> {
    return new Promise((resolve, reject) => {
      if (this.#ws.closed) return reject(new PusherClientError('CLOSED', `closed ${this.closeCode}`));
      const timer = setTimeout(() => {
        this.#waiters.delete(waiter);
        reject(new PusherClientError('TIMEOUT', `no matching frame within ${timeoutMs} ms`));
      }, timeoutMs);
      const waiter: Waiter = {
        match,
        resolve: (frame) => {
          clearTimeout(timer);
          resolve(frame);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      };
      this.#waiters.add(waiter);
    });
  }

  close(): void {
    this.#ws.close();
  }

  destroy(): void {
    this.#ws.destroy();
  }

  #dispatch(payload: Buffer): void {
    const frame = JSON.parse(payload.toString('utf8')) as PusherFrame;
    if (frame.event === 'pusher:ping') return this.send({ event: 'pusher:pong', data: {} });
    for (const waiter of this.#waiters) {
      if (waiter.match(frame)) {
        this.#waiters.delete(waiter);
        waiter.resolve(frame);
        return;
      }
    }
    this.onFrame?.(frame);
  }
}

/**
 * Opens `count` clients with at most `concurrency` handshakes in flight and
 * runs `setup` on each; resolves with the clients in index order.
 */
export async function connectMany(
  count: number,
  concurrency: number,
  open: (index: number) => Promise<PusherClient>,
): Promise<PusherClient[]> {
  const clients: PusherClient[] = new Array<PusherClient>(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const index = next++;
      clients[index] = await open(index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  return clients;
}
