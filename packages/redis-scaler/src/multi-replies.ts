import type { ScriptPipeline } from './scripts.js';

/** Reads one command's reply after EXEC. */
export type ReplyReader = (reply: unknown) => void;

/** What `exec()` resolves to: one `[error, reply]` per queued command, or null when the transaction was discarded. */
export type ExecResults = [Error | null, unknown][] | null;

/**
 * Commands queued on one MULTI, each with what reads its reply, so that no caller counts reply
 * positions: EXEC answers in queue order, and `read` hands each reply to the reader queued with it.
 */
export class MultiReplies {
  readonly multi: ScriptPipeline;
  readonly #readers: (ReplyReader | undefined)[] = [];

  constructor(multi: ScriptPipeline) {
    this.multi = multi;
  }

  /** Commands queued so far. */
  get size(): number {
    return this.#readers.length;
  }

  /** Queues one command on the MULTI, e.g. `queue((m) => m.hexists(key, field), (reply) => …)`. */
  queue(command: (multi: ScriptPipeline) => unknown, read?: ReplyReader): void {
    command(this.multi);
    this.#readers.push(read);
  }

  /**
   * Hands every reply to its reader, in queue order, when every command succeeded; returns
   * undefined then. Otherwise returns the first error and calls no reader: a transaction that
   * failed anywhere is not read piecemeal.
   */
  read(results: ExecResults): Error | undefined {
    if (!results) return new Error('the transaction was discarded');
    if (results.length !== this.#readers.length) return new Error(`${results.length} replies to ${this.#readers.length} queued commands`);
    const failed = results.find(([error]) => error);
    if (failed) return failed[0]!;
    results.forEach(([, reply], i) => this.#readers[i]?.(reply));
    return undefined;
  }
}
