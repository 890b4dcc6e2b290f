import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_DEFAULT_PASSWORD, DEMO_LOGINS } from '~/domain/demo';
import { action as tokenAction } from '~/routes/on-reco+/token';
import { loader as storeListLoader } from '~/routes/on-reco+/v1.store_list';
import { readingAt } from '~/demo/chain/curves';
import { buildDemoPlan } from '~/demo/chain/plan';
import { type DemoSummary, isDatabaseEmpty, seedDemoChain } from '~/demo/seed.server';
import { bucketDifferences } from '../../support/buckets';
import { resetDb, testDb } from '../../support/db';
import { call, get, postForm } from '../../support/requests';

// The demo chain as a new user of the console meets it: seeded once (one day of readings) into
// the suite's database, then looked at the way the screens look at it.

const db = testDb();
const NOW = new Date('2026-11-25T05:37:20Z'); // 14:37 in Japan
const HOUR = 3_600_000;
let summary: DemoSummary;

beforeAll(async () => {
  await resetDb();
  expect(await isDatabaseEmpty(db)).toBe(true);
  summary = await seedDemoChain(db, { days: 1, password: DEMO_DEFAULT_PASSWORD, now: NOW });
}, 120_000);

const rows = async <T>(query: ReturnType<typeof sql<T>>) => (await query.execute(db)).rows;

async function logIn(loginId: string) {
  const response = await call(tokenAction, postForm('/on-reco/token', { grant_type: 'password', username: loginId, password: DEMO_DEFAULT_PASSWORD }));
  expect(response.status, loginId).toBe(200);
  return (await response.json()) as { access_token: string; authority: number };
}

