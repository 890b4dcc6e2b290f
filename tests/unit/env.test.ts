import { describe, expect, it } from 'vitest';
import { PASSWORD_RULE } from '~/domain/auth-schemas';
import { DEMO_DEFAULT_PASSWORD, demoChainWanted } from '~/domain/demo';
import { parseEnv } from '~/env.server';

// The environment a newcomer starts with (README "Environment"): mail links follow PORT unless
// ONRECO_PUBLIC_URL says otherwise, and the demo password is one the product accepts.
describe('the public URL of mail links', () => {
  it('is the console on localhost at PORT when unset', () => {
    expect(parseEnv({}).ONRECO_PUBLIC_URL).toBe('http://localhost:3000');
    expect(parseEnv({ PORT: '3100' }).ONRECO_PUBLIC_URL).toBe('http://localhost:3100');
  });

  it('is ONRECO_PUBLIC_URL when set, whatever the port', () => {
    expect(parseEnv({ PORT: '3100', ONRECO_PUBLIC_URL: 'https://onreco.example.jp' }).ONRECO_PUBLIC_URL).toBe('https://onreco.example.jp');
  });
});

describe('the demo password', () => {
  it('passes the password rule by default, also in its 半角英数字 reading', () => {
    expect(DEMO_DEFAULT_PASSWORD).toMatch(PASSWORD_RULE);
    expect(DEMO_DEFAULT_PASSWORD).toMatch(/^[A-Za-z0-9]{12,}$/);
  });

  it('refuses an ONRECO_DEMO_PASSWORD the rule would refuse', () => {
    expect(() => parseEnv({ ONRECO_DEMO_PASSWORD: 'short' })).toThrow(/ONRECO_DEMO_PASSWORD: 12 文字以上/);
    expect(parseEnv({ ONRECO_DEMO_PASSWORD: 'another_demo_pass' }).ONRECO_DEMO_PASSWORD).toBe('another_demo_pass');
  });
});

describe('the demo chain', () => {
  it('is decided by ONRECO_DEMO when set, else by the embedded database; never by NODE_ENV', () => {
    expect(demoChainWanted(parseEnv({}).ONRECO_DEMO, true)).toBe(true);
    expect(demoChainWanted(parseEnv({}).ONRECO_DEMO, false)).toBe(false);
    expect(demoChainWanted(parseEnv({ ONRECO_DEMO: '1', NODE_ENV: 'production' }).ONRECO_DEMO, false)).toBe(true);
    expect(demoChainWanted(parseEnv({ ONRECO_DEMO: '0' }).ONRECO_DEMO, true)).toBe(false);
  });
});

// TRUST_PROXY (docs/decisions/213-slow-clients-and-proxies.md): what Express's `trust proxy` takes, except `true`.
describe('TRUST_PROXY', () => {
  it('trusts no proxy when unset, empty or false', () => {
    for (const value of [undefined, '', 'false', '0']) expect(parseEnv({ TRUST_PROXY: value }).TRUST_PROXY).toBe(false);
  });

  it('takes a hop count, or addresses, subnets and Express\'s names', () => {
    expect(parseEnv({ TRUST_PROXY: '2' }).TRUST_PROXY).toBe(2);
    expect(parseEnv({ TRUST_PROXY: 'loopback, 10.0.0.0/8,fd00::1' }).TRUST_PROXY).toEqual(['loopback', '10.0.0.0/8', 'fd00::1']);
  });

  it('refuses true (any client could choose its address) and what is not an address, naming it', () => {
    expect(() => parseEnv({ TRUST_PROXY: 'true' })).toThrow(/TRUST_PROXY: .*: true/);
    expect(() => parseEnv({ TRUST_PROXY: 'loopback,nginx.local' })).toThrow(/TRUST_PROXY: .*nginx\.local/);
    expect(() => parseEnv({ TRUST_PROXY: '10.0.0.0/33' })).toThrow(/TRUST_PROXY/);
  });
});
