import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, envName, loadConfig } from '../../../gateway/config';

function configFile(content: unknown): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'gw-config-')), 'config.json');
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}

describe('gateway config precedence: defaults <- file <- environment <- flags', () => {
  it('uses the defaults when nothing is given', () => {
    const config = loadConfig({ env: {} });
    expect(config.dataDir).toBe('/var/lib/onreco-gateway');
    expect(config.source).toBe('bluez');
    expect(config.uploadBatchSize).toBe(5000);
    expect(config.bufferMaxRows).toBe(2_000_000);
    expect(config.exitWhenDrained).toBe(false);
  });

  it('lets the file override defaults, the environment override the file, and flags override both', () => {
    const file = configFile({ dataDir: '/from/file', uploadBatchSize: 100, bufferMaxRows: 500, logLevel: 'debug' });
    const env = { ONRECO_GATEWAY_UPLOAD_BATCH_SIZE: '200', ONRECO_GATEWAY_BUFFER_MAX_ROWS: '600' };
    const config = loadConfig({ file, env, flags: { bufferMaxRows: '700', source: undefined } });
    expect(config.dataDir).toBe('/from/file'); // file only
    expect(config.logLevel).toBe('debug'); // file only
    expect(config.uploadBatchSize).toBe(200); // env over file
    expect(config.bufferMaxRows).toBe(700); // flag over env over file
    expect(config.source).toBe('bluez'); // an absent flag does not clear anything
  });

  it('finds the file through ONRECO_GATEWAY_CONFIG', () => {
    const file = configFile({ source: 'simulate' });
    expect(loadConfig({ env: { ONRECO_GATEWAY_CONFIG: file } }).source).toBe('simulate');
  });

  it('derives environment names from the option names', () => {
    expect(envName('dataDir')).toBe('ONRECO_GATEWAY_DATA_DIR');
    expect(loadConfig({ env: { ONRECO_GATEWAY_DATA_DIR: '/srv/gw' } }).dataDir).toBe('/srv/gw');
    expect(loadConfig({ env: { ONRECO_GATEWAY_EXIT_WHEN_DRAINED: 'true' } }).exitWhenDrained).toBe(true);
    expect(loadConfig({ env: { ONRECO_GATEWAY_EXIT_WHEN_DRAINED: 'false' } }).exitWhenDrained).toBe(false);
  });

  it('says which option is wrong and where it came from', () => {
    expect(() => loadConfig({ env: { ONRECO_GATEWAY_UPLOAD_BATCH_SIZE: '9000' } })).toThrow(
      /uploadBatchSize \(from ONRECO_GATEWAY_UPLOAD_BATCH_SIZE\)/,
    );
    expect(() => loadConfig({ env: {}, flags: { source: 'radio' } })).toThrow(/source \(from --source\): must be bluez, simulate or replay:FILE/);
    expect(() => loadConfig({ file: configFile({ bufferMaxRows: 'lots' }), env: {} })).toThrow(/bufferMaxRows \(from .*config\.json\)/);
  });

  it('refuses unknown options and unreadable files', () => {
    expect(() => loadConfig({ file: configFile({ dataDri: '/typo' }), env: {} })).toThrow(/unknown option dataDri/);
    expect(() => loadConfig({ file: configFile('{not json'), env: {} })).toThrow(ConfigError);
    expect(() => loadConfig({ file: '/nonexistent/config.json', env: {} })).toThrow(/cannot read config file/);
  });
});
