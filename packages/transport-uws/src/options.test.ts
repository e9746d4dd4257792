import { createApp, createStaticAppProvider, RealtimeServer } from '@org/protocol';
import { describe, expect, it } from 'vitest';
import { UwsOptionError } from './options.js';
import { createUwsServer, type UwsServerOptions } from './uws-server.js';

const server = new RealtimeServer({ apps: createStaticAppProvider([createApp({ id: '1', key: 'key', secret: 'secret' })]) });

describe('createUwsServer options', () => {
  it.each([
    [{ maxRequestSize: 0 }, 'invalid option maxRequestSize: maxRequestSize must be at least 1 byte'],
    [{ maxRequestHeadSize: 1.5 }, 'invalid option maxRequestHeadSize: maxRequestHeadSize must be an integer number of bytes'],
    [{ maxPayloadLength: 'big' }, 'invalid option maxPayloadLength: maxPayloadLength must be a number of bytes'],
    [{ port: 70_000 }, 'invalid option port: port must be 0 to 65535'],
    [{ onError: 'log' }, 'invalid option onError: onError must be a function'],
    [{ onRefused: 1 }, 'invalid option onRefused: onRefused must be a function'],
  ])('refuses %o, naming the option', async (bad, message) => {
    const attempt = createUwsServer({ server, ...(bad as Partial<UwsServerOptions>) });
    await expect(attempt).rejects.toThrow(UwsOptionError);
    await expect(attempt).rejects.toThrow(message);
  });

  it('refuses a missing engine', async () => {
    await expect(createUwsServer({} as UwsServerOptions)).rejects.toMatchObject({ code: 'INVALID_OPTION', message: expect.stringContaining('server must be a RealtimeServer') });
  });
});
