import { describe, expect, it } from 'vitest';
import { toCompactDateTime } from '~/domain/japan-time';
import { excursionTouches, readingAt } from '~/demo/chain/curves';
import { excursionSpan } from '~/demo/chain/incidents';
import { buildDemoPlan } from '~/demo/chain/plan';
import {
  BACKFILL_LIMIT_MINUTES, CYCLE_HOURS, DemoSimulation, minutesPerBatch, resumeMinute, type SimulatedIncident,
} from '~/demo/chain/simulation';

// The living demo's pure side (app/services/demo/simulation.ts): which stores keep reporting
// after the seed, what they send, and the incidents drawn hour by hour.

const SEEDED_AT = new Date('2026-10-14T01:00:20Z'); // 10:00 in Japan
const plan = buildDemoPlan({ now: SEEDED_AT, days: 0 });
const SEED = plan.nowMinute;
const simulation = new DemoSimulation(plan);
const FIRST_HOUR = Math.floor(SEED / 60);
const HOURS = 24 * CYCLE_HOURS;
const incidents = Array.from({ length: HOURS }, (_, i) => simulation.incidentsOfHour(FIRST_HOUR + i)).flat();
const startOf = (incident: SimulatedIncident) => (incident.kind === 'excursion' ? incident.excursion.start : incident.window.start);
const spanOf = (incident: SimulatedIncident): [number, number] =>
  incident.kind === 'excursion' ? excursionSpan(incident.excursion) : [incident.window.start, incident.window.end];
const simulatedSensors = simulation.stores.flatMap(({ store, sensors }) => sensors.map((sensor) => ({ store, sensor })));
const sensorOf = (sensorId: number) => simulatedSensors.find(({ sensor }) => sensor.sensorId === sensorId)!;

