import { parentPort, workerData } from 'node:worker_threads';
import { createPortScaler } from '@org/thread-scaler';
import type { Metrics } from '@org/metrics';
import { createDaemon, type Daemon } from '../daemon.js';
import { createLogging } from '../logging.js';
import { installProcessPolicy } from '../process-policy.js';
import { errorText, type FromWorker, type ToWorker, type WorkerData } from './control.js';
import { workerLogging } from './worker-logging.js';

/**
 * One worker thread of `server --workers N`: today's daemon, on the port every worker shares,
 * driven by the main thread (listen, stop listening, stop, metrics). Its state goes through the
 * hub in the main thread (or Redis, as a node of its own).
 */
const data = workerData as WorkerData;
const parent = parentPort!;
const post = (message: FromWorker) => parent.postMessage(message);

// An uncaught error here is the whole server's: the main thread drains every worker and exits 70.
installProcessPolicy({
  onFatal: (error, origin) => post({ k: 'fatal', origin, message: errorText(error), stack: error instanceof Error ? error.stack : undefined }),
});

const logging = workerLogging(createLogging(data.config.logging), data.index);
let nextMetricsId = 0;
const metricsAnswers = new Map<number, { resolve(value: Awaited<ReturnType<Metrics['render']>>): void; reject(error: Error): void }>();

/** `/metrics` on the shared port: the main thread sums every worker's registry. */
const renderMetrics: Metrics['render'] = () =>
  new Promise((resolve, reject) => {
    const id = nextMetricsId++;
    metricsAnswers.set(id, { resolve, reject });
    post({ k: 'render-metrics', id });
  });

async function answer(id: number, work: () => Promise<unknown>): Promise<void> {
  try {
    post({ k: 'answer', id, ok: true, value: await work() });
  } catch (error) {
    post({ k: 'answer', id, ok: false, message: errorText(error) });
  }
}

function serve(daemon: Daemon): void {
  parent.on('message', (message: ToWorker) => {
    switch (message.k) {
      case 'listen':
        void answer(message.id, () => daemon.listen(message.port));
        return;
      case 'stop-listening':
        void answer(message.id, () => daemon.stopListening());
        return;
      case 'stop':
        void answer(message.id, () => daemon.stop(message.reason)).then(() => {
          // Stopped and answered: the thread ends (its stdout is flushed to the process's first).
          parent.close();
          data.hubPort?.close();
          data.idempotencyPort?.close();
        });
        return;
      case 'metrics':
        void answer(message.id, () => daemon.metrics.registry.getMetricsAsJSON());
        return;
      case 'test-crash':
        if (process.env['REALTIME_TEST_CRASH_WORKER'])
          setTimeout(() => {
            throw new Error('test crash: an exception thrown from a timer in a worker thread (REALTIME_TEST_CRASH_WORKER, SIGUSR2)');
          });
        return;
      case 'metrics-answer': {
        const waiting = metricsAnswers.get(message.id);
        metricsAnswers.delete(message.id);
        if (message.ok) waiting?.resolve({ contentType: message.contentType, body: message.body });
        else waiting?.reject(new Error(message.message));
      }
    }
  });
}

try {
  const scaler = data.hubPort ? createPortScaler(data.hubPort, { nodeId: data.nodeId }) : undefined;
  const daemon = await createDaemon({
    config: data.config,
    logging,
    scaler,
    allowUwsFallback: data.allowUwsFallback,
    onClusterRestart: () => post({ k: 'cluster-restart' }),
    worker: { renderMetrics, nodeId: data.nodeId, rateLimitCounters: data.rateLimitCounters, idempotencyPort: data.idempotencyPort },
  });
  serve(daemon);
  post({ k: 'ready' });
} catch (error) {
  post({ k: 'start-failed', message: errorText(error) });
  parent.close();
  data.hubPort?.close();
  data.idempotencyPort?.close();
}
