import { sql } from 'kysely';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_DEFAULT_PASSWORD } from '~/domain/demo';
import { buildDemoPlan } from '~/demo/chain/plan';
import { DemoSimulation } from '~/demo/chain/simulation';
import { seedDemoChain } from '~/demo/seed.server';
import { demoSeededAt, DemoSimulator } from '~/demo/simulator.server';
import { revokeGatewayTokens } from '~/models/gateways.server';
import { forgetGatewayStore } from '~/services/gateway-tokens.server';
import { serveConsole } from '../../support/console';
import { resetDb, testDb } from '../../support/db';

// The living demo against a real console over HTTP: the demo chain seeded (latest readings only)
// two hours before the simulator's clock, which then pairs every store's gateway through the API,
// drains the two hours like a gateway back from an outage, and goes on minute by minute. The seed
// time is fixed so that the window holds a door left open and bursts of error readings.

const db = testDb();
const SEEDED_AT = new Date('2026-10-15T04:00:20Z'); // 13:00 in Japan
const MINUTE = 60_000;
const WINDOW = 120;
const seedMinute = Math.floor(SEEDED_AT.getTime() / MINUTE);
const simulation = new DemoSimulation(buildDemoPlan({ now: SEEDED_AT, days: 0 }));
const simulatedIds = simulation.stores.map(({ store }) => store.storeId);
let clock = new Date((seedMinute + WINDOW) * MINUTE + 1_000);
let server: Awaited<ReturnType<typeof serveConsole>>;
let simulator: DemoSimulator;

const rows = async <T>(query: ReturnType<typeof sql<T>>) => (await query.execute(db)).rows;
const countSince = (minute: number) =>
  rows(sql<{ store_id: string; n: number }>`
    select store_id, count(*)::int as n from measurements where measured_at > ${new Date(minute * MINUTE)}::timestamptz group by store_id`).then(
    (list) => new Map(list.map((r) => [r.store_id, r.n])),
  );
const sensorsOf = (storeId: string) => simulation.stores.find(({ store }) => store.storeId === storeId)!.sensors;

beforeAll(async () => {
  await resetDb();
  await seedDemoChain(db, { days: 0, password: DEMO_DEFAULT_PASSWORD, now: SEEDED_AT });
  server = await serveConsole(process.env.DATABASE_URL!);
  const seededAt = await demoSeededAt(db);
  simulator = new DemoSimulator({ server: server.base, password: DEMO_DEFAULT_PASSWORD, seededAt: seededAt!, log: pino({ level: 'silent' }), now: () => clock });
  await simulator.start();
}, 180_000);

afterAll(async () => {
  await server?.stop();
});

