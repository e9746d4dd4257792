import { describe, expect, it } from 'vitest';
import { FailureReporter, failureLogIntervalMs } from './failure-reporter.js';
import type { Logger } from './logger.js';

function recordingLogger() {
  const lines: { fields: Record<string, unknown>; message: string }[] = [];
  const record = (fields: Record<string, unknown>, message: string) => void lines.push({ fields, message });
  const logger = { error: record, warn: record, info: record, debug: record } as unknown as Logger;
  return { logger, lines };
}

describe('FailureReporter', () => {
  it('logs the first failure of a kind at once, then at most once a minute with the count suppressed meanwhile', () => {
    let now = 0;
    const { logger, lines } = recordingLogger();
    const reporter = new FailureReporter(logger, () => now);
    for (let i = 0; i < 1_000; i++) reporter.report('subscribe', new Error('boom'), { app: '1' });
    reporter.report('signin', new Error('other'), {});
    expect(lines.map((line) => line.fields['kind'])).toEqual(['subscribe', 'signin']);

    now += failureLogIntervalMs;
    reporter.report('subscribe', new Error('boom'), { app: '1' });
    expect(lines).toHaveLength(3);
    expect(lines[2]?.fields).toMatchObject({ kind: 'subscribe', app: '1', suppressed: 999 });
  });
});
