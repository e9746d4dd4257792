import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from './load-config.js';

const dir = mkdtempSync(join(tmpdir(), 'realtime-yaml-errors-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let files = 0;
async function messageFor(text: string): Promise<string> {
  const file = join(dir, `c${files++}.yaml`);
  writeFileSync(file, text);
  const error = await loadConfig({ file, env: {} }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(Error);
  return (error as Error).message.replace(file, 'FILE');
}

/** What a YAML syntax error says, in words of its own (the package's messages quote the text): as it was, byte for byte. */
const messages: [string, string][] = [
  ['servers: {main: {port: 1}\n', 'at line 2, column 1 (in servers.*.port): bad indentation, or an unclosed { or ['],
  ['logging:\n\tenabled: true\n', 'at line 2, column 1 (in logging): a tab used as indentation (use spaces)'],
  ['redis:\n  password: "abc\n', 'at line 3, column 1 (in redis.password): a missing closing quote or bracket'],
  ['a: 1\n---\nb: 2\n', 'at line 2, column 1 (in *): more than one YAML document'],
  // Every key of the schema is named, however deep (those of @org/webhooks' entries too); other names are `*`.
  [
    'applications:\n  - id: 1\n    webhooks:\n      - url: https://h.example/\n        filter:\n          channel_name_starts_with: a\n          channel_name_starts_with: b\n',
    'at line 7, column 11 (in applications.0.webhooks.0.filter.channel_name_starts_with): a key given twice',
  ],
];

describe('YAML syntax errors', () => {
  it.each(messages)('%j: %s', async (text, where) => {
    expect(await messageFor(text)).toBe(`config file FILE is not valid YAML ${where}`);
  });
});