describe('the simulated demo gateways', () => {
  it('know the seed time from the demo companies', async () => {
    expect(await demoSeededAt(db)).toEqual(SEEDED_AT);
  });

  it('pair every simulated store through the API and send the minutes since the seed', async () => {
    const sent = await simulator.catchUp();
    const counts = await countSince(seedMinute);
    const expected = simulation.stores.map(({ store, sensors }) => [store.storeId, simulation.readings(sensors, seedMinute + 1, seedMinute + WINDOW).length]);
    expect([...counts.entries()].sort()).toEqual(expected.sort());
    expect(sent).toBe(expected.reduce((n, [, count]) => n + Number(count), 0));
    const tokens = await db.selectFrom('gateway_tokens').select('store_id').where('revoked_at', 'is', null).execute();
    expect(tokens.map((t) => t.store_id).sort()).toEqual([...simulatedIds].sort());
    const [contact] = await rows(sql<{ n: number }>`select count(*)::int as n from stores where last_gateway_contact_at > ${SEEDED_AT}::timestamptz`);
    expect(contact.n).toBe(simulatedIds.length);
  }, 120_000);

  it('store the seeded curves’ readings, joined at the seed minute', async () => {
    const { store, sensors } = simulation.stores[0];
    const stored = await rows(sql<{ serial_no: string; measured_at: Date; temperature: number | null }>`
      select s.serial_no, m.measured_at, m.temperature from measurements m join sensors s using (store_id, equipment_id)
      where m.store_id = ${store.storeId} and m.measured_at between ${new Date(seedMinute * MINUTE)}::timestamptz and ${new Date((seedMinute + 5) * MINUTE)}::timestamptz
      order by m.measured_at, s.serial_no`);
    const expected = sensors
      .flatMap((sensor) => Array.from({ length: 6 }, (_, i) => ({ sensor, minute: seedMinute + i })))
      .map(({ sensor, minute }) => ({ serial_no: sensor.serialNo, measured_at: new Date(minute * MINUTE), temperature: simulation.readings([sensor], minute, minute)[0]?.temperature }))
      .sort((a, b) => a.measured_at.getTime() - b.measured_at.getTime() || (a.serial_no < b.serial_no ? -1 : 1));
    expect(stored).toEqual(expected);
  });

  it('leave the silent sensor, the store whose gateway is down and the removed and waiting stores silent', async () => {
    const others = await rows(sql<{ store_name: string; n: number }>`
      select s.store_name, count(m.*)::int as n from stores s
      left join measurements m on m.store_id = s.store_id and m.measured_at > ${SEEDED_AT}::timestamptz
      where not (s.store_id = any(${simulatedIds}::text[])) group by s.store_name`);
    expect(others.map((s) => s.store_name).join()).toContain('那覇国際通り店');
    expect(others.length).toBeGreaterThanOrEqual(8);
    expect(others.filter((s) => s.n > 0)).toEqual([]);
    const [down] = await rows(sql<{ gateway_down: boolean }>`select gateway_down from stores where store_name like '%那覇国際通り店'`);
    expect(down.gateway_down).toBe(true);
    const home = simulation.stores.find(({ store }) => store.role === 'silentSensor')!.store;
    const dairy = home.sensors.find((s) => s.key === 'dairy')!;
    const [silent] = await rows(sql<{ n: number }>`
      select count(m.*)::int as n from sensors s join measurements m using (store_id, equipment_id)
      where s.store_id = ${home.storeId} and s.serial_no = ${dairy.serialNo} and m.measured_at > ${SEEDED_AT}::timestamptz`);
    expect(silent.n).toBe(0);
  });

  it('open an alert for a door left open, and a sensor error for error readings that recovers', async () => {
    const incidents = simulation.incidentsBetween(seedMinute + 1, seedMinute + WINDOW);
    const alerts = await rows(sql<{ store_id: string; equipment_name: string; alert_id: string; started_at: Date; recovered_at: Date | null; serial_no: string }>`
      select a.store_id, s.equipment_name, a.alert_id, a.started_at, a.recovered_at, s.serial_no
      from alert_history a join sensors s using (store_id, equipment_id) where a.started_at > ${SEEDED_AT}::timestamptz`);
    const serialOf = (sensorId: number) => simulation.stores.flatMap((s) => s.sensors).find((s) => s.sensorId === sensorId)!.serialNo;
    const doors = incidents.flatMap((i) => (i.kind === 'excursion' && i.excursion.delta > 0 ? [i] : []));
    expect(doors.length).toBeGreaterThan(0);
    const opened = doors.filter((door) =>
      alerts.some((a) => a.serial_no === serialOf(door.sensorId) && a.alert_id === 'OE00000001' && a.started_at.getTime() >= door.excursion.start * MINUTE),
    );
    expect(opened.length).toBeGreaterThan(0);
    const errors = incidents.flatMap((i) => (i.kind === 'error' && i.window.end <= seedMinute + WINDOW ? [i] : []));
    expect(errors.length).toBeGreaterThan(0);
    for (const error of errors) {
      const alert = alerts.find((a) => a.serial_no === serialOf(error.sensorId) && a.alert_id === 'OE00000004');
      expect(alert?.started_at).toEqual(new Date(error.window.start * MINUTE));
      expect(alert?.recovered_at).toEqual(new Date(error.window.end * MINUTE));
    }
  });

  it('send one more reading per sensor a minute later', async () => {
    const before = await countSince(seedMinute);
    clock = new Date(clock.getTime() + MINUTE);
    await simulator.catchUp();
    const after = await countSince(seedMinute);
    for (const storeId of simulatedIds) expect(after.get(storeId)! - before.get(storeId)!, storeId).toBe(sensorsOf(storeId).length);
  }, 60_000);

  it('pair again when the console revoked a gateway’s token', async () => {
    const storeId = simulatedIds[0];
    // As the console revokes (an exchange or a removal): the model's revocation, then this process's cache told.
    await revokeGatewayTokens(db, storeId, new Date());
    forgetGatewayStore(storeId);
    const before = await countSince(seedMinute);
    clock = new Date(clock.getTime() + MINUTE);
    await simulator.catchUp(); // the batch is refused (401): paired again, the minute goes out
    const after = await countSince(seedMinute);
    expect(after.get(storeId)! - before.get(storeId)!).toBe(sensorsOf(storeId).length);
    const tokens = await db.selectFrom('gateway_tokens').select('revoked_at').where('store_id', '=', storeId).execute();
    expect(tokens.filter((t) => t.revoked_at === null)).toHaveLength(1);
  }, 60_000);
});
