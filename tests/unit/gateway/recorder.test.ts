// The aggregator component with the real decoders: store sensors only, keys, guard, buffer.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ReadingBuffer } from '../../../gateway/buffer';
import { silentLogger } from '../../../gateway/log';
import { Recorder, batteryPercentFromMv } from '../../../gateway/recorder';
import { BTHOME_UUID, RUUVI_COMPANY_ID, encodeBthome, encodeRuuvi5 } from '../../../gateway/sources/frames';
import type { StoreConfig } from '../../../gateway/state';

const PLAIN = 'A4:C1:38:00:00:01';
const SECRET = 'A4:C1:38:00:00:02';
const RUUVI = 'E7:2B:9F:00:00:03';
const STRANGER = 'A4:C1:38:99:99:99';
const KEY = Uint8Array.from(Buffer.from('231d39c1d7cc1ab1aee224cd096db932', 'hex'));
const T0 = Date.parse('2026-01-15T03:00:00Z'); // 12:00 Japan time

const config: StoreConfig = {
  storeId: 'S0001',
  samplingIntervalSeconds: 60,
  sensors: [
    { equipmentId: '1', serialNo: PLAIN, key: null },
    { equipmentId: '2', serialNo: SECRET, key: KEY },
    { equipmentId: '3', serialNo: RUUVI, key: null },
  ],
};

let buffer: ReadingBuffer;
let recorder: Recorder;
let clock = T0;

beforeEach(async () => {
  clock = T0;
  buffer = new ReadingBuffer({ file: path.join(mkdtempSync(path.join(tmpdir(), 'gw-rec-')), 'b.sqlite'), maxRows: 1000, warnRatio: 0.8, logger: silentLogger() });
  await buffer.start();
  recorder = new Recorder({ buffer, logger: silentLogger(), clock: () => clock, live: true, closeGraceMs: 2000 });
  recorder.setConfig(config);
  await recorder.start();
});
afterEach(async () => {
  await recorder.stop();
  await buffer.stop();
});

const bthome = (address: string, ts: number, packetId: number, temperature: number | null, key?: Uint8Array) =>
  recorder.handle({
    ts,
    adv: {
      address,
      rssi: -65,
      manufacturerData: {},
      serviceData: { [BTHOME_UUID]: encodeBthome({ packetId, battery: 77, temperature }, key ? { key, address, counter: packetId } : undefined) },
    },
  });

const ruuvi = (ts: number, sequence: number, temperature: number | null) =>
  recorder.handle({
    ts,
    adv: {
      address: RUUVI,
      rssi: -80,
      manufacturerData: {
        [RUUVI_COMPANY_ID]: encodeRuuvi5({ temperature, humidity: 50, pressurePa: 100000, acceleration: [0, 0, 1000], batteryMv: 3000, txPowerDbm: 4, movementCounter: 0, sequence, address: RUUVI }),
      },
      serviceData: {},
    },
  });

