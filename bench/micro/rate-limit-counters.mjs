#!/usr/bin/env node
// The local rate limiter's cost per HTTP request: @org/rate-limits' shared-memory window counters
// (packages/rate-limits/src/window-counters.ts, run from its source) against rate-limiter-flexible's
// memory limiter, which `driver: local` used before. Run: node bench/micro/rate-limit-counters.mjs
// (about 15 s; medians of 5 runs of 500,000 consumes, half of them refused).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import ts from 'typescript';

const source = readFileSync(new URL('../../packages/rate-limits/src/window-counters.ts', import.meta.url), 'utf8');
const compiled = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
const { WindowCounters } = await import(`data:text/javascript,${encodeURIComponent(compiled)}`);
// rate-limiter-flexible is @org/rate-limits' dependency (for its Redis limits), not the bench's.
const { RateLimiterMemory } = createRequire(new URL('../../packages/rate-limits/package.json', import.meta.url))('rate-limiter-flexible');

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const n = 500_000;
const counters = [];
const flexible = [];
for (let rep = 0; rep < 5; rep++) {
  const shared = new WindowCounters(4);
  let start = performance.now();
  for (let i = 0; i < n; i++) shared.tryConsume(1, 1, n / 2);
  counters.push(((performance.now() - start) * 1e6) / n);

  const memory = new RateLimiterMemory({ points: n / 2, duration: 1 });
  start = performance.now();
  for (let i = 0; i < n; i++) {
    try {
      await memory.consume('app', 1);
    } catch {
      // refused: a RateLimiterRes
    }
  }
  flexible.push(((performance.now() - start) * 1e6) / n);
}
console.log(`WindowCounters.tryConsume: ${median(counters).toFixed(0)} ns per consume`);
console.log(`RateLimiterMemory.consume: ${median(flexible).toFixed(0)} ns per consume`);
