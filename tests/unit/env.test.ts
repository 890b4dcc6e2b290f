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