describe('the simulated demo gateways', () => {
  it('speak for the operating stores with a gateway, not for removed, waiting, unconfigured or silent ones', () => {
    const roles = new Set(simulation.stores.map(({ store }) => store.role));
    for (const role of ['removed', 'waiting', 'noState', 'gatewayDown'] as const) expect(roles.has(role), role).toBe(false);
    const operating = plan.stores.filter((s) => s.workingState === 1 && !s.gatewayDown);
    expect(simulation.stores.map(({ store }) => store.storeId)).toEqual(operating.map((s) => s.storeId));
    // The sensor the seed left silent stays silent; the rest of its store goes on.
    const silent = simulation.stores.find(({ store }) => store.role === 'silentSensor')!;
    expect(silent.sensors.map((s) => s.key)).not.toContain('dairy');
    expect(silent.sensors.length).toBe(silent.store.sensors.length - 1);
  });

  it('go on from the minute after the seed with the seeded curves, labelled HH:MM:00 Japan time', () => {
    const { store, sensors } = simulation.stores[0];
    const quiet = sensors.filter((sensor) => !incidents.some((i) => i.sensorId === sensor.sensorId && startOf(i) < SEED + 31));
    const readings = simulation.readings(quiet, SEED + 1, SEED + 30);
    expect(readings).toHaveLength(quiet.length * 30);
    for (const [i, reading] of readings.entries()) {
      const minute = SEED + 1 + Math.floor(i / quiet.length);
      const sensor = quiet[i % quiet.length];
      const expected = readingAt(sensor.curve, minute)!;
      expect(reading, `${store.storeName} ${sensor.name}`).toEqual({
        serial_no: sensor.serialNo, measured_at: toCompactDateTime(new Date(minute * 60_000)),
        temperature: expected.temperature, error: expected.error, battery: expected.battery, receive_sensitivity: expected.rssi,
      });
    }
    expect(readings[0].measured_at).toBe('20261014100100');
  });

  it('send the same readings whatever the days of history the seed wrote', () => {
    const other = new DemoSimulation(buildDemoPlan({ now: SEEDED_AT, days: 1 }));
    for (const [i, { sensors }] of simulation.stores.entries()) {
      expect(other.readings(other.stores[i].sensors, SEED + 1, SEED + 45)).toEqual(simulation.readings(sensors, SEED + 1, SEED + 45));
    }
  });

  it('draw the same incidents for an hour every time, and others for another hour', () => {
    const again = new DemoSimulation(plan);
    for (let hour = FIRST_HOUR + 1; hour < FIRST_HOUR + 30; hour++) expect(again.incidentsOfHour(hour)).toEqual(simulation.incidentsOfHour(hour));
    expect(simulation.incidentsOfHour(FIRST_HOUR + 5)).not.toEqual(simulation.incidentsOfHour(FIRST_HOUR + 6));
  });

  it('have a few incidents an hour across the chain, of every kind, all after the seed', () => {
    const perHour = incidents.length / HOURS;
    expect(perHour).toBeGreaterThan(2);
    expect(perHour).toBeLessThan(5);
    const excursions = incidents.flatMap((i) => (i.kind === 'excursion' ? [{ ...i.excursion, sensor: sensorOf(i.sensorId).sensor }] : []));
    expect(excursions.filter((ex) => ex.delta > 0 && ex.sensor.curve.base + ex.delta > ex.sensor.upperLimit!).length).toBeGreaterThan(incidents.length / 2);
    expect(excursions.some((ex) => ex.sensor.curve.base + ex.delta < ex.sensor.lowerLimit!)).toBe(true);
    const errors = incidents.filter((i) => i.kind === 'error');
    expect(errors.length / HOURS).toBeGreaterThan(0.1);
    expect(errors.length / HOURS).toBeLessThan(0.6);
    expect(incidents.every((i) => startOf(i) > SEED)).toBe(true);
  });

  it('never give a sensor two incidents at once, nor one while the seed’s own incident runs', () => {
    for (const sensorId of new Set(incidents.map((i) => i.sensorId))) {
      const own = incidents.filter((i) => i.sensorId === sensorId);
      const spans = own.map(spanOf).sort((a, b) => a[0] - b[0]);
      for (let i = 1; i < spans.length; i++) expect(spans[i][0]).toBeGreaterThan(spans[i - 1][1]);
      const { curve } = sensorOf(sensorId).sensor;
      for (const [from, to] of spans) expect(curve.excursions.some((ex) => excursionTouches(ex, from, to))).toBe(false);
    }
    // The seed's store user's case is above its limit until 10 hours after the seed: no second incident on it.
    const home = simulatedSensors.find(({ store, sensor }) => store.role === 'storeUserHome' && sensor.key === 'drink1')!;
    const seeded = home.sensor.curve.excursions.find((ex) => ex.end >= SEED)!;
    expect(incidents.filter((i) => i.sensorId === home.sensor.sensorId).every((i) => spanOf(i)[0] > excursionSpan(seeded)[1])).toBe(true);
  });

  it('show a door left open as readings above the upper limit, back on the seeded curve afterwards', () => {
    const door = incidents.find((i) => i.kind === 'excursion' && i.excursion.delta > 0 && i.excursion.end - i.excursion.start >= 30)!;
    const { sensor } = sensorOf(door.sensorId);
    const [from, to] = spanOf(door);
    const during = simulation.readings([sensor], from, from + 60);
    expect(Math.max(...during.map((r) => r.temperature ?? -Infinity))).toBeGreaterThan(sensor.upperLimit!);
    const after = simulation.readings([sensor], to + 1, to + 20);
    expect(after.map((r) => r.temperature)).toEqual(Array.from({ length: 20 }, (_, i) => readingAt(sensor.curve, to + 1 + i)!.temperature));
  });

  it('send a few minutes of error readings now and then', () => {
    const error = incidents.find((i) => i.kind === 'error')!;
    if (error.kind !== 'error') throw new Error('no error incident');
    const { sensor } = sensorOf(error.sensorId);
    const readings = simulation.readings([sensor], error.window.start - 1, error.window.end);
    expect(readings.map((r) => r.error)).toEqual([false, ...Array(error.window.end - error.window.start).fill(true), false]);
    expect(readings.filter((r) => r.error).every((r) => r.temperature === null)).toBe(true);
  });

  it('resume after the store’s newest stored reading, at most 24 hours back', () => {
    const now = SEED + 600;
    expect(resumeMinute(SEED, SEED, now)).toBe(SEED + 1);
    expect(resumeMinute(SEED + 590, SEED, now)).toBe(SEED + 591);
    expect(resumeMinute(null, SEED, now)).toBe(SEED + 1);
    expect(resumeMinute(SEED, SEED, SEED + 3 * 1440)).toBe(SEED + 3 * 1440 - BACKFILL_LIMIT_MINUTES + 1);
    expect(resumeMinute(now, SEED, now)).toBe(now + 1);
  });

  it('batch whole minutes of a store', () => {
    expect(minutesPerBatch(16, 2000)).toBe(125);
    expect(minutesPerBatch(3000, 2000)).toBe(1);
    expect(minutesPerBatch(0, 2000)).toBe(2000);
  });
});
