import type { HubPort } from '../hub-node.js';
import type { ScalerPort } from '../port-scaler.js';

/** One end of a port that a test drives by hand. */
export interface HandPort<Port extends HubPort | ScalerPort> {
  /** Give it to `hub.attach` or `createPortScaler`. */
  port: Port;
  /** Plays the other side: hands `data` to this side's message listeners. */
  deliver(data: unknown): void;
  /** What this side sent, each a structured clone as a real port would hand over. */
  posted: unknown[];
  /** The other side went away: this side's close listeners run. */
  closeFromOtherSide(): void;
}

/** A fake `MessagePort` end for the hub (`HubPort`) or a worker's scaler (`ScalerPort`). */
export function handPort<Port extends HubPort | ScalerPort>(): HandPort<Port> {
  const listeners: { message: ((data: unknown) => void)[]; close: (() => void)[] } = { message: [], close: [] };
  const posted: unknown[] = [];
  const port = {
    on(event: 'message' | 'close', listener: never) {
      listeners[event].push(listener);
      return port;
    },
    postMessage(message: unknown) {
      // What a real port would hand over: a structured clone.
      posted.push(structuredClone(message));
    },
    close() {},
  };
  return {
    port: port as unknown as Port,
    deliver: (data) => listeners.message.forEach((listener) => listener(data)),
    posted,
    closeFromOtherSide: () => listeners.close.forEach((listener) => listener()),
  };
}
