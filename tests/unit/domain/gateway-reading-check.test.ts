// The hand-checked path of a batch's readings (wellFormedReading) against ReadingSchema, the rule it
// stands in for: whatever it accepts, zod accepts with the same data, and every ordinary reading a
// gateway sends takes it (else it saves nothing).
import { describe, expect, it } from 'vitest';
import { checkReading, GatewayReadingSchema, wellFormedReading } from '~/domain/gateway-schemas';
import { seededRandom } from '../../support/seed';

const FIELD_VALUES: Record<string, unknown[]> = {
  serial_no: [undefined, null, 'AA:BB:CC:DD:EE:FF', 'aa:bb:cc:dd:ee:0f', 'AA:BB:CC:DD:EE', 'AA-BB-CC-DD-EE-FF', ' AA:BB:CC:DD:EE:FF', 'AA:BB:CC:DD:EE:FG', 12, ''],
  measured_at: [undefined, null, '20261124103000', '2026112410300', '202611241030000', '2026-11-24 10:30', '20261399999999', 20261124103000, ''],
  temperature: [undefined, null, 4.25, -60, 150, -60.01, 150.5, 0, '4.2', Number.NaN, Number.POSITIVE_INFINITY, true],
  error: [undefined, null, true, false, 'false', 0, 1],
  battery: [undefined, null, 0, 100, 55.5, 99.49, -1, 100.1, '90', Number.NaN],
  receive_sensitivity: [undefined, null, -127, 20, -70.5, -128, 21, '-70', Number.NaN],
};

function cases(count: number): unknown[] {
  const random = seededRandom(17); // the same cases on every run
  const out: unknown[] = [null, undefined, 'reading', 42, [], [{ serial_no: 'AA:BB:CC:DD:EE:FF' }], {}];
  for (let i = 0; i < count; i += 1) {
    const reading: Record<string, unknown> = {};
    for (const [field, values] of Object.entries(FIELD_VALUES)) {
      const value = values[Math.floor(random() * values.length)];
      if (value !== undefined || random() < 0.5) reading[field] = value;
    }
    if (random() < 0.1) reading.extra = 'ignored';
    out.push(reading);
  }
  return out;
}

describe('the hand-checked path of a reading', () => {
  it('accepts what ReadingSchema accepts and nothing else, with the same data', () => {
    let accepted = 0;
    for (const raw of cases(20_000)) {
      const fast = wellFormedReading(raw);
      const zod = GatewayReadingSchema.safeParse(raw);
      if ((fast !== undefined) !== zod.success) expect.fail(`the two disagree on ${JSON.stringify(raw)}`);
      if (fast === undefined) continue;
      accepted += 1;
      expect(fast).toEqual(zod.data);
    }
    expect(accepted).toBeGreaterThan(20);
  });

  it('takes every ordinary reading of a gateway, with or without error, battery and signal', () => {
    const readings = [
      { serial_no: 'AA:BB:CC:DD:EE:FF', measured_at: '20261124103000', temperature: 4.2, error: false, battery: 90, receive_sensitivity: -70 },
      { serial_no: 'aa:bb:cc:dd:ee:ff', measured_at: '20261124103000', temperature: null, error: true, battery: null, receive_sensitivity: null },
      { serial_no: 'AA:BB:CC:DD:EE:FF', measured_at: '20261124103000', temperature: -18.5 },
    ];
    for (const reading of readings) expect(wellFormedReading(reading)).toEqual(GatewayReadingSchema.parse(reading));
  });

  it('leaves a bad reading to ReadingSchema, whose reason the batch answer keeps', () => {
    const now = new Date('2026-11-24T01:30:00Z');
    const bad = { serial_no: 'AA:BB:CC:DD:EE:FF', measured_at: '20261124103000', temperature: 151, error: false };
    expect(wellFormedReading(bad)).toBeUndefined();
    expect(checkReading(bad, 3, now)).toEqual({ ok: false, index: 3, reason: 'temperature: Number must be less than or equal to 150' });
  });
});
