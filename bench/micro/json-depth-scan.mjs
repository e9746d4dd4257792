#!/usr/bin/env node
// The nesting bound's cost per frame against JSON.parse itself, on frames of typical shapes.
// Run after building @org/protocol: node bench/micro/json-depth-scan.mjs   (about 10 s; medians of 5 runs of 50,000 calls)
import { nestsDeeperThan } from '../../packages/protocol/dist/index.js';

const cases = {
  '148 B subscribe': JSON.stringify({ event: 'pusher:subscribe', data: { channel: 'private-orders.12345', auth: `key:${'f'.repeat(64)}` } }),
  '823 B client event, 31 objects': JSON.stringify({ event: 'client-msg', channel: 'private-x', data: { items: Array.from({ length: 30 }, (_, i) => ({ id: i, name: `item${i}` })) } }),
  '4 KB string data': JSON.stringify({ event: 'client-msg', channel: 'private-x', data: JSON.stringify({ text: 'b'.repeat(4_000) }) }),
  '9 KB object': JSON.stringify({ text: 'a'.repeat(9_000), n: [1, 2, 3] }),
  '9 KB, 600 small arrays (full scan)': JSON.stringify({ rows: Array.from({ length: 600 }, (_, i) => [i, i + 1]) }),
};
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
let sink = 0;
for (const [name, text] of Object.entries(cases)) {
  const n = 50_000;
  const scan = [];
  const parse = [];
  for (let rep = 0; rep < 5; rep++) {
    let start = performance.now();
    for (let i = 0; i < n; i++) sink += nestsDeeperThan(text, 64) ? 1 : 0;
    scan.push(((performance.now() - start) / n) * 1e3);
    start = performance.now();
    for (let i = 0; i < n; i++) sink += JSON.parse(text) ? 1 : 0;
    parse.push(((performance.now() - start) / n) * 1e3);
  }
  console.log(`${name.padEnd(36)} bound ${median(scan).toFixed(2).padStart(6)} µs   JSON.parse ${median(parse).toFixed(2).padStart(6)} µs`);
}
if (sink < 0) console.log(sink);
