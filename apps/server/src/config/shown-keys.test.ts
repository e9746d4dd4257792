import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from './load-config.js';
import { formatPath, showKey } from './shown-keys.js';

const dir = mkdtempSync(join(tmpdir(), 'realtime-shown-keys-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('keys in error messages', () => {
  it('are shown when the schema knows them or they are word-like, else as `*`', () => {
    expect(['$schema', 'channel_name_starts_with', 'max_queue_bytes', 'nope', 'X-Custom', 'x9', 'a.b', 's3cr3t: v', 0, 12].map(showKey)).toEqual([
      '$schema',
      'channel_name_starts_with',
      'max_queue_bytes',
      'nope',
      'X-Custom',
      '*',
      '*',
      '*',
      '0',
      '12',
    ]);
    expect(formatPath([])).toBe('(root)');
    expect(formatPath(['applications', 0, 'webhooks', 1, 'headers', 'X-Custom'])).toBe('applications.0.webhooks.1.headers.X-Custom');
  });

  it('name a key of the schema that is not word-like ($schema), and hide an unknown one', async () => {
    const file = join(dir, 'c.yaml');
    writeFileSync(file, '$schema: 1\nx9: 2\n');
    await expect(loadConfig({ file, env: {} })).rejects.toThrow(/^invalid configuration:\n {2}- \$schema: Invalid input: expected string, received number\n {2}- \(root\): Unrecognized key: "\*"$/);
  });
});
