import { describe, expect, it } from 'vitest';
import { decodeBthome } from '../../../../gateway/decoders/bthome';
import { CounterGuard } from '../../../../gateway/decoders/counter-guard';
import type { DecodedAdvertisement } from '../../../../gateway/decoders/types';
import { advertisement, hex } from './support';

const SENSOR = '54:48:E6:8F:80:A5';
const OTHER = 'A4:C1:38:AA:BB:CC';

// Real encrypted frames from bthome-ble tests/test_parser_v2.py (key 231d…b932, sender SENSOR).
function bthomeFrame(serviceData: string): DecodedAdvertisement {
  const decoded = decodeBthome(advertisement({ address: SENSOR, service: { fcd2: serviceData } }), { key: hex('231d39c1d7cc1ab1aee224cd096db932') });
  if (!decoded) throw new Error(`vector ${serviceData} does not decode`);
  return decoded;
}
const COUNTER_1122867 = bthomeFrame('41e445f3c9962b332211006c7c4519');
const COUNTER_1122868 = bthomeFrame('413e932cc7175f34221100553876af'); // test_increasing_encryption_counter
const COUNTER_1122866 = bthomeFrame('41723d3035fb88322211009e7414c0'); // test_decreasing_encryption_counter
const COUNTER_MAX = bthomeFrame('41ba0db07aeef6ffffffff21fd4600'); // test_reset_encryption_counter
const COUNTER_0 = bthomeFrame('41de40b50e676600000000d7cb95de');

const plainBthome = (counter?: number): DecodedAdvertisement => ({
  format: 'bthome-v2', temperature: 4.2, encrypted: false, ...(counter === undefined ? {} : { counter, counterBits: 8 }),
});
const pvvx = (counter: number): DecodedAdvertisement => ({ format: 'pvvx', temperature: 3.1, counter, counterBits: 8 });

/** Feeds frames in order and lists the verdicts, 'ok' for accepted ones. */
function run(guard: CounterGuard, frames: [string, DecodedAdvertisement][]) {
  return frames.map(([address, frame]) => {
    const verdict = guard.check(address, frame);
    return verdict.accept ? 'ok' : verdict.reason;
  });
}

describe('CounterGuard', () => {
  it('drops repeated frames with the same counter, and only those', () => {
    expect(run(new CounterGuard(), [
      [OTHER, pvvx(20)], [OTHER, pvvx(20)], [OTHER, pvvx(20)], [OTHER, pvvx(21)], [OTHER, pvvx(21)], [OTHER, pvvx(19)],
    ])).toEqual(['ok', 'duplicate', 'duplicate', 'ok', 'duplicate', 'ok']);
  });

  it('lets an 8-bit counter wrap and keeps counters apart per address and per format', () => {
    const mibeacon: DecodedAdvertisement = { format: 'mibeacon', battery: 80, counter: 255, counterBits: 8 };
    expect(run(new CounterGuard(), [[OTHER, pvvx(255)], [OTHER, pvvx(0)], [SENSOR, pvvx(0)], [OTHER, mibeacon]])).toEqual(['ok', 'ok', 'ok', 'ok']);
  });

  it('accepts every frame of a format without counter', () => {
    const govee: DecodedAdvertisement = { format: 'govee-h5075', temperature: 3.3, battery: 90 };
    expect(run(new CounterGuard(), [[OTHER, govee], [OTHER, govee]])).toEqual(['ok', 'ok']);
  });

  it('rejects an older encrypted BTHome counter as a replay and the same one as a duplicate (bthome-ble counter tests)', () => {
    expect(run(new CounterGuard(), [
      [SENSOR, COUNTER_1122867], [SENSOR, COUNTER_1122868], [SENSOR, COUNTER_1122868], [SENSOR, COUNTER_1122866], [SENSOR, COUNTER_1122867],
    ])).toEqual(['ok', 'ok', 'duplicate', 'replay', 'replay']);
  });

  it('does not move the counter on a rejected frame', () => {
    expect(run(new CounterGuard(), [[SENSOR, COUNTER_1122868], [SENSOR, COUNTER_1122866], [SENSOR, COUNTER_1122867]])).toEqual(['ok', 'replay', 'replay']);
  });

  it('follows the counter across 0xFFFFFFFF -> 0 (bthome-ble test_reset_encryption_counter)', () => {
    expect(run(new CounterGuard(), [[SENSOR, COUNTER_MAX], [SENSOR, COUNTER_0], [SENSOR, COUNTER_1122867]])).toEqual(['ok', 'ok', 'ok']);
  });

  it('lets a sensor restart from a low counter after a battery change, but not replay below where it restarted', () => {
    const restarted = (counter: number): DecodedAdvertisement => ({ ...COUNTER_1122867, counter });
    expect(run(new CounterGuard(), [
      [SENSOR, COUNTER_1122867], [SENSOR, restarted(5)], [SENSOR, restarted(3)], [SENSOR, restarted(6)], [SENSOR, restarted(1_000_000)],
    ])).toEqual(['ok', 'ok', 'replay', 'ok', 'ok']);
  });

  it('refuses a plain frame from a sensor heard encrypted before (downgrade), not from its neighbours', () => {
    expect(run(new CounterGuard(), [
      [SENSOR, plainBthome(1)], [SENSOR, COUNTER_1122867], [SENSOR, plainBthome(2)], [SENSOR, pvvx(7)], [OTHER, plainBthome(2)],
    ])).toEqual(['ok', 'ok', 'downgrade', 'downgrade', 'ok']);
  });

  it('refuses plain frames from a sensor configured with a key, even before any encrypted frame', () => {
    const guard = new CounterGuard({ hasKey: (address) => address === SENSOR });
    expect(run(guard, [[SENSOR, plainBthome()], [SENSOR, COUNTER_1122867], [OTHER, plainBthome()]])).toEqual(['downgrade', 'ok', 'ok']);
  });

  it('forgets the least recently heard sensor beyond maxSensors, and on request', () => {
    const guard = new CounterGuard({ maxSensors: 2 });
    expect(run(guard, [
      ['01:00:00:00:00:01', pvvx(1)], ['01:00:00:00:00:02', pvvx(1)], ['01:00:00:00:00:01', pvvx(2)], ['01:00:00:00:00:03', pvvx(1)],
      ['01:00:00:00:00:02', pvvx(1)], // forgotten: its duplicate passes again
      ['01:00:00:00:00:01', pvvx(2)], // forgotten too: 02 coming back pushed it out
    ])).toEqual(['ok', 'ok', 'ok', 'ok', 'ok', 'ok']);
    guard.forget('01:00:00:00:00:01');
    expect(run(guard, [['01:00:00:00:00:01', pvvx(2)]])).toEqual(['ok']);
  });
});
