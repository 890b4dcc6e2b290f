import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigRefresher } from '../../../gateway/config-refresher';
import { Credentials } from '../../../gateway/credentials';
import { silentLogger } from '../../../gateway/log';
import { DataDir, parseStoreConfig, type StoreConfig } from '../../../gateway/state';
import { TestPeer } from './support/test-peer';

const KEY = '231d39c1d7cc1ab1aee224cd096db932';
let peer: TestPeer;
let dataDir: DataDir;
let refresher: ConfigRefresher | null = null;
const body = (sensors: unknown[], interval?: number) => ({ store_id: 'S0001', ...(interval ? { sampling_interval_seconds: interval } : {}), sensors });

beforeEach(async () => {
  peer = new TestPeer({ config: body([{ equipment_id: 1, serial_no: 'a4:c1:38:00:00:01', encryption_key: null }]) });
  await peer.start();
  dataDir = new DataDir(mkdtempSync(path.join(tmpdir(), 'gw-cfg-')));
  const res = await fetch(`${peer.url}/on-reco/v1/gateway/pair`, { method: 'POST', body: JSON.stringify({ gateway_info: 'GW-0001', pin_code: '123456' }) });
  const { gateway_token } = (await res.json()) as { gateway_token: string };
  dataDir.writePairing({ server: peer.url, gateway_info: 'GW-0001', gateway_token, store_id: 'S0001', paired_at: new Date().toISOString() });
});
afterEach(async () => {
  await refresher?.stop();
  await peer.stop();
});

async function start(refreshMs = 50) {
  const seen: StoreConfig[] = [];
  const credentials = new Credentials(dataDir, undefined, silentLogger());
  refresher = new ConfigRefresher({
    dataDir,
    credentials,
    logger: silentLogger(),
    refreshMs,
    requestTimeoutMs: 1000,
    backoff: { baseMs: 10, maxMs: 50 },
    onConfig: (c) => seen.push(c),
  });
  await refresher.start();
  return { seen, credentials };
}

const until = async (check: () => boolean) => {
  for (let i = 0; i < 300 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(check()).toBe(true);
};

describe('store configuration', () => {
  it('parses the /config answer: addresses normalised, keys as bytes, default interval 60 s, bad entries left out', () => {
    const { config, skipped } = parseStoreConfig(
      body([
        { equipment_id: 7, serial_no: 'a4-c1-38-00-00-01', encryption_key: KEY },
        { equipment_id: 8, serial_no: 'not-a-mac', encryption_key: null },
        { equipment_id: 9, serial_no: 'A4:C1:38:00:00:02', encryption_key: 'abc' },
        { equipment_id: 10, serial_no: 'A4:C1:38:00:00:01', encryption_key: null },
      ]),
    );
    expect(config.samplingIntervalSeconds).toBe(60);
    expect(config.sensors).toEqual([{ equipmentId: '7', serialNo: 'A4:C1:38:00:00:01', key: Uint8Array.from(Buffer.from(KEY, 'hex')) }]);
    expect(skipped.map((s) => s.reason)).toEqual([
      'serial_no "not-a-mac" is not a BLE address',
      'encryption_key is not 32 hex digits',
      'serial_no A4:C1:38:00:00:01 is listed twice',
    ]);
    expect(JSON.stringify(skipped)).not.toContain('"abc"'); // keys are not logged
  });

  it('fetches at start without a cache, saves it 0600, then refreshes and applies changes', async () => {
    const { seen } = await start();
    expect(seen).toHaveLength(1);
    expect(seen[0].sensors.map((s) => s.serialNo)).toEqual(['A4:C1:38:00:00:01']);
    expect(dataDir.readStoreConfig()?.config.sensors).toHaveLength(1);

    peer.options.config = body([{ equipment_id: 2, serial_no: 'A4:C1:38:00:00:02', encryption_key: KEY }], 300);
    await until(() => seen.length === 2);
    expect(seen[1]).toMatchObject({ samplingIntervalSeconds: 300, sensors: [{ serialNo: 'A4:C1:38:00:00:02' }] });
    expect(dataDir.readStoreConfig()?.config.samplingIntervalSeconds).toBe(300);
    const calls = peer.configRequests;
    await until(() => peer.configRequests > calls + 2);
    expect(seen).toHaveLength(2); // unchanged answers are not applied again
  });

  it('starts from the cached copy, and keeps it when the server is away or answers nonsense', async () => {
    dataDir.writeStoreConfig(body([{ equipment_id: 5, serial_no: 'A4:C1:38:00:00:05' }]), new Date());
    peer.options.config = { sensors: 'nope' };
    const { seen } = await start();
    expect(seen[0].sensors[0].serialNo).toBe('A4:C1:38:00:00:05');
    await until(() => /invalid configuration/.test(refresher!.status().lastError ?? ''));
    expect(seen).toHaveLength(1);
    expect(dataDir.readStoreConfig()?.config.sensors[0].serialNo).toBe('A4:C1:38:00:00:05');
  });

  it('marks the token revoked on 401', async () => {
    dataDir.writeStoreConfig(body([]), new Date());
    peer.revoked = true;
    const { credentials } = await start();
    await until(() => credentials.revoked);
    expect(refresher!.status().lastError).toMatch(/401|revoked/);
  });
});
