import { RawWebSocket } from '../load/raw-websocket.js';

/**
 * A daemon started with `--inspect=127.0.0.1:<port>`, seen through the V8
 * inspector protocol: a full garbage collection on demand, then the
 * process's own `process.memoryUsage()`. RSS growth alone mixes what a
 * connection keeps with garbage not yet collected and allocator slack;
 * the heap used after a full GC is what stays.
 */
export interface MemoryUsage {
  rss: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
}

class InspectorError extends Error {
  override readonly name = 'InspectorError';
  constructor(
    readonly code: 'NO_TARGET' | 'CLOSED' | 'TIMEOUT' | 'PROTOCOL',
    message: string,
  ) {
    super(message);
  }
}

export class Inspector {
  #nextId = 1;
  readonly #pending = new Map<number, { resolve(result: unknown): void; reject(error: Error): void }>();

  private constructor(private readonly ws: RawWebSocket) {
    ws.setHandlers({
      onText: (buffer, start, end) => this.onMessage(buffer.toString('utf8', start, end)),
      onClose: () => this.onClose(),
    });
  }

  static async attach(host: string, port: number): Promise<Inspector> {
    const targets = (await (await fetch(`http://${host}:${port}/json/list`, { signal: AbortSignal.timeout(5_000) })).json()) as { webSocketDebuggerUrl?: string }[];
    const url = targets[0]?.webSocketDebuggerUrl;
    if (!url) throw new InspectorError('NO_TARGET', `no inspector target on ${host}:${port}`);
    // Nothing arrives before the first call: the handlers are set by the constructor.
    const ws = await RawWebSocket.open(host, port, new URL(url).pathname, { onText: () => {} });
    return new Inspector(ws);
  }

  /** Full, synchronous GCs in the daemon, then its `process.memoryUsage()`. */
  async memoryAfterGc(): Promise<MemoryUsage> {
    // Twice: the second one runs after the first one's finalizers and gives back what they freed.
    await this.call('HeapProfiler.collectGarbage', {});
    await this.call('HeapProfiler.collectGarbage', {});
    const reply = (await this.call('Runtime.evaluate', { expression: 'JSON.stringify(process.memoryUsage())', returnByValue: true })) as { result: { value: string } };
    return JSON.parse(reply.result.value) as MemoryUsage;
  }

  detach(): void {
    this.ws.close();
  }

  call(method: string, params: object, timeoutMs = 10_000): Promise<unknown> {
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete(id);
        reject(new InspectorError('TIMEOUT', `${method}: no answer within ${timeoutMs} ms`));
      }, timeoutMs);
      this.#pending.set(id, {
        resolve: (result) => {
          clearTimeout(timer);
          resolve(result);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      });
      this.ws.sendText(JSON.stringify({ id, method, params }));
    });
  }

  private onMessage(text: string): void {
    const message = JSON.parse(text) as { id?: number; result?: unknown; error?: { message: string } };
    if (message.id === undefined) return; // events: none are enabled
    const pending = this.#pending.get(message.id);
    this.#pending.delete(message.id);
    if (message.error) pending?.reject(new InspectorError('PROTOCOL', message.error.message));
    else pending?.resolve(message.result);
  }

  private onClose(): void {
    for (const pending of this.#pending.values()) pending.reject(new InspectorError('CLOSED', 'the inspector connection closed'));
    this.#pending.clear();
  }
}
