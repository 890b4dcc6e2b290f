import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { decodeAdvertisement, explainAdvertisement } from '../../../gateway/decoders/index';
import { silentLogger } from '../../../gateway/log';
import { BluezDeviceTracker, shortUuid } from '../../../gateway/sources/bluez-signals';
import { CaptureLineError, formatCaptureLine, parseCaptureLine } from '../../../gateway/sources/capture';
import { ReplaySource } from '../../../gateway/sources/replay-source';
import { SimulateSource, profileFor, simulatedTemperature } from '../../../gateway/sources/simulate-source';
import type { HeardAdvertisement } from '../../../gateway/sources/types';

describe('capture lines', () => {
  const line = '{"ts":"2026-01-15T00:00:01.500Z","address":"e7:2b:9f:00:00:03","rssi":-70,"name":"Ruuvi","manufacturer_data":{"0499":"0512FC5394C37C0004FFFC040CAC364200CDCBB8334C884F"},"service_data":{"FCD2":"40"}}';

  it('parses into an advertisement (address upper case, keys lower case, bytes)', () => {
    const heard = parseCaptureLine(line);
    expect(heard.ts).toBe(Date.parse('2026-01-15T00:00:01.500Z'));
    expect(heard.adv.address).toBe('E7:2B:9F:00:00:03');
    expect(heard.adv.rssi).toBe(-70);
    expect(Object.keys(heard.adv.serviceData)).toEqual(['fcd2']);
    expect(decodeAdvertisement({ ...heard.adv, serviceData: {} })).toMatchObject({ format: 'ruuvi-5', temperature: 24.3 });
  });

  it('round-trips', () => {
    const heard = parseCaptureLine(line);
    expect(parseCaptureLine(formatCaptureLine(heard))).toEqual(heard);
  });

  it('says what is wrong with a bad line', () => {
    expect(() => parseCaptureLine('{')).toThrow(CaptureLineError);
    expect(() => parseCaptureLine('{"ts":"yesterday","address":"AA:BB:CC:DD:EE:FF"}')).toThrow(/ts/);
    expect(() => parseCaptureLine('{"ts":"2026-01-15T00:00:00Z","address":"nope"}')).toThrow(/not a BLE address/);
    expect(() => parseCaptureLine('{"ts":"2026-01-15T00:00:00Z","address":"AA:BB:CC:DD:EE:FF","service_data":{"fcd2":"4"}}')).toThrow(/hex/);
  });
});

describe('replay source', () => {
  it('plays every line in order with its own time, skips bad lines, reads .gz, and ends', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'gw-replay-'));
    const lines = [
      '{"ts":"2026-01-15T00:00:01Z","address":"AA:BB:CC:DD:EE:01","service_data":{"fcd2":"40"}}',
      'garbage',
      '',
      '{"ts":"2026-01-15T00:00:02Z","address":"AA:BB:CC:DD:EE:02"}',
    ].join('\n');
    for (const file of [path.join(dir, 'c.jsonl'), path.join(dir, 'c.jsonl.gz')]) {
      writeFileSync(file, file.endsWith('.gz') ? gzipSync(lines) : lines);
      const heard: HeardAdvertisement[] = [];
      let ended!: () => void;
      const done = new Promise<void>((r) => (ended = r));
      const source = new ReplaySource(file, { onAdvertisement: (h) => heard.push(h), onEnd: () => ended() }, silentLogger());
      await source.start();
      await done;
      expect(heard.map((h) => [h.adv.address, new Date(h.ts).toISOString()])).toEqual([
        ['AA:BB:CC:DD:EE:01', '2026-01-15T00:00:01.000Z'],
        ['AA:BB:CC:DD:EE:02', '2026-01-15T00:00:02.000Z'],
      ]);
      expect(source.now()).toBe(Date.parse('2026-01-15T00:00:02Z'));
      expect(source.status()).toMatchObject({ advertisements: 2, badLines: 1, finished: true });
      await source.stop();
    }
  });

  it('fails to start on a missing file', async () => {
    const source = new ReplaySource('/nonexistent.jsonl', { onAdvertisement: () => undefined }, silentLogger());
    await expect(source.start()).rejects.toThrow(/ENOENT/);
  });
});

