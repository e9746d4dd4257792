#!/usr/bin/env -S node --expose-gc
// What the authorized-connections deadline costs per connection: heap bytes of 1,000,000 ConnectionRecords
// (packages/protocol/src/connection.ts, run from its source) with the `authorizeBy` field and without it (the
// record before the field, made by cutting it out of the same source), the app option off and on.
// Run: node --expose-gc bench/micro/connection-record-memory.mjs   (about 20 s, 450 MB; medians of 3 runs, the order rotated)
import { readFileSync } from 'node:fs';
import ts from 'typescript';

if (typeof globalThis.gc !== 'function') throw new Error('run with node --expose-gc');

const source = readFileSync(new URL('../../packages/protocol/src/connection.ts', import.meta.url), 'utf8');
const load = async (text) => {
  const compiled = ts.transpileModule(text, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
  return (await import(`data:text/javascript,${encodeURIComponent(compiled)}`)).ConnectionRecord;
};
// The field's declaration (with its comment) and its assignment in the constructor.
const withoutField = source.replace(/\n {2}\/\*\*\n(?: {3}\*.*\n)+? {3}\*\/\n {2}authorizeBy: number;/, '').replace(/\n {4}this\.authorizeBy = .*;/, '');
if (withoutField === source || withoutField.includes('authorizeBy')) throw new Error('could not cut authorizeBy out of connection.ts: update this bench');
const variants = {
  'before the field': { Record: await load(withoutField), enableUserAuthentication: false },
  'with it, option off': { Record: await load(source), enableUserAuthentication: false },
  'with it, option on (30 s)': { Record: await load(source), enableUserAuthentication: true },
};

const n = 1_000_000;
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const heapUsed = () => {
  for (let i = 0; i < 3; i++) globalThis.gc();
  return process.memoryUsage().heapUsed;
};

const results = {};
const entries = Object.entries(variants);
// The order rotates between runs: the first allocation of a run pays for heap growth the others do not.
for (let rep = 0; rep < 3; rep++) {
  for (const [name, { Record, enableUserAuthentication }] of [...entries.slice(rep % entries.length), ...entries.slice(0, rep % entries.length)]) {
    const app = { id: '1', enableUserAuthentication, userAuthenticationTimeout: 30 };
    // Socket ids and handles are made first, so only the records themselves are measured.
    const ids = Array.from({ length: n }, (_, i) => `123456789.${i}`);
    const socket = {};
    const records = new Array(n);
    // Warmed up: V8 sizes a class's objects after its first few constructions (slack tracking).
    for (let i = 0; i < 100; i++) records[i] = new Record(ids[i], app, socket, 1_000 + i);
    records.fill(undefined);
    const before = heapUsed();
    for (let i = 0; i < n; i++) records[i] = new Record(ids[i], app, socket, 1_000 + i);
    const after = heapUsed();
    (results[name] ??= []).push((after - before) / n);
    if (records[n - 1].lastSeen !== 1_000 + n - 1) throw new Error('unreachable');
  }
}
for (const [name, bytes] of Object.entries(results)) console.log(`${name.padEnd(28)} ${median(bytes).toFixed(1)} heap bytes per ConnectionRecord`);
