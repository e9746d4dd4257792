import { describe, expect, it } from 'vitest';
import { createMetrics, type MetricsOptions } from './create-metrics.js';
import { MetricsError } from './errors.js';

describe('createMetrics options', () => {
  it('leaves the process metrics out with processMetrics: false (a worker thread\'s registry)', async () => {
    const { body } = await createMetrics({ processMetrics: false }).render();
    expect(body).toContain('# TYPE realtime_connections gauge');
    expect(body).not.toMatch(/^realtime_process_/m);
    expect((await createMetrics().render()).body).toMatch(/^realtime_process_cpu_user_seconds_total /m);
  });

  it('refuses a bad option naming the key, with INVALID_OPTION', () => {
    const refusal = (() => {
      try {
        createMetrics({ processMetrics: 'no' } as unknown as MetricsOptions);
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    expect(refusal).toBeInstanceOf(MetricsError);
    expect(refusal).toMatchObject({ code: 'INVALID_OPTION', message: '@org/metrics: createMetrics: invalid option processMetrics: processMetrics must be true or false' });
    expect(() => createMetrics(null as unknown as MetricsOptions)).toThrow('@org/metrics: createMetrics: options must be an object');
  });
});
