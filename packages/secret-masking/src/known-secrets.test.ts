import { describe, expect, it } from 'vitest';
import { headerSecrets, urlCredentials } from './known-secrets.js';

describe('urlCredentials', () => {
  it('takes the userinfo up to the last @, the password (also decoded) and every query value; the user name identifies', () => {
    expect(urlCredentials('http://bob:pr0xy-pa55@127.0.0.1:3128')).toEqual({ secrets: ['bob:pr0xy-pa55', 'pr0xy-pa55'], identifiers: ['bob'] });
    expect(urlCredentials('http://user:p/w@d@127.0.0.1:3128')).toEqual({ secrets: ['user:p/w@d', 'p/w@d'], identifiers: ['user'] });
    expect(urlCredentials('redis://u:pw@h:6390/1?password=Qx9&flag')).toEqual({ secrets: ['u:pw', 'pw', 'Qx9', 'flag'], identifiers: ['u'] });
    expect(urlCredentials('https://Zq9TokenAsUser@h.example/')).toEqual({ secrets: ['Zq9TokenAsUser'], identifiers: [] });
    expect(urlCredentials('user:HostPass77@10.0.0.1')).toEqual({ secrets: ['user:HostPass77', 'HostPass77'], identifiers: ['user'] });
  });

  it('finds nothing in a URL without credentials, or in what is not a string', () => {
    expect(urlCredentials('https://h.example/x')).toEqual({ secrets: [], identifiers: [] });
    expect(urlCredentials(42)).toEqual({ secrets: [], identifiers: [] });
  });
});

describe('headerSecrets', () => {
  it('takes credential header values, also without their scheme, and the parts of a Basic credential', () => {
    const basic = Buffer.from('deploy:Zq9BasicPw').toString('base64');
    expect(headerSecrets({ Authorization: `Basic ${basic}`, 'X-Api-Key': 'k3y9Q', Accept: 'application/json', Cookie: 'session=abc' })).toEqual({
      secrets: [`Basic ${basic}`, basic, 'deploy:Zq9BasicPw', 'Zq9BasicPw', 'k3y9Q', 'session=abc'],
      identifiers: ['deploy'],
    });
    expect(headerSecrets({ authorization: 'Bearer Zq9Token' }).secrets).toEqual(['Bearer Zq9Token', 'Zq9Token']);
  });

  it('takes the header names a caller adds', () => {
    expect(headerSecrets({ 'X-User-Id': 'u-123' }, (name) => /user-id/i.test(name)).secrets).toEqual(['u-123']);
  });
});
