import { availableParallelism } from 'node:os';
import type { Config } from '../config/schema.js';

/** `workers` as a count: `auto` is one per core this process may use (`os.availableParallelism()`). */
export function workerCount(workers: Config['workers'], cores: () => number = availableParallelism): number {
  return workers === 'auto' ? Math.max(1, cores()) : workers;
}
