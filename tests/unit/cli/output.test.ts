import { describe, expect, it } from 'vitest';
import { version } from '../../../package.json';
import { stampIso, withIsoStamps } from '../../../cli/output';
import { cliSandbox } from '../../support/cli';

// --json keeps the API's fields and adds an ISO 8601 twin beside each Japan-time stamp; the
// command knows its version and a wrong command line exits 2 (docs/cli.md).

describe('onreco --json stamps', () => {
  it('gives each YYYYMMDDHHmmss[SSS] stamp an ISO 8601 twin in Japan time', () => {
    expect(stampIso('20261128093005')).toBe('2026-11-28T09:30:05+09:00');
    expect(stampIso('20261128093005123')).toBe('2026-11-28T09:30:05.123+09:00');
    expect(new Date(stampIso('20260101000000')!).toISOString()).toBe('2025-12-31T15:00:00.000Z');
  });

  it('leaves strings that are not calendar times alone', () => {
    for (const text of ['20260230120000', '20261128250000', '2026112809300', 'S0001', '0312345678']) expect(stampIso(text)).toBeNull();
  });

  it('adds *_iso beside stamps at every depth and keeps the original fields', () => {
    const answer = { store_id: 'S0001', sort: 3, list: [{ occurred_at: '20261128093005123', tel_no: '0312345678', note: null }] };
    expect(withIsoStamps(answer)).toEqual({
      store_id: 'S0001',
      sort: 3,
      list: [{ occurred_at: '20261128093005123', occurred_at_iso: '2026-11-28T09:30:05.123+09:00', tel_no: '0312345678', note: null }],
    });
  });
});

describe('onreco command line', () => {
  it('prints its version with --version and -V', async () => {
    const sandbox = cliSandbox();
    for (const flag of ['--version', '-V']) {
      const run = await sandbox.run([flag]);
      expect(run.code).toBe(0);
      expect(run.stdout.trim()).toBe(version);
    }
  });

  it('exits 2 on usage errors, naming what is wrong', async () => {
    const sandbox = cliSandbox();
    for (const args of [['bogus'], ['stores', 'list', '--bogus'], ['alerts', 'list'], ['sensors', 'show', 'abc']]) {
      const run = await sandbox.run(args);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr, args.join(' ')).not.toBe('');
    }
  });
});
