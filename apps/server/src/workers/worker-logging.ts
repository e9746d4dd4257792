import { silentLogger, type Logger } from '@org/protocol';
import type { Logging } from '../logging.js';

/** A worker thread's logging: every line says which worker wrote it (`worker: <index>`). */
export function workerLogging(logging: Logging, index: number): Logging {
  const cache = new Map<string, Logger>();
  const bindings = { worker: index };
  return {
    root: logging.root.child(bindings),
    setDebugApps: (appIds) => logging.setDebugApps(appIds),
    scope(name) {
      let logger = cache.get(name);
      if (!logger) {
        const inner = logging.scope(name);
        // A muted scope stays the shared silent logger; an enabled one is a pino child.
        logger = inner === silentLogger ? inner : (inner as unknown as { child(bindings: object): Logger }).child(bindings);
        cache.set(name, logger);
      }
      return logger;
    },
  };
}