describe('simulate source', () => {
  it('advertises every configured sensor as real BTHome v2 frames, encrypted with its key', async () => {
    const key = Uint8Array.from(Buffer.alloc(16, 0x42));
    const sensors = [
      { equipmentId: '1', serialNo: 'A4:C1:38:00:00:01', key: null },
      { equipmentId: '2', serialNo: 'A4:C1:38:00:00:02', key },
    ];
    let real = Date.parse('2026-01-15T00:00:00Z');
    const heard: HeardAdvertisement[] = [];
    const source = new SimulateSource({ sensors: () => sensors, speed: 60, realNow: () => real }, { onAdvertisement: (h) => heard.push(h) }, silentLogger());
    await source.start();
    real += 10_000; // 10 real seconds = 10 simulated minutes
    source.tick();
    await source.stop();
    expect(source.now() - Date.parse('2026-01-15T00:00:00Z')).toBe(600_000);
    for (const sensor of sensors) {
      const mine = heard.filter((h) => h.adv.address === sensor.serialNo);
      expect(mine.length).toBeGreaterThan(100); // every ~5 simulated seconds
      const decoded = mine.map((h) => decodeAdvertisement(h.adv, sensor.key ? { key: sensor.key } : {}));
      expect(decoded.every((d) => d?.format === 'bthome-v2' && d.encrypted === Boolean(sensor.key))).toBe(true);
      expect(decodeAdvertisement(mine[0].adv, {})?.temperature ?? null).toBe(sensor.key ? null : decoded[0]!.temperature);
    }
  });

  it('draws realistic furniture curves', () => {
    const day = Date.parse('2026-01-15T00:00:00Z');
    const range = (serial: string) => {
      const profile = profileFor(serial);
      const values = Array.from({ length: 24 * 60 }, (_, m) => simulatedTemperature(profile, day + m * 60_000)).filter((v): v is number => v !== null);
      return { kind: profile.kind, min: Math.min(...values), max: Math.max(...values) };
    };
    const seen = new Map<string, { min: number; max: number }>();
    for (let i = 0; i < 40; i++) {
      const r = range(`A4:C1:38:00:01:${i.toString(16).padStart(2, '0')}`);
      seen.set(r.kind, r);
      if (r.kind === 'chilled') expect([r.min > -1, r.max < 16]).toEqual([true, true]);
      if (r.kind === 'freezer') expect([r.min > -25, r.min < -15]).toEqual([true, true]);
      if (r.kind === 'hot') expect(r.min).toBeGreaterThan(50);
    }
    expect([...seen.keys()].sort()).toEqual(['ambient', 'chilled', 'freezer', 'hot']);
  });
});