describe('the demo chain', () => {
  it('is no longer empty and reports what it wrote', async () => {
    expect(await isDatabaseEmpty(db)).toBe(false);
    const [counts] = await rows(sql<{ stores: number; sensors: number; measurements: number; alerts: number; users: number }>`
      select (select count(*)::int from stores) as stores, (select count(*)::int from sensors) as sensors,
        (select count(*)::int from measurements) as measurements, (select count(*)::int from alert_history) as alerts,
        (select count(*)::int from users) as users`);
    expect(summary).toMatchObject({ companies: 2, ...counts });
    expect(summary.measurements).toBeGreaterThan(1_000_000);
  });

  it('has two companies and 60+ stores across many prefectures, with plausible master data', async () => {
    const stores = await db.selectFrom('stores').selectAll().execute();
    expect(stores.length).toBeGreaterThanOrEqual(60);
    expect(new Set(stores.map((s) => s.company_id)).size).toBe(2);
    expect(new Set(stores.map((s) => s.prefecture_id)).size).toBeGreaterThanOrEqual(25);
    expect(new Set(stores.map((s) => s.storegroup_id)).size).toBeGreaterThanOrEqual(8);
    for (const s of stores) {
      expect(s.store_id).toMatch(/^[A-Za-z0-9]{1,20}$/);
      expect(s.store_no).toMatch(/^\d{1,20}$/);
      expect(s.tel_no).toMatch(/^\d{10,11}$/);
      expect(s.store_name).not.toMatch(/ローソン|セブン|ファミリーマート|イオン|イトーヨーカドー/);
    }
    expect(stores.filter((s) => s.closing_date !== null).length).toBeGreaterThanOrEqual(2);
    const gateways = stores.filter((s) => s.gateway_info !== null);
    expect(gateways.every((s) => s.gateway_info!.startsWith('GW-'))).toBe(true);
  });

  it('has every working state: mostly operating, some waiting, two removed, one without state', async () => {
    const states = await rows(sql<{ working_state: number | null; n: number }>`select working_state, count(*)::int as n from stores group by 1`);
    const count = (state: number | null) => states.find((s) => s.working_state === state)?.n ?? 0;
    expect(count(1)).toBeGreaterThanOrEqual(50);
    expect(count(0)).toBeGreaterThanOrEqual(2);
    expect(count(2)).toBe(2);
    expect(count(null)).toBe(1);
    // Waiting stores have never been heard from.
    const [waiting] = await rows(sql<{ readings: number; contacts: number }>`
      select count(m.*)::int as readings, count(s.last_gateway_contact_at)::int as contacts
      from stores s left join measurements m on m.store_id = s.store_id where s.working_state = 0`);
    expect(waiting).toEqual({ readings: 0, contacts: 0 });
  });

  it('shows removed stores as closed, with readings that end at their removal', async () => {
    const removed = await rows(sql<{ store_status: number; closing_date: string; last: Date; contact: Date }>`
      select s.store_status, s.closing_date, max(m.measured_at) as last, s.last_gateway_contact_at as contact
      from stores s join measurements m on m.store_id = s.store_id where s.working_state = 2 group by s.store_id`);
    expect(removed).toHaveLength(2);
    for (const store of removed) {
      expect(store.store_status).toBe(1);
      expect(store.last.getTime()).toBe(store.contact.getTime());
      expect(store.last.getTime()).toBeLessThan(NOW.getTime() - 24 * HOUR);
    }
  });

  it('uses all 22 icon kinds, 6 to 20 sensors a store, unique BLE addresses and names that fit', async () => {
    const sensors = await db.selectFrom('sensors').selectAll().execute();
    expect(new Set(sensors.map((s) => s.icon_kind)).size).toBe(22);
    const perStore = new Map<string, typeof sensors>();
    for (const s of sensors) perStore.set(s.store_id, [...(perStore.get(s.store_id) ?? []), s]);
    for (const list of perStore.values()) {
      expect(list.length).toBeGreaterThanOrEqual(6);
      expect(list.length).toBeLessThanOrEqual(20);
      expect(new Set(list.map((s) => s.serial_no)).size).toBe(list.length);
    }
    for (const s of sensors) {
      expect(s.serial_no).toMatch(/^([0-9A-F]{2}:){5}[0-9A-F]{2}$/);
      expect(s.equipment_name.length).toBeLessThanOrEqual(30);
      expect(s.model_id).toBeGreaterThanOrEqual(1);
      expect(s.measure_target_equipment_kind_id).toBeGreaterThanOrEqual(1);
      if (s.encryption_key) expect(s.encryption_key).toMatch(/^[0-9a-f]{32}$/);
    }
    const freezers = sensors.filter((s) => s.lower_limit === -25);
    expect(freezers.length).toBeGreaterThan(50);
    expect(freezers.every((s) => s.def_time.length >= 3 && s.def_time.length <= 4)).toBe(true);
    expect(sensors.filter((s) => s.icon_kind === 12).every((s) => s.lower_limit === 55 && s.upper_limit === 60)).toBe(true);
    expect(sensors.some((s) => s.disp_flg === 0)).toBe(true);
    expect(sensors.some((s) => s.comment_required === 1)).toBe(true);
  });

  it('keeps each sensor’s state equal to its last reading', async () => {
    const [check] = await rows(sql<{ states: number; sensors: number; mismatches: number; reporting: number }>`
      select count(*)::int as states, (select count(*)::int from sensors) as sensors,
        count(*) filter (where ss.last_measured_at is not null)::int as reporting,
        count(*) filter (where ss.last_measured_at is distinct from m.measured_at or ss.last_temperature is distinct from m.temperature
          or ss.last_error is distinct from coalesce(m.error, false) or ss.last_battery is distinct from m.battery
          or ss.last_receive_sensitivity is distinct from m.receive_sensitivity)::int as mismatches
      from sensor_states ss
      left join lateral (select * from measurements m where m.store_id = ss.store_id and m.equipment_id = ss.equipment_id
        order by measured_at desc limit 1) m on true`);
    expect(check.states).toBe(check.sensors);
    expect(check.mismatches).toBe(0);
    expect(check.reporting).toBeGreaterThan(700);
  });

  it('stores exactly the readings of the curves the alerts were planned on', async () => {
    const plan = buildDemoPlan({ now: NOW, days: 1 });
    const sample = await rows(sql<{ store_id: string; serial_no: string; minute: number; temperature: number | null; error: boolean; battery: number; receive_sensitivity: number }>`
      select m.store_id, s.serial_no, (extract(epoch from m.measured_at) / 60)::int as minute, m.temperature, m.error, m.battery, m.receive_sensitivity
      from measurements m join sensors s using (store_id, equipment_id)
      where (extract(epoch from m.measured_at)::bigint / 60) % 97 = 0`);
    expect(sample.length).toBeGreaterThan(5000);
    for (const row of sample) {
      const sensor = plan.stores.find((s) => s.storeId === row.store_id)!.sensors.find((s) => s.serialNo === row.serial_no)!;
      const expected = readingAt(sensor.curve, row.minute)!;
      expect({ temperature: row.temperature, error: row.error, battery: row.battery, rssi: row.receive_sensitivity }).toEqual({
        temperature: expected.temperature, error: expected.error, battery: expected.battery, rssi: expected.rssi,
      });
    }
  });

  it('has the 10-minute buckets of exactly its readings, for the graphs and reports', async () => {
    expect(await bucketDifferences(db)).toEqual({ onlyKept: [], onlyCounted: [] });
    const [buckets] = await rows(sql<{ n: number }>`select count(*)::int as n from measurement_buckets`);
    // One reading a minute: at least a tenth as many buckets as readings.
    expect(buckets.n).toBeGreaterThanOrEqual(Math.floor(summary.measurements / 10));
  });

  it('has alert history that agrees with the readings and with the sensors’ open alerts', async () => {
    // A temperature alert's value is the reading that opened it.
    const [temperatures] = await rows(sql<{ checked: number; wrong: number }>`
      select count(*)::int as checked, count(*) filter (where abs(m.temperature - a.temperature) > 0.001 or a.alert_data1 <> to_char(a.temperature, 'FM990.0'))::int as wrong
      from alert_history a join measurements m on m.store_id = a.store_id and m.equipment_id = a.equipment_id and m.measured_at = a.started_at
      where a.alert_id in ('OE00000001', 'OE00000002')`);
    expect(temperatures.checked).toBeGreaterThan(5);
    expect(temperatures.wrong).toBe(0);
    // Every open alert is on its sensor's state, and every code on a state has its open alert.
    const [open] = await rows(sql<{ rows: number; missing: number; extra: number }>`
      select (select count(*)::int from alert_history where recovered_at is null and equipment_id is not null) as rows,
        (select count(*)::int from alert_history a join sensor_states ss using (store_id, equipment_id)
          where a.recovered_at is null and not a.alert_id = any(ss.alert_codes)) as missing,
        (select count(*)::int from sensor_states ss, unnest(ss.alert_codes) as code
          where not exists (select 1 from alert_history a where a.store_id = ss.store_id and a.equipment_id = ss.equipment_id
            and a.alert_id = code and a.recovered_at is null)) as extra`);
    expect(open.rows).toBeGreaterThanOrEqual(5);
    expect(open).toMatchObject({ missing: 0, extra: 0 });
    const statuses = await rows(sql<{ status: number; codes: string[] }>`select status, alert_codes as codes from sensor_states where status > 0 or cardinality(alert_codes) > 0`);
    for (const state of statuses) {
      const serious = state.codes.some((code) => code !== 'OE00000003');
      expect(state.status, state.codes.join()).toBe(serious ? 2 : 1);
    }
    expect(statuses.filter((s) => s.status === 2).length).toBeGreaterThanOrEqual(3);
    expect(statuses.some((s) => s.status === 1 && s.codes.length === 0)).toBe(true); // a guard time running now
  });

  it('has a past of incidents: every code, recovered and stopped ones, several pages for a few stores', async () => {
    const codes = await rows(sql<{ alert_id: string }>`select distinct alert_id from alert_history order by 1`);
    expect(codes.map((c) => c.alert_id)).toEqual(['OE00000001', 'OE00000002', 'OE00000003', 'OE00000004', 'OE00000005']);
    const [stopped] = await rows(sql<{ n: number; bad: number }>`
      select count(*)::int as n, count(*) filter (where stopped_by is null or stop_comment is null or stopped_at < started_at
        or stopped_at > coalesce(recovered_at, ${NOW}::timestamptz))::int as bad
      from alert_history where stopped_at is not null`);
    expect(stopped.n).toBeGreaterThan(10);
    expect(stopped.bad).toBe(0);
    const busy = await rows(sql<{ store_id: string }>`
      select store_id from alert_history where started_at > ${new Date(NOW.getTime() - 31 * 24 * HOUR)}::timestamptz
      group by store_id having count(*) > 20`);
    expect(busy.length).toBeGreaterThanOrEqual(3);
    const errors = await rows(sql<{ alert_data1: string | null }>`select alert_data1 from alert_history where alert_id = 'OE00000004'`);
    expect(errors.every((e) => e.alert_data1 === 'ERROR')).toBe(true);
  });

  it('has a sensor silent for three hours, a low battery and error readings', async () => {
    const silent = await rows(sql<{ store_id: string }>`
      select ss.store_id from sensor_states ss join stores s using (store_id)
      where s.working_state = 1 and not s.gateway_down and ss.last_measured_at <= ${new Date(NOW.getTime() - 3 * HOUR)}::timestamptz
        and 'OE00000005' = any(ss.alert_codes)`);
    expect(silent).toHaveLength(1);
    const [others] = await rows(sql<{ latest: Date }>`select max(last_measured_at) as latest from sensor_states where store_id = ${silent[0].store_id}`);
    expect(others.latest.getTime()).toBe(Math.floor(NOW.getTime() / 60_000) * 60_000);
    const low = await rows(sql<{ battery: number }>`select last_battery as battery from sensor_states where last_battery <= 10 and 'OE00000003' = any(alert_codes)`);
    expect(low.length).toBeGreaterThanOrEqual(1);
    const [errorReadings] = await rows(sql<{ n: number }>`select count(*)::int as n from measurements where error and temperature is null`);
    expect(errorReadings.n).toBeGreaterThan(30);
  });

  it('keeps store_status consistent with working state, gateway and open alerts', async () => {
    const stores = await rows(sql<{ store_id: string; store_status: number; expected: number }>`
      select s.store_id, s.store_status,
        case when s.working_state = 2 then 1
             when s.working_state is distinct from 1 or s.gateway_down then 0
             when exists (select 1 from sensor_states ss where ss.store_id = s.store_id and cardinality(ss.alert_codes) > 0) then 3
             else 2 end as expected
      from stores s`);
    for (const s of stores) expect(s.store_status, s.store_id).toBe(s.expected);
    const count = (status: number) => stores.filter((s) => s.store_status === status).length;
    expect(count(3)).toBeGreaterThanOrEqual(3);
    expect(count(2)).toBeGreaterThanOrEqual(40);
    // The silent gateway: one store-level alert, still open.
    const gateway = await rows(sql<{ n: number }>`
      select count(*)::int as n from alert_history a join stores s using (store_id)
      where s.gateway_down and a.equipment_id is null and a.alert_id = 'OE00000005' and a.recovered_at is null`);
    expect(gateway[0].n).toBe(1);
  });

  it('gives stores a gateway PIN, valid for about a day', async () => {
    const pins = await db.selectFrom('gateway_pins').selectAll().execute();
    expect(pins.length).toBeGreaterThanOrEqual(60);
    for (const pin of pins) {
      expect(pin.pin_code).toMatch(/^\d{6}$/);
      expect(pin.effective_time.getTime()).toBe(NOW.getTime() + 24 * HOUR);
    }
  });

  it('has SVG floor plans for 10+ stores, two chain templates, and sensors placed on them', async () => {
    const diagrams = await db.selectFrom('diagrams').select(['diagram_id', 'store_id', 'content_type', 'byte_size', 'content']).execute();
    expect(diagrams.filter((d) => d.store_id === null)).toHaveLength(2);
    for (const d of diagrams) {
      const svg = d.content.toString('utf8');
      expect(d.content_type).toBe('image/svg+xml');
      expect(d.byte_size).toBe(d.content.length);
      expect(svg).toContain('viewBox="0 0 1200 500"');
      expect(svg).toContain('バックヤード');
      expect(svg).not.toMatch(/<script|javascript:|on\w+=/i);
    }
    const placed = await rows(sql<{ store_id: string; total: number; placed: number; min_x: number; max_x: number; min_y: number; max_y: number }>`
      select s.store_id, count(*)::int as total, count(*) filter (where x.position_x <> 0 or x.position_y <> 0)::int as placed,
        min(x.position_x) filter (where x.position_x <> 0) as min_x, max(x.position_x) as max_x,
        min(x.position_y) filter (where x.position_y <> 0) as min_y, max(x.position_y) as max_y
      from stores s join diagrams d on d.diagram_id = s.diagram_id join sensors x on x.store_id = s.store_id group by s.store_id`);
    expect(placed.length).toBeGreaterThanOrEqual(10);
    for (const store of placed) {
      expect(store.placed).toBeGreaterThanOrEqual(store.total - 1);
      expect(store.min_x).toBeGreaterThan(0);
      expect(store.max_x).toBeLessThan(1200);
      expect(store.min_y).toBeGreaterThan(0);
      expect(store.max_y).toBeLessThan(500);
    }
    expect(placed.some((s) => s.placed < s.total)).toBe(true);
    const [elsewhere] = await rows(sql<{ n: number }>`
      select count(*)::int as n from sensors x join stores s using (store_id) where s.diagram_id is null and (x.position_x <> 0 or x.position_y <> 0)`);
    expect(elsewhere.n).toBe(0);
  });

  it('stops alerts on the hot-snack warmers at night, by a weekly schedule per sensor', async () => {
    const warmers = await rows(sql<{ equipment_id: number; ranges: string[] }>`
      select x.equipment_id, array_agg(t.start_minute || '-' || t.end_minute order by t.start_minute) as ranges
      from sensors x
      join alert_schedule_times t on t.store_id = x.store_id and t.equipment_id = x.equipment_id
      join alert_schedules a on a.store_id = t.store_id and a.schedule_id = t.schedule_id and a.schedule_type = 2 and a.time_target_type = 2
      where x.icon_kind = 12 group by x.equipment_id`);
    const [all] = await rows(sql<{ n: number }>`select count(*)::int as n from sensors where icon_kind = 12`);
    expect(warmers).toHaveLength(all.n);
    expect(warmers.every((w) => w.ranges.join() === '0-360,1320-1440')).toBe(true);
    const [others] = await rows(sql<{ n: number }>`select count(*)::int as n from alert_schedules where schedule_type = 1`);
    expect(others.n).toBeGreaterThanOrEqual(3);
  });

  it('has notices from today and from weeks ago', async () => {
    const notices = await db.selectFrom('notices').selectAll().execute();
    expect(notices.length).toBeGreaterThanOrEqual(4);
    expect(notices.some((n) => n.created_at.getTime() > NOW.getTime() - 48 * HOUR)).toBe(true);
    expect(notices.some((n) => n.created_at.getTime() < NOW.getTime() - 7 * 24 * HOUR)).toBe(true);
    expect(notices.every((n) => n.title.length <= 30 && n.content.length <= 100)).toBe(true);
  });

  it('has user groups for every authority, scoped as the roles expect', async () => {
    const groups = await rows(sql<{ authority: number; stores: number }>`
      select g.usergroup_authority as authority, count(sg.store_id)::int as stores
      from usergroups g left join store_usergroups sg using (usergroup_id) group by g.usergroup_id`);
    expect(new Set(groups.map((g) => g.authority))).toEqual(new Set([1, 2, 3, 4, 5, 10, 20, 30, 101]));
    // A store-user group is one store's; the onboarding chains' groups are prepared before their stores open.
    const storeUserGroups = groups.filter((g) => g.authority === 101);
    expect(storeUserGroups.every((g) => g.stores <= 1)).toBe(true);
    expect(storeUserGroups.filter((g) => g.stores === 1).length).toBeGreaterThan(storeUserGroups.length / 2);
    const areas = groups.filter((g) => g.authority === 30).map((g) => g.stores);
    expect(Math.max(...areas)).toBeGreaterThanOrEqual(13);
    const cases = groups.filter((g) => g.authority === 20).map((g) => g.stores);
    expect(Math.min(...cases)).toBeGreaterThanOrEqual(25);
  });

  it('has a staff of users in both languages, every alert filter, valid and invalid', async () => {
    const users = await db.selectFrom('users').selectAll().execute();
    expect(users.length).toBeGreaterThanOrEqual(25);
    expect(new Set(users.map((u) => u.language))).toEqual(new Set(['JP', 'US']));
    expect(new Set(users.map((u) => u.alert_filter))).toEqual(new Set([0, 1, 2]));
    expect(new Set(users.map((u) => u.valid_flg))).toEqual(new Set([0, 1]));
    expect(new Set(users.map((u) => u.mailaddress1!.toLowerCase())).size).toBe(users.length);
    expect(users.some((u) => u.mailaddress3 !== null)).toBe(true);
    for (const u of users) {
      expect(u.user_name.length).toBeLessThanOrEqual(50);
      expect(u.company_id).not.toBeNull();
      expect(u.mailaddress1).toMatch(/@example\.com$/);
      if (u.tel_no) expect(u.tel_no).toMatch(/^\d+$/);
    }
    expect(new Set(users.map((u) => u.password_hash)).size).toBe(1);
  });

  it('lets the five demo logins sign in with their authority', async () => {
    for (const [loginId, authority] of Object.entries(DEMO_LOGINS)) {
      expect((await logIn(loginId)).authority, loginId).toBe(authority);
    }
  });

  it('shows the store user one store with a floor plan and an alarm right now', async () => {
    const { access_token } = await logIn('storeuser');
    const response = await call(storeListLoader, get('/on-reco/v1/store_list?page_no=1&page_count=20', access_token));
    const list = (await response.json()) as { all_count: number; alert_count: number; stores: { store_id: string; store_status: number }[] };
    expect(list.all_count).toBe(1);
    expect(list.stores[0].store_status).toBe(3);
    const store = await db.selectFrom('stores').select('diagram_id').where('store_id', '=', list.stores[0].store_id).executeTakeFirstOrThrow();
    expect(store.diagram_id).not.toBeNull();
  });

  it('shows the area manager about fifteen stores, alarms first', async () => {
    const { access_token } = await logIn('areamanager');
    const response = await call(storeListLoader, get('/on-reco/v1/store_list?page_no=1&page_count=20', access_token));
    const list = (await response.json()) as { all_count: number; alert_count: number; stores: { store_status: number }[] };
    expect(list.all_count).toBeGreaterThanOrEqual(12);
    expect(list.all_count).toBeLessThanOrEqual(20);
    expect(list.alert_count).toBeGreaterThanOrEqual(1);
    expect(list.stores[0].store_status).toBe(3);
  });
});

