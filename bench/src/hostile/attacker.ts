import { PusherClientError, type PusherClient } from '../load/pusher-client.js';

export interface AttackResult {
  /** Subscribe frames handed to the socket. */
  sent: number;
  /** From the first frame until every subscribe was answered, the server closed the socket, or the timeout. */
  ms: number;
  outcome: 'answered' | 'closed' | 'timeout';
  /** The server's close code when it closed the attacker. */
  closeCode: number | undefined;
  succeeded: number;
  /** `pusher:subscription_error` answers, and how many of them were `LimitReached`. */
  refused: number;
  limitReached: number;
  /** `pusher:error` frames, and the first one's code (4301: over `max_frames_per_second`). */
  errors: number;
  firstErrorCode: number | undefined;
  /** When the attack ended (performance.now()). */
  endedAt: number;
}

const succeededMarker = Buffer.from('pusher_internal:subscription_succeeded');
const refusedMarker = Buffer.from('"pusher:subscription_error"');
const limitMarker = Buffer.from('LimitReached');
const errorMarker = Buffer.from('"pusher:error"');

/** Public channel `i` of the attacker (nobody else subscribes to these). */
export const attackChannel = (index: number) => `hostile-${index}`;

export interface AttackOptions {
  count: number;
  timeoutMs: number;
  /** Frames handed to the socket at once. */
  batch: number;
  /**
   * Pause between batches. 0: flood, as fast as the socket takes the frames
   * (a batch a turn of the event loop, so replies are read while sending).
   */
  intervalMs: number;
}

/**
 * Sends `count` `pusher:subscribe` frames for distinct public channels and
 * counts the answers by their bytes (no JSON parsing per answer).
 */
export async function attack(client: PusherClient, options: AttackOptions): Promise<AttackResult> {
  const result: AttackResult = {
    sent: 0,
    ms: Number.NaN,
    outcome: 'timeout',
    closeCode: undefined,
    succeeded: 0,
    refused: 0,
    limitReached: 0,
    errors: 0,
    firstErrorCode: undefined,
    endedAt: Number.NaN,
  };
  const from = performance.now();
  let finished = false;
  let finish!: () => void;
  const ended = new Promise<void>((resolve) => (finish = resolve));
  const end = (outcome: AttackResult['outcome']) => {
    if (finished) return;
    finished = true;
    result.endedAt = performance.now();
    result.ms = result.endedAt - from;
    result.outcome = outcome;
    result.closeCode = client.closeCode;
    finish();
  };
  client.onRawFrame = (buffer, start, end_) => {
    const frame = buffer.subarray(start, end_);
    if (frame.includes(succeededMarker)) result.succeeded++;
    else if (frame.includes(refusedMarker)) {
      result.refused++;
      if (frame.includes(limitMarker)) result.limitReached++;
    } else if (frame.includes(errorMarker)) {
      result.errors++;
      result.firstErrorCode ??= (JSON.parse(frame.toString('utf8')) as { data: { code: number } }).data.code;
    }
    if (result.succeeded + result.refused >= options.count) end('answered');
  };
  // No frame ever matches: the waiter only reports the socket's close, or the timeout.
  client.waitFor(() => false, options.timeoutMs).catch((error: unknown) => end(error instanceof PusherClientError && error.code === 'CLOSED' ? 'closed' : 'timeout'));

  const { batch } = options;
  const send = async () => {
    for (let index = 0; index < options.count && !finished && !client.closed; ) {
      for (const stop = Math.min(options.count, index + batch); index < stop; index++) {
        client.sendText(`{"event":"pusher:subscribe","data":{"channel":"${attackChannel(index)}"}}`);
      }
      result.sent = index;
      await (options.intervalMs > 0 ? new Promise((resolve) => setTimeout(resolve, options.intervalMs)) : new Promise((resolve) => setImmediate(resolve)));
    }
  };
  // Not awaited: the attack ends with the close or the last answer, not when the sender next wakes up.
  void send();
  await ended;
  return result;
}
