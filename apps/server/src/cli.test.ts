import { describe, expect, it } from 'vitest';
import { parseCommand, UsageError } from './cli.js';

describe('parseCommand', () => {
  it('reads server options in both --key value and --key=value forms', () => {
    expect(parseCommand(['server', '--host', '127.0.0.1', '--port=6001', '--config', 'a.json'], {})).toEqual({
      name: 'server', host: '127.0.0.1', port: 6001, config: 'a.json', allowUwsFallback: false,
    });
  });

  it('defaults to server and takes the config file from REALTIME_CONFIG', () => {
    expect(parseCommand([], { REALTIME_CONFIG: 'x.yaml' })).toMatchObject({ name: 'server', config: 'x.yaml' });
  });

  it('knows restart_server and rejects unknown commands, options and bad ports', () => {
    expect(parseCommand(['restart_server'], {})).toEqual({ name: 'restart_server' });
    expect(parseCommand(['restart_server', '--config', 'c.json'], {})).toEqual({ name: 'restart_server', config: 'c.json' });
    expect(parseCommand(['restart_server', '--config=c.yaml'], {})).toEqual({ name: 'restart_server', config: 'c.yaml' });
    expect(parseCommand(['restart_server'], { REALTIME_CONFIG: 'env.json' })).toEqual({ name: 'restart_server', config: 'env.json' });
    expect(() => parseCommand(['restart_server', '--now'], {})).toThrow('restart_server takes only --config <file>, got --now');
    expect(() => parseCommand(['serve'], {})).toThrow(UsageError);
    expect(() => parseCommand(['server', '--verbose'], {})).toThrow('unknown option --verbose');
    expect(() => parseCommand(['server', '--port', '70000'], {})).toThrow('--port must be an integer from 0 to 65535, got 70000');
    expect(() => parseCommand(['server', '--port'], {})).toThrow('--port needs a value');
  });

  it('reads config check and config print, with the file from --config or REALTIME_CONFIG and print\'s --format', () => {
    expect(parseCommand(['config', 'check'], {})).toEqual({ name: 'config-check' });
    expect(parseCommand(['config', 'check', '--config', 'a.yaml'], {})).toEqual({ name: 'config-check', config: 'a.yaml' });
    expect(parseCommand(['config', 'check'], { REALTIME_CONFIG: 'env.json' })).toEqual({ name: 'config-check', config: 'env.json' });
    expect(parseCommand(['config', 'check', '--config=b.json'], { REALTIME_CONFIG: 'env.json' })).toEqual({ name: 'config-check', config: 'b.json' });
    expect(parseCommand(['config', 'print'], {})).toEqual({ name: 'config-print', format: 'yaml' });
    expect(parseCommand(['config', 'print', '--format', 'json', '--config', 'c.yaml'], {})).toEqual({ name: 'config-print', config: 'c.yaml', format: 'json' });
    expect(parseCommand(['config', 'print', '--format=yaml'], { REALTIME_CONFIG: 'e.yaml' })).toEqual({ name: 'config-print', config: 'e.yaml', format: 'yaml' });
  });

  it('refuses config without check or print, unknown options, missing values and other formats, with usage errors', () => {
    expect(() => parseCommand(['config'], {})).toThrow('config takes check or print, got nothing');
    expect(() => parseCommand(['config', 'validate'], {})).toThrow('config takes check or print, got "validate"');
    expect(() => parseCommand(['config', 'check', '--format', 'json'], {})).toThrow('unknown option --format for config check');
    expect(() => parseCommand(['config', 'print', '--port', '1'], {})).toThrow('unknown option --port for config print');
    expect(() => parseCommand(['config', 'print', 'extra'], {})).toThrow('unknown option extra for config print');
    expect(() => parseCommand(['config', 'check', '--config'], {})).toThrow('--config needs a value');
    expect(() => parseCommand(['config', 'check', '--config', '--format'], {})).toThrow('--config needs a value');
    expect(() => parseCommand(['config', 'print', '--format', 'toml'], {})).toThrow('--format must be json or yaml, got toml');
    expect(() => parseCommand(['config', 'print', '-f', 'json'], {})).toThrow(UsageError);
  });
});
