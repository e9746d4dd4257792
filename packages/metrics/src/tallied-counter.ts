import { Counter, type Registry } from 'prom-client';

/**
 * A counter for the hot paths (per message, per request): `add(key, by)` bumps
 * a plain number, and prom-client sees the totals only when scraped, through
 * `labelsOf(key)`. A labelled `inc` would hash its label object on every call.
 */
export function talliedCounter(registry: Registry, name: string, help: string, labelNames: readonly string[], labelsOf: (key: string) => Record<string, string>) {
  const totals = new Map<string, number>();
  new Counter({
    name,
    help,
    labelNames,
    registers: [registry],
    collect() {
      this.reset();
      for (const [key, total] of totals) this.inc(labelsOf(key), total);
    },
  });
  return (key: string, by = 1): void => void totals.set(key, (totals.get(key) ?? 0) + by);
}
