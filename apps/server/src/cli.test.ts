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
});
