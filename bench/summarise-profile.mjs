#!/usr/bin/env node
// Summarises a V8 .cpuprofile (from `node bench/run.mjs --profile`): self and
// inclusive time per function, as file:line, largest first.
// Usage: node bench/summarise-profile.mjs <file.cpuprofile> [self rows] [inclusive rows]
import { readFileSync } from 'node:fs';

const [file, selfRows = '25', inclusiveRows = '40'] = process.argv.slice(2);
if (!file) {
  process.stderr.write('usage: node bench/summarise-profile.mjs <file.cpuprofile> [self rows] [inclusive rows]\n');
  process.exit(64);
}
const profile = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parentOf = new Map();
for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);

// Time per sampled node, from the sample deltas.
const timeOf = new Map();
let total = 0;
profile.samples.forEach((id, index) => {
  const delta = profile.timeDeltas[index] ?? 0;
  timeOf.set(id, (timeOf.get(id) ?? 0) + delta);
  total += delta;
});

const label = (node) => {
  const frame = node.callFrame;
  const url = frame.url.replace(/^file:\/\//, '').replace(/.*\/(packages|apps|bench|node_modules)\//, '$1/');
  return `${frame.functionName || '(anonymous)'} ${url}:${frame.lineNumber + 1}`;
};
const self = new Map();
const inclusive = new Map();
for (const [id, time] of timeOf) {
  const key = label(byId.get(id));
  self.set(key, (self.get(key) ?? 0) + time);
  const seen = new Set();
  for (let current = id; current !== undefined; current = parentOf.get(current)) {
    const name = label(byId.get(current));
    if (seen.has(name)) continue; // recursion counts once
    seen.add(name);
    inclusive.set(name, (inclusive.get(name) ?? 0) + time);
  }
}
const top = (map, rows) =>
  [...map]
    .sort((a, b) => b[1] - a[1])
    .slice(0, Number(rows))
    .map(([name, time]) => `${((100 * time) / total).toFixed(1).padStart(5)}%  ${name}`)
    .join('\n');
process.stdout.write(`${(total / 1e6).toFixed(1)} s sampled\n\nSELF\n${top(self, selfRows)}\n\nINCLUSIVE\n${top(inclusive, inclusiveRows)}\n`);
