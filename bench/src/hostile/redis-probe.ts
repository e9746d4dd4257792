import { connect, type Socket } from 'node:net';

/**
 * Just enough RESP2 to ask Redis `DBSIZE` and `INFO memory` from the bench,
 * which has no Redis client of its own: one command in flight at a time,
 * replies parsed as simple strings, errors, integers and bulk strings.
 */
export class RedisProbeError extends Error {
  override readonly name = 'RedisProbeError';
  constructor(
    readonly code: 'CONNECT_FAILED' | 'CONNECTION_LOST' | 'REDIS_ERROR' | 'UNSUPPORTED_REPLY',
    message: string,
  ) {
    super(message);
  }
}

type Reply = string | number | null;

export class RedisProbe {
  readonly #socket: Socket;
  #buffer: Buffer = Buffer.alloc(0);
  #waiting: { resolve(reply: Reply): void; reject(error: Error): void } | undefined;

  private constructor(socket: Socket) {
    this.#socket = socket;
    socket.on('data', (chunk: Buffer) => {
      this.#buffer = this.#buffer.length ? Buffer.concat([this.#buffer, chunk]) : chunk;
      this.#drain();
    });
    const lost = () => this.#fail(new RedisProbeError('CONNECTION_LOST', 'Redis closed the connection'));
    socket.on('close', lost);
    socket.on('error', lost);
  }

  /** Connects to `redis://host:port[/db]` (no TLS, no auth: the bench's own loopback Redis). */
  static open(url: string): Promise<RedisProbe> {
    const parsed = new URL(url);
    const database = Number(parsed.pathname.slice(1) || 0);
    return new Promise((resolve, reject) => {
      const socket = connect({ host: parsed.hostname || '127.0.0.1', port: Number(parsed.port || 6379) });
      socket.once('error', (error) => reject(new RedisProbeError('CONNECT_FAILED', `${url}: ${error.message}`)));
      socket.once('connect', () => {
        const probe = new RedisProbe(socket);
        if (!database) return resolve(probe);
        probe.command('SELECT', String(database)).then(() => resolve(probe), reject);
      });
    });
  }

  command(...args: string[]): Promise<Reply> {
    if (this.#waiting) throw new RedisProbeError('UNSUPPORTED_REPLY', 'one command at a time');
    return new Promise((resolve, reject) => {
      this.#waiting = { resolve, reject };
      this.#socket.write(`*${args.length}\r\n${args.map((arg) => `$${Buffer.byteLength(arg)}\r\n${arg}\r\n`).join('')}`);
    });
  }

  async dbsize(): Promise<number> {
    return Number(await this.command('DBSIZE'));
  }

  /** `used_memory` from `INFO memory`, bytes. */
  async usedMemory(): Promise<number> {
    const info = String(await this.command('INFO', 'memory'));
    const match = /^used_memory:(\d+)/m.exec(info);
    return match ? Number(match[1]) : Number.NaN;
  }

  close(): void {
    this.#socket.destroy();
  }

  #fail(error: Error): void {
    const waiting = this.#waiting;
    this.#waiting = undefined;
    waiting?.reject(error);
  }

  #drain(): void {
    const lineEnd = this.#buffer.indexOf('\r\n');
    if (lineEnd < 0 || !this.#waiting) return;
    const type = String.fromCharCode(this.#buffer[0]!);
    const line = this.#buffer.toString('utf8', 1, lineEnd);
    let reply: Reply;
    let consumed = lineEnd + 2;
    if (type === '+') reply = line;
    else if (type === ':') reply = Number(line);
    else if (type === '-') {
      this.#buffer = this.#buffer.subarray(consumed);
      return this.#fail(new RedisProbeError('REDIS_ERROR', line));
    } else if (type === '$') {
      const length = Number(line);
      if (length < 0) reply = null;
      else {
        if (this.#buffer.length < consumed + length + 2) return; // the rest of the bulk string is still on its way
        reply = this.#buffer.toString('utf8', consumed, consumed + length);
        consumed += length + 2;
      }
    } else {
      return this.#fail(new RedisProbeError('UNSUPPORTED_REPLY', `reply type ${type}`));
    }
    this.#buffer = this.#buffer.subarray(consumed);
    const waiting = this.#waiting;
    this.#waiting = undefined;
    waiting.resolve(reply);
  }
}
