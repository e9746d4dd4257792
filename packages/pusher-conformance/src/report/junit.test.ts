import { describe, expect, it } from 'vitest';
import type { CaseResult } from '../case.js';
import { formatJunit } from './junit.js';
import { summarise } from './summary.js';
import { formatResult, formatSummary } from './text.js';

const results: CaseResult[] = [
  { id: 'connection.ping-pong', group: 'connection', title: 'ping', docs: 'channels/x#ping', extension: false, status: 'pass', durationMs: 12 },
  { id: 'connection.established', group: 'connection', title: 'est', docs: 'channels/x#est', extension: false, status: 'fail', durationMs: 5_000, reason: 'got <"&\u0000">' },
  { id: 'webhooks.client-event', group: 'webhooks', title: 'hook', docs: 'channels/y', extension: false, status: 'skip', durationMs: 0, reason: 'no webhook receiver' },
];

describe('reports', () => {
  it('JUnit: one suite per group, failures and skips with their reasons, XML-escaped', () => {
    const xml = formatJunit(results, summarise(results, 5_012, false));
    expect(xml).toContain('<testsuites name="pusher-conformance" tests="3" failures="1" skipped="1" time="5.012">');
    expect(xml).toContain('<testsuite name="connection" tests="2" failures="1" skipped="0" errors="0" time="5.012">');
    expect(xml).toContain('<failure message="got &lt;&quot;&amp;&quot;&gt;">');
    expect(xml).toContain('<skipped message="no webhook receiver"/>');
    expect(xml).not.toContain('\u0000');
  });

  it('text: one line per case with its reason, and a summary where skips fail --strict', () => {
    expect(formatResult(results[1]!)).toBe('FAIL  5000 ms  connection.established: est\n       reason: got <"&\u0000">');
    expect(formatSummary(summarise(results, 5_012, false), false)).toBe('1/3 passed (33.3 %), 1 failed, 1 skipped in 5.0 s: does not conform');
    const onlySkipped = summarise([results[0]!, results[2]!], 10, true);
    expect(onlySkipped.ok).toBe(false);
    expect(summarise([results[0]!, results[2]!], 10, false).ok).toBe(true);
  });
});
