import { describe, expect, it } from 'vitest';
import { parseCommand, UsageError } from '../cli.js';
import { loadConfig } from '../config/load-config.js';
import { workerCount } from './worker-count.js';

describe('workers setting', () => {
  it('defaults to 1 and takes a positive integer or auto from the file, REALTIME_WORKERS or --workers', async () => {
    expect((await loadConfig({ env: {} })).config.workers).toBe(1);
    expect((await loadConfig({ env: { REALTIME_WORKERS: '3' } })).config.workers).toBe(3);
    expect((await loadConfig({ env: { REALTIME_WORKERS: 'auto' } })).config.workers).toBe('auto');
    expect((await loadConfig({ env: { REALTIME_WORKERS: '3' }, workers: 2 })).config.workers).toBe(2);
    expect(parseCommand(['server', '--workers', 'auto'], {})).toMatchObject({ workers: 'auto' });
    expect(parseCommand(['server', '--workers=4'], {})).toMatchObject({ workers: 4 });
  });

  it('refuses anything else, naming the key (and the variable that set it)', async () => {
    for (const value of ['0', '-1', '1.5', 'many', '1025']) {
      await expect(loadConfig({ env: { REALTIME_WORKERS: value } })).rejects.toThrow(/workers: workers must be a positive integer .*\(set by REALTIME_WORKERS\)/);
      expect(() => parseCommand(['server', '--workers', value], {})).toThrow(UsageError);
    }
    expect(() => parseCommand(['server', '--workers'], {})).toThrow('--workers needs a value');
  });

  it('counts auto as the cores this process may use', () => {
    expect(workerCount('auto', () => 6)).toBe(6);
    expect(workerCount(3, () => 6)).toBe(3);
  });
});