describe('the demo chain\'s HACCP record', () => {
  it('has signed days, each with its audit row, signed by a store user of the store', async () => {
    const signoffs = await rows(sql<{ store_id: string; day: string; user_id: number; issue_count: number }>`select store_id, day, user_id, issue_count from haccp_signoffs`);
    expect(signoffs.length).toBeGreaterThan(0);
    const audits = await rows(sql<{ n: number }>`select count(*)::int as n from audit_log where action = 'haccp_record.sign'`);
    expect(audits[0].n).toBe(signoffs.length);
    const outsiders = await rows(sql<{ n: number }>`
      select count(*)::int as n from haccp_signoffs h where not exists (
        select 1 from store_usergroups su join user_usergroups uu on uu.usergroup_id = su.usergroup_id
        where su.store_id = h.store_id and uu.user_id = h.user_id)`);
    expect(outsiders[0].n).toBe(0);
  });
});

describe('the demo chain without history', () => {
  it('seeds only the latest reading of each sensor with days = 0', async () => {
    await resetDb();
    const result = await seedDemoChain(db, { days: 0, password: DEMO_DEFAULT_PASSWORD, now: NOW });
    const [check] = await rows(sql<{ readings: number; sensors: number; states: number }>`
      select (select count(*)::int from measurements) as readings,
        (select count(distinct (store_id, equipment_id))::int from measurements) as sensors,
        (select count(*)::int from sensor_states where last_measured_at is not null) as states`);
    expect(check.readings).toBe(result.measurements);
    expect(check.readings).toBe(check.sensors);
    expect(check.states).toBe(check.sensors);
  }, 60_000);
});
