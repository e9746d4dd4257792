import type { MessagePort } from 'node:worker_threads';
import type { Config } from '../config/schema.js';

/** What a worker thread is started with (`workerData`). */
export interface WorkerData {
  index: number;
  config: Config;
  allowUwsFallback: boolean;
  /** The node's name: as a Redis node, and to the hub. */
  nodeId: string;
  /** Its end of the hub's channel; absent when Redis coordinates the workers. */
  hubPort?: MessagePort | undefined;
  /** The process's local rate limit counters, shared by every worker (`rateLimitCounters`); absent when limits are off. */
  rateLimitCounters?: SharedArrayBuffer | undefined;
  /** Its end of a channel to the process's idempotency key store (`idempotencyHost`); absent with Redis or idempotency off. */
  idempotencyPort?: MessagePort | undefined;
}

/** Main → worker. */
export type ToWorker =
  | { k: 'listen'; id: number; port: number }
  | { k: 'stop-listening'; id: number }
  | { k: 'stop'; id: number; reason: string | undefined }
  | { k: 'metrics'; id: number }
  /** Tests only (REALTIME_TEST_CRASH_WORKER set): the worker throws from a timer, an uncaught error. */
  | { k: 'test-crash' }
  | { k: 'metrics-answer'; id: number; ok: true; contentType: string; body: string }
  | { k: 'metrics-answer'; id: number; ok: false; message: string };

/** Worker → main. */
export type FromWorker =
  | { k: 'ready' }
  | { k: 'start-failed'; message: string }
  | { k: 'answer'; id: number; ok: true; value: unknown }
  | { k: 'answer'; id: number; ok: false; message: string }
  | { k: 'cluster-restart' }
  | { k: 'fatal'; origin: string; message: string; stack: string | undefined }
  | { k: 'render-metrics'; id: number };

export const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));
