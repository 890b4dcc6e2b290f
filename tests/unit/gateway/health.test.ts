import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ReadingBuffer } from '../../../gateway/buffer';
import { adapterState, collectHealth } from '../../../gateway/health/collector';
import { ModemManagerSignal, NO_MODEM, ReplayModemBus, createModemSource, lteRssiFrom } from '../../../gateway/health/modem';
import { urgency } from '../../../gateway/health/reporter';
import { createLogger } from '../../../gateway/log';
import { HealthReportSchema, type HealthReport } from '../../../gateway/protocol';

const ANSWERS = path.resolve('tests/fixtures/gateway/modem-answers.json');
const silent = createLogger('silent');
const opened: ReadingBuffer[] = [];
afterEach(async () => {
  for (const b of opened.splice(0)) await b.stop();
});

describe('LTE signal from ModemManager (replayed D-Bus answers)', () => {
  it('asks a modem that is not polling to Setup once, then reads Lte.rssi; a gone ModemManager, 3G only or no Signal interface is null', async () => {
    const bus = ReplayModemBus.fromFile(ANSWERS);
    const modem = new ModemManagerSignal(bus);
    expect(await modem.lteRssi()).toBeNull(); // Rate 0: not set up, Lte empty
    expect(bus.setups).toEqual([{ path: '/org/freedesktop/ModemManager1/Modem/0', rate: 30 }]);
    expect(await modem.lteRssi()).toBe(-83);
    expect(await modem.lteRssi()).toBeNull();
    expect(modem.lastError).toContain('ServiceUnknown');
    expect(await modem.lteRssi()).toBeNull(); // Umts is not LTE: never made up from it
    expect(await modem.lteRssi()).toBeNull();
    expect(bus.setups).toHaveLength(1);
  });

  it('reads plain values as well as Variants, and refuses implausible ones', () => {
    const signal = (rssi: unknown) => ({ '/org/freedesktop/ModemManager1/Modem/0': { 'org.freedesktop.ModemManager1.Modem.Signal': { Rate: 30, Lte: { rssi } } } });
    expect(lteRssiFrom(signal(-92.6))).toBe(-93);
    expect(lteRssiFrom(signal(12))).toBeNull();
    expect(lteRssiFrom(signal(-1.7976931348623157e308))).toBeNull();
    expect(lteRssiFrom(signal('x'))).toBeNull();
  });

  it('chooses the source from the option', () => {
    expect(createModemSource('none')).toBe(NO_MODEM);
    expect(createModemSource(`replay:${ANSWERS}`).kind).toBe('replay');
    expect(createModemSource('modemmanager').kind).toBe('modemmanager');
  });
});

describe('collectHealth', () => {
  async function buffer(maxRows: number) {
    const b = new ReadingBuffer({ file: path.join(mkdtempSync(path.join(tmpdir(), 'onreco-health-')), 'buffer.db'), maxRows, warnRatio: 0.8, logger: silent });
    await b.start();
    opened.push(b);
    return b;
  }
  const reading = (i: number) => ({ serialNo: 'AA:BB:CC:DD:EE:01', measuredAt: `2026112410${String(i).padStart(2, '0')}00`, temperature: 4, error: false, battery: 90, rssi: -60 });

  it('reports buffer, oldest unsent, disk, adapter, sensors heard, LTE and losses in the protocol shape', async () => {
    const b = await buffer(10);
    b.insert([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11].map(reading));
    const now = Date.parse('2026-11-24T01:12:30Z');
    const report = await collectHealth({
      version: '0.2.0',
      startedAtMs: now - 3_600_500,
      buffer: b,
      dataDir: '/data',
      source: () => ({ kind: 'bluez', status: () => ({ state: 'scanning' }) }),
      sensorsLastSeen: () => [new Date(now - 30_000).toISOString(), new Date(now - 600_000).toISOString(), null],
      heardWindowMs: 120_000,
      modem: new ModemManagerSignal(new ReplayModemBus([{ '/org/freedesktop/ModemManager1/Modem/0': { 'org.freedesktop.ModemManager1.Modem.Signal': { Rate: 30, Lte: { rssi: -88 } } } }])),
      now: () => now,
      statfs: () => ({ bavail: 1000, blocks: 4000, bsize: 4096 }),
    });
    expect(report).toEqual({
      reported_at: '20261124101230',
      version: '0.2.0',
      uptime_seconds: 3600,
      buffer_depth: 10,
      buffer_capacity: 10,
      oldest_unsent_at: '20261124100200', // the two oldest were dropped to stay within 10
      disk_free_bytes: 4_096_000,
      disk_total_bytes: 16_384_000,
      ble_adapter: 'on',
      sensors_heard: 1,
      lte_rssi: -88,
      dropped_total: 2,
    });
    expect(HealthReportSchema.safeParse(report).success).toBe(true);
  });

  it('says null, not a made-up value, for what it cannot know', async () => {
    const b = await buffer(100);
    const report = await collectHealth({
      version: '0.2.0', startedAtMs: 0, buffer: b, dataDir: '/nonexistent/dir', source: () => null, sensorsLastSeen: () => [],
      heardWindowMs: 60_000, modem: NO_MODEM, now: () => 1000,
      statfs: () => { throw new Error('ENOENT'); },
    });
    expect(report).toMatchObject({ oldest_unsent_at: null, disk_free_bytes: null, disk_total_bytes: null, lte_rssi: null, ble_adapter: 'unknown', dropped_total: 0 });
  });

  it('maps the source state to the adapter state', () => {
    expect(adapterState({ kind: 'bluez', status: () => ({ state: 'retrying' }) })).toBe('off');
    expect(adapterState({ kind: 'replay', status: () => ({}) })).toBe('simulated');
  });
});

describe('what makes a report urgent', () => {
  const base: HealthReport = {
    reported_at: '20261124101230', version: '0.2.0', uptime_seconds: 1, buffer_depth: 0, buffer_capacity: 100, oldest_unsent_at: null,
    disk_free_bytes: 10e9, disk_total_bytes: 20e9, ble_adapter: 'on', sensors_heard: 3, lte_rssi: -70, dropped_total: 0,
  };
  it('changes with the buffer passing 50 % and 80 %, a nearly full disk, losses and the LTE level, not with every number', () => {
    const u = urgency(base);
    expect(urgency({ ...base, buffer_depth: 49, uptime_seconds: 99, lte_rssi: -74, sensors_heard: 1 })).toBe(u);
    expect(urgency({ ...base, buffer_depth: 50 })).not.toBe(u);
    expect(urgency({ ...base, buffer_depth: 80 })).not.toBe(urgency({ ...base, buffer_depth: 79 }));
    expect(urgency({ ...base, disk_free_bytes: 50e6 })).not.toBe(u);
    expect(urgency({ ...base, dropped_total: 1 })).not.toBe(u);
    expect(urgency({ ...base, lte_rssi: -80 })).not.toBe(u);
  });
});