describe('BlueZ signals -> advertisements', () => {
  const v = (signature: string, value: unknown) => ({ signature, value });
  const path1 = '/org/bluez/hci0/dev_A4_C1_38_00_00_01';

  it('turns PropertiesChanged with ServiceData / ManufacturerData into one advertisement each', () => {
    const tracker = new BluezDeviceTracker('/org/bluez/hci0');
    tracker.seed({ [path1]: { 'org.bluez.Device1': { Address: v('s', 'A4:C1:38:00:00:01'), Name: v('s', 'ATC_0001'), RSSI: v('n', -60) } } });
    // RSSI alone: no advertisement, but remembered.
    expect(tracker.propertiesChanged(path1, 'org.bluez.Device1', { RSSI: v('n', -71) })).toBeNull();
    const adv = tracker.propertiesChanged(path1, 'org.bluez.Device1', {
      ServiceData: v('a{sv}', { '0000fcd2-0000-1000-8000-00805f9b34fb': v('ay', Buffer.from('4002c409', 'hex')) }),
    });
    expect(adv).toEqual({ address: 'A4:C1:38:00:00:01', rssi: -71, name: 'ATC_0001', manufacturerData: {}, serviceData: { fcd2: Uint8Array.from([0x40, 0x02, 0xc4, 0x09]) } });
    expect(decodeAdvertisement(adv!)).toMatchObject({ format: 'bthome-v2', temperature: 25 });

    const ruuvi = tracker.propertiesChanged('/org/bluez/hci0/dev_E7_2B_9F_00_00_03', 'org.bluez.Device1', {
      RSSI: v('n', -80),
      ManufacturerData: v('a{qv}', { 1177: v('ay', Buffer.from('0512FC5394C37C0004FFFC040CAC364200CDCBB8334C884F', 'hex')) }),
    });
    expect(ruuvi?.address).toBe('E7:2B:9F:00:00:03');
    expect(Object.keys(ruuvi!.manufacturerData)).toEqual(['0499']);
    expect(decodeAdvertisement(ruuvi!)).toMatchObject({ format: 'ruuvi-5', temperature: 24.3 });
  });

  it('reads the first advertisement of a new device from InterfacesAdded, and ignores other adapters and interfaces', () => {
    const tracker = new BluezDeviceTracker('/org/bluez/hci0');
    const props = { Address: v('s', 'A4:C1:38:00:00:01'), RSSI: v('n', -50), ServiceData: v('a{sv}', { '0000fcd2-0000-1000-8000-00805f9b34fb': v('ay', [0x40]) }) };
    expect(tracker.interfacesAdded(path1, { 'org.bluez.Device1': props })?.rssi).toBe(-50);
    expect(tracker.interfacesAdded('/org/bluez/hci1/dev_A4_C1_38_00_00_01', { 'org.bluez.Device1': props })).toBeNull();
    expect(tracker.propertiesChanged(path1, 'org.bluez.MediaControl1', props)).toBeNull();
    tracker.interfacesRemoved(path1, ['org.bluez.Device1']);
    expect(tracker.size).toBe(0);
  });

  it("names the newest manufacturer-data entry when BlueZ keeps older ones (Inkbird's reading is in the key)", () => {
    const tracker = new BluezDeviceTracker('/org/bluez/hci0');
    const ink = '/org/bluez/hci0/dev_49_42_08_00_00_01';
    const md = (entries: Record<number, string>) => ({
      Name: v('s', 'tps'),
      ManufacturerData: v('a{qv}', Object.fromEntries(Object.entries(entries).map(([k, hex]) => [k, v('ay', Buffer.from(hex, 'hex'))]))),
    });
    const e0898 = { 0x0898: '00000007bc0008' };
    const e08c0 = { 0x08c0: '00000026710008' };
    const e0848 = { 0x0848: '000000c66e0d06' };
    // First sight of a device with two entries: which is current is unknown, and the decoder waits.
    const first = tracker.interfacesAdded(ink, { 'org.bluez.Device1': { Address: v('s', '49:42:08:00:00:01'), ...md({ ...e0898, ...e08c0 }) } });
    expect(first?.newestManufacturerKey).toBeUndefined();
    expect(explainAdvertisement(first!)).toMatchObject({ ok: false, reason: expect.stringMatching(/2 valid Inkbird frames at once/) });
    // A new reading arrives as a third entry: that one is read.
    const next = tracker.propertiesChanged(ink, 'org.bluez.Device1', md({ ...e0898, ...e08c0, ...e0848 }));
    expect(next?.newestManufacturerKey).toBe('0848');
    expect(decodeAdvertisement(next!)).toMatchObject({ format: 'inkbird-ibs-th2', temperature: 21.2 });
    // The same dict again (a repeat): still the same reading.
    expect(decodeAdvertisement(tracker.propertiesChanged(ink, 'org.bluez.Device1', md({ ...e0898, ...e08c0, ...e0848 }))!)).toMatchObject({ temperature: 21.2 });
    // An old key comes back with a changed value (BlueZ replaces it in place): that one is current.
    const back = tracker.propertiesChanged(ink, 'org.bluez.Device1', md({ ...e0898, 0x08c0: '00000026710008'.replace(/08$/, '09'), ...e0848 }));
    expect(back?.newestManufacturerKey).toBe('08c0');
  });

  it('keeps non-SIG UUIDs whole', () => {
    expect(shortUuid('0000FE95-0000-1000-8000-00805F9B34FB')).toBe('fe95');
    expect(shortUuid('6e400001-b5a3-f393-e0a9-e50e24dcca9e')).toBe('6e400001-b5a3-f393-e0a9-e50e24dcca9e');
  });

  it('stays bounded with many transient devices', () => {
    const tracker = new BluezDeviceTracker('/org/bluez/hci0', 100);
    for (let i = 0; i < 1000; i++) {
      const hex = i.toString(16).padStart(4, '0').toUpperCase();
      tracker.propertiesChanged(`/org/bluez/hci0/dev_11_22_33_44_${hex.slice(0, 2)}_${hex.slice(2)}`, 'org.bluez.Device1', { RSSI: v('n', -90) });
    }
    expect(tracker.size).toBe(100);
  });
});