describe('recorder: decoded advertisements of store sensors -> readings in the buffer', () => {
  it('records one reading per store sensor per interval, decoding encrypted sensors with their key', () => {
    bthome(PLAIN, T0 + 1000, 1, 4.0);
    bthome(PLAIN, T0 + 21_000, 2, 4.4);
    bthome(PLAIN, T0 + 41_000, 3, 4.2);
    bthome(SECRET, T0 + 5000, 10, -18.5, KEY);
    ruuvi(T0 + 7000, 100, 21.125);
    bthome(STRANGER, T0 + 9000, 1, 30); // not the store's: ignored
    clock = T0 + 61_000;
    recorder.tick();
    expect(buffer.depth).toBe(0); // grace period: not closed yet
    clock = T0 + 62_000;
    recorder.tick();
    const rows = buffer.oldest(10);
    expect(rows).toEqual([
      { serialNo: PLAIN, measuredAt: '20260115120000', temperature: 4.2, error: false, battery: 77, rssi: -65 },
      { serialNo: SECRET, measuredAt: '20260115120000', temperature: -18.5, error: false, battery: 77, rssi: -65 },
      { serialNo: RUUVI, measuredAt: '20260115120000', temperature: 21.1, error: false, battery: 100, rssi: -80 },
    ]);
    expect(recorder.status().otherDevicesHeard).toBe(1);
  });

  it('counts a repeated frame once (same packet id)', () => {
    bthome(PLAIN, T0 + 1000, 7, 4.0);
    bthome(PLAIN, T0 + 2000, 7, 4.0);
    bthome(PLAIN, T0 + 3000, 7, 4.0);
    bthome(PLAIN, T0 + 4000, 8, 5.0);
    bthome(PLAIN, T0 + 5000, 9, 5.0);
    recorder.flush();
    // Without the guard the median of [4,4,4,5,5] would be 4.0.
    expect(buffer.oldest(1)[0].temperature).toBe(5);
    expect(recorder.status().sensors[0].dropped.duplicate).toBe(2);
  });

  it('refuses plain frames claiming to be an encrypted sensor, and frames that do not decrypt', () => {
    bthome(SECRET, T0 + 1000, 1, 99.99); // spoof: plain frame
    bthome(SECRET, T0 + 2000, 2, 50, Uint8Array.from(Buffer.alloc(16, 7))); // wrong key
    bthome(SECRET, T0 + 3000, 3, -20.0, KEY);
    recorder.flush();
    expect(buffer.oldest(10).map((r) => r.temperature)).toEqual([-20]);
    const seen = recorder.status().sensors.find((s) => s.serialNo === SECRET)!;
    expect(seen.dropped).toMatchObject({ downgrade: 1, undecodable: 1 });
  });

  it('records an error reading when the sensor reports errors only', () => {
    ruuvi(T0 + 1000, 1, null);
    ruuvi(T0 + 9000, 2, null);
    ruuvi(T0 + 61_000, 3, null);
    ruuvi(T0 + 62_000, 4, 3.3); // the next minute has a valid value
    recorder.flush();
    expect(buffer.oldest(10).map((r) => [r.measuredAt, r.temperature, r.error])).toEqual([
      ['20260115120000', null, true],
      ['20260115120100', 3.3, false],
    ]);
  });

  it('applies a new sensor list at once', () => {
    recorder.setConfig({ ...config, sensors: [{ equipmentId: '9', serialNo: STRANGER, key: null }] });
    bthome(PLAIN, T0 + 1000, 1, 4.0);
    bthome(STRANGER, T0 + 1000, 1, 30);
    recorder.flush();
    expect(buffer.oldest(10).map((r) => r.serialNo)).toEqual([STRANGER]);
  });

  it('records nothing while the system clock is not set', () => {
    bthome(PLAIN, Date.UTC(1970, 0, 1, 0, 5), 1, 4.0);
    recorder.flush();
    expect(buffer.depth).toBe(0);
    expect(recorder.status().clockNotSet).toBe(1);
  });

  it('records again after the clock went back (a checkpoint in the future is not honoured)', async () => {
    buffer.insert([{ serialNo: PLAIN, measuredAt: '20260115130000', temperature: 1, error: false, battery: null, rssi: null }], T0 + 3600_000);
    await recorder.stop();
    recorder = new Recorder({ buffer, logger: silentLogger(), clock: () => clock, live: true, closeGraceMs: 2000 });
    recorder.setConfig(config);
    await recorder.start();
    bthome(PLAIN, T0 + 1000, 1, 4.0);
    recorder.flush();
    expect(buffer.oldest(10).map((r) => r.measuredAt)).toEqual(['20260115120000', '20260115130000']);
  });

  it('turns a coin cell voltage into a battery percentage', () => {
    expect(batteryPercentFromMv(3000)).toBe(100);
    expect(batteryPercentFromMv(2600)).toBe(50);
    expect(batteryPercentFromMv(2280)).toBe(10);
    expect(batteryPercentFromMv(1900)).toBe(0);
  });
});
