import { sql } from 'kysely';
import { seedGatewayHealth } from './seed-gateway-health.server';
import type { Db } from '~/db/db.server';
import { ensureMeasurementPartitions } from '~/models/measurement-partitions.server';
import { deleteMeasurements, insertMeasurementsWithBuckets } from '~/models/measurement-buckets.server';
import { syncStoreListEntries } from '~/models/stores.server';
import { CURVE_COLUMNS, curveRow, curveSql, MINUTE_MS } from './chain/curves';
import { buildDemoPlan, CHUNK_MINUTES, type DemoPlan, type PlannedSensor, type PlannedStore } from './chain/plan';
import { hashPassword } from '../services/password.server';
import { seedAuditTrail } from './seed-audit.server';
import { seedMasters } from './seed-masters.server';
import { seedSensorSettings } from './seed-sensor-settings.server';
import { seedAlertStops } from './seed-alert-stops.server';
import { seedReports } from './seed-reports.server';
import { seedHaccpSignoffs } from './seed-haccp.server';

// Seeds the demo chain (app/services/demo/*) into an empty database: what every new user of
// the console sees on day one. The readings (millions of rows) are generated inside PostgreSQL
// from per-sensor curve parameters, by the formula of demo/curves.ts compiled to SQL, on a few
// connections at once; everything else is written in one transaction afterwards. Sensor ids are
// reserved from the identity sequence first so the readings can be written before the sensors:
// a failure rolls the transaction back and deletes the readings, leaving the database empty.

export interface DemoSummary {
  days: number;
  companies: number;
  stores: number;
  sensors: number;
  measurements: number;
  alerts: number;
  users: number;
}

export interface SeedOptions {
  /** Days of one-minute readings up to `now` (0: only each sensor's latest reading). */
  days: number;
  /** The password of every demo user (hashed once). */
  password: string;
  now: Date;
  /** Told as the seed goes: the readings' share after each insert statement, then each later step. */
  onProgress?: (progress: SeedProgress) => void;
}

/** Where a seed is: readings are most of its time (minutes of readings planned and written). */
export type SeedProgress = { step: 'readings'; done: number; total: number } | { step: 'chain' | 'history' };

/**
 * Parallel insert statements for the readings. The load waits on WAL and buffer writes as much as
 * on the CPU, so three lanes beat two on our 2-core machines (7 days: ~35 s against ~43 s); with
 * a smaller pool the lanes simply take turns.
 */
const LANES = 3;
/** About this many readings per insert statement. */
const ROWS_PER_STATEMENT = 500_000;

/** True when there are no stores and no users: a fresh database that start-up may seed. */
export async function isDatabaseEmpty(db: Db): Promise<boolean> {
  const { rows } = await sql<{ empty: boolean }>`
    select not exists (select 1 from stores) and not exists (select 1 from users) as empty`.execute(db);
  return rows[0]?.empty ?? false;
}

export async function seedDemoChain(db: Db, options: SeedOptions): Promise<DemoSummary> {
  if (!(await isDatabaseEmpty(db))) throw new Error('The demo chain is seeded only into an empty database (no stores, no users).');
  const plan = buildDemoPlan({ now: options.now, days: options.days });
  const passwordHash = await hashPassword(options.password);
  const sensors = plan.stores.flatMap((store) => store.sensors.map((sensor) => ({ store, sensor })));

  const firsts = sensors.flatMap(({ sensor }) => (sensor.readings ? [sensor.readings.first] : []));
  if (firsts.length > 0) await ensureMeasurementPartitions(db, new Date(Math.min(...firsts) * MINUTE_MS), plan.now);
  const reserved = await sql<{ id: number }>`
    select nextval(pg_get_serial_sequence('sensors', 'equipment_id'))::int as id from generate_series(1, ${sensors.length}::int)`.execute(db);
  const equipmentIds = new Map(sensors.map(({ sensor }, i) => [sensor.sensorId, reserved.rows[i].id]));
  const equipmentIdOf = (sensorId: number) => {
    const id = equipmentIds.get(sensorId);
    if (id === undefined) throw new Error(`No equipment id for demo sensor ${sensorId}`);
    return id;
  };

  let measurements = 0;
  try {
    measurements = await insertReadings(db, sensors, equipmentIdOf, options.onProgress);
    options.onProgress?.({ step: 'chain' });
    await db.transaction().execute(async (trx) => {
      await writeChain(trx, plan, equipmentIdOf, passwordHash);
      await seedMasters(trx, plan.now);
      await seedAlertStops(trx, plan.now);
    });
    await seedAuditTrail(db, plan);
  } catch (error) {
    await deleteMeasurements(db, { storeIds: plan.stores.map((s) => s.storeId), equipmentIds: [...equipmentIds.values()] });
    throw error;
  }
  options.onProgress?.({ step: 'history' });
  await seedSensorSettings(db, plan.now, plan.days);
  await sql`analyze measurements`.execute(db);
  await seedReports(db, plan.now);
  await seedHaccpSignoffs(db, plan.now, plan.days);
  await seedGatewayHealth(db, plan.now);
  return {
    days: plan.days,
    companies: plan.companies.length,
    stores: plan.stores.length,
    sensors: sensors.length,
    measurements,
    alerts: plan.alerts.length,
    users: plan.users.length,
  };
}

// ---- readings ----

interface SensorOfStore {
  store: PlannedStore;
  sensor: PlannedSensor;
}

interface ReadingSlice {
  storeId: string;
  equipmentId: number;
  sensor: PlannedSensor;
  first: number;
  last: number;
}

const CURVE = curveSql({ minute: 'g.m', column: (name) => `"${name === 'm' ? 'm_f' : name}"` });

/**
 * One statement inserts the readings of a batch of sensors over one 7-day chunk: the per-minute
 * terms are computed once per minute (a materialized CTE), the per-sensor parameters come in as
 * arrays, and rows are produced sensor by sensor in key order, which keeps the primary-key
 * inserts at the right edge of the index.
 */
async function insertReadings(
  db: Db,
  sensors: SensorOfStore[],
  equipmentIdOf: (sensorId: number) => number,
  onProgress: SeedOptions['onProgress'],
): Promise<number> {
  const withReadings = sensors
    .filter(({ sensor }) => sensor.readings !== null)
    .map(({ store, sensor }) => ({ store, sensor, equipmentId: equipmentIdOf(sensor.sensorId) }))
    .sort((a, b) => (a.store.storeId < b.store.storeId ? -1 : a.store.storeId > b.store.storeId ? 1 : a.equipmentId - b.equipmentId));
  if (withReadings.length === 0) return 0;
  const span = Math.max(...withReadings.map(({ sensor }) => sensor.readings!.last - sensor.readings!.first + 1));
  const batchSize = Math.max(1, Math.floor(ROWS_PER_STATEMENT / Math.min(span, CHUNK_MINUTES)));
  const laneSize = Math.ceil(withReadings.length / LANES);
  const lanes = Array.from({ length: LANES }, (_, lane) => withReadings.slice(lane * laneSize, (lane + 1) * laneSize));
  const progress = { step: 'readings' as const, done: 0, total: withReadings.reduce((sum, { sensor }) => sum + sensor.readings!.last - sensor.readings!.first + 1, 0) };
  onProgress?.({ ...progress });
  const counts = await Promise.all(
    lanes.map(async (lane) => {
      let inserted = 0;
      for (let i = 0; i < lane.length; i += batchSize) {
        const batch = lane.slice(i, i + batchSize);
        // Chunks aligned on each store's last reading, as the incidents were planned (≤ 2 excursions per sensor and chunk).
        const chunks = Math.ceil(span / CHUNK_MINUTES);
        for (let k = chunks - 1; k >= 0; k--) {
          const slices: ReadingSlice[] = batch.flatMap(({ store, sensor, equipmentId }) => {
            const storeLast = Math.max(...store.sensors.map((s) => s.readings?.last ?? -Infinity));
            const first = Math.max(sensor.readings!.first, storeLast - (k + 1) * CHUNK_MINUTES + 1);
            const last = Math.min(sensor.readings!.last, storeLast - k * CHUNK_MINUTES);
            return first <= last ? [{ storeId: store.storeId, equipmentId, sensor, first, last }] : [];
          });
          if (slices.length === 0) continue;
          inserted += await insertSlices(db, slices);
          progress.done += slices.reduce((sum, slice) => sum + slice.last - slice.first + 1, 0);
          onProgress?.({ ...progress });
        }
      }
      return inserted;
    }),
  );
  return counts.reduce((a, b) => a + b, 0);
}

async function insertSlices(db: Db, slices: ReadingSlice[]): Promise<number> {
  const from = Math.min(...slices.map((s) => s.first));
  const to = Math.max(...slices.map((s) => s.last));
  const rows = slices.map((s) => curveRow(s.sensor.curve, s.first, s.last));
  const parameterArrays = CURVE_COLUMNS.map((column) => sql`${rows.map((row) => row[column])}::float8[]`);
  const minuteTerms = CURVE.minuteTerms.map((term) => `${term.sql} as "${term.name}"`).join(', ');
  const rowTerms = CURVE.rowTerms.map((term) => `${term.sql} as "${term.name}"`).join(', ');
  return insertMeasurementsWithBuckets(
    db,
    sql`
    with mi as materialized (
      select g.m, g.m::float8 as m_f, to_timestamp(g.m::float8 * 60) as measured_at, ${sql.raw(minuteTerms)}
      from generate_series(${from}::int, ${to}::int) as g(m)
    )
    insert into measurements (store_id, equipment_id, measured_at, temperature, error, battery, receive_sensitivity, received_at)
    select x.store_id, x.equipment_id, x.measured_at,
      case when ${sql.raw(CURVE.error)} then null else (${sql.raw(CURVE.temperature)})::real end,
      ${sql.raw(CURVE.error)},
      (${sql.raw(CURVE.battery)})::smallint,
      (${sql.raw(CURVE.rssi)})::smallint,
      x.measured_at + interval '12 seconds'
    from (
      select p.*, mi.*, ${sql.raw(rowTerms)}
      from unnest(
        ${slices.map((s) => s.storeId)}::text[], ${slices.map((s) => s.equipmentId)}::int[],
        ${slices.map((s) => s.first)}::int[], ${slices.map((s) => s.last)}::int[],
        ${sql.join(parameterArrays)}
      ) as p(store_id, equipment_id, first_m, last_m, ${sql.join(CURVE_COLUMNS.map((column) => sql.id(column)))})
      cross join lateral (select * from mi where mi.m between p.first_m and p.last_m) as mi
      offset 0
    ) as x
    where not ${sql.raw(CURVE.gap)}
    returning store_id, equipment_id, measured_at, temperature, error`,
  );
}

// ---- everything else, in one transaction ----

async function writeChain(trx: Db, plan: DemoPlan, equipmentIdOf: (sensorId: number) => number, passwordHash: string): Promise<void> {
  const now = plan.now;
  await trx
    .insertInto('companies')
    .values(plan.companies.map((c) => ({ company_id: c.companyId, company_name: c.companyName, created_at: now, updated_at: now })))
    .execute();
  await trx
    .insertInto('storegroups')
    .values(plan.storegroups.map((g) => ({ storegroup_id: g.storegroupId, company_id: g.companyId, storegroup_name: g.storegroupName, created_at: now, updated_at: now })))
    .execute();

  const groupRows = await trx
    .insertInto('usergroups')
    .values(plan.usergroups.map((g) => ({ usergroup_name: g.name, usergroup_authority: g.authority, created_at: now, updated_at: now })))
    .returning(['usergroup_id', 'usergroup_name'])
    .execute();
  const groupIdByName = new Map(groupRows.map((row) => [row.usergroup_name, row.usergroup_id]));
  const groupId = (key: string) => {
    const group = plan.usergroups.find((g) => g.key === key);
    const id = group && groupIdByName.get(group.name);
    if (id === undefined) throw new Error(`Unknown demo user group ${key}`);
    return id;
  };

  const userRows = await trx
    .insertInto('users')
    .values(
      plan.users.map((u) => ({
        login_id: u.loginId,
        user_name: u.userName,
        company_id: u.companyId,
        tel_no: u.telNo,
        mailaddress1: u.mails[0] ?? null,
        mailaddress2: u.mails[1] ?? null,
        mailaddress3: u.mails[2] ?? null,
        language: u.language,
        valid_flg: u.valid ? 1 : 0,
        notice_flg: u.valid ? 1 : 0,
        alert_filter: u.valid ? u.alertFilter : 2,
        password_hash: passwordHash,
        password_changed_at: now,
        created_at: now,
        updated_at: now,
      })),
    )
    .returning(['user_id', 'login_id'])
    .execute();
  const userIds = new Map(userRows.map((row) => [row.login_id, row.user_id]));
  const userId = (login: string) => {
    const id = userIds.get(login);
    if (id === undefined) throw new Error(`Unknown demo user ${login}`);
    return id;
  };
  await trx
    .insertInto('user_usergroups')
    .values(plan.users.flatMap((u) => u.groups.map((key) => ({ user_id: userId(u.loginId), usergroup_id: groupId(key) }))))
    .execute();

  await trx
    .insertInto('stores')
    .values(
      plan.stores.map((s) => ({
        store_id: s.storeId,
        store_no: s.storeNo,
        store_name: s.storeName,
        company_id: s.companyId,
        storegroup_id: s.storegroupId,
        prefecture_id: s.prefectureId,
        address: s.address,
        tel_no: s.telNo,
        opening_date: s.openingDate,
        closing_date: s.closingDate,
        gateway_info: s.gatewayInfo,
        working_state: s.workingState,
        store_status: s.storeStatus,
        diagram_id: null,
        receive_sensitivity: s.receiveSensitivity,
        last_gateway_contact_at: s.lastGatewayContactAt,
        gateway_down: s.gatewayDown,
        created_at: now,
        updated_at: now,
      })),
    )
    .execute();
  await syncStoreListEntries(trx, plan.stores.map((s) => s.storeId));
  await trx
    .insertInto('store_usergroups')
    .values(plan.usergroups.flatMap((g) => g.storeIds.map((storeId) => ({ store_id: storeId, usergroup_id: groupId(g.key) }))))
    .execute();
  const pins = plan.stores.flatMap((s) => (s.pin ? [{ store_id: s.storeId, pin_code: s.pin.code, effective_time: s.pin.effectiveTime, issued_at: s.pin.issuedAt }] : []));
  if (pins.length > 0) await trx.insertInto('gateway_pins').values(pins).execute();

  // Floor plans: the chain's templates, then each store's (the current one becomes stores.diagram_id).
  const admin = userId('admin');
  const diagrams = [
    ...plan.templates.map((d) => ({ storeId: null as string | null, diagram: d })),
    ...plan.stores.flatMap((s) => s.diagrams.map((d) => ({ storeId: s.storeId as string | null, diagram: d }))),
  ];
  for (const { storeId, diagram } of diagrams) {
    const content = Buffer.from(diagram.svg, 'utf8');
    const row = await trx
      .insertInto('diagrams')
      .values({ store_id: storeId, diagram_name: diagram.name, content_type: 'image/svg+xml', byte_size: content.length, content, created_by: admin, created_at: diagram.createdAt })
      .returning('diagram_id')
      .executeTakeFirstOrThrow();
    if (storeId && diagram.current) await trx.updateTable('stores').set({ diagram_id: row.diagram_id }).where('store_id', '=', storeId).execute();
  }

  await insertSensors(trx, plan, equipmentIdOf);
  await insertSensorStates(trx, plan, equipmentIdOf);

  const alertRows = plan.alerts.map((a) => ({
    store_id: a.storeId,
    equipment_id: a.sensorId === null ? null : equipmentIdOf(a.sensorId),
    alert_id: a.code,
    alert_data1: a.alertData1,
    temperature: a.temperature,
    lower_limit: a.lowerLimit,
    upper_limit: a.upperLimit,
    started_at: a.startedAt,
    recovered_at: a.recoveredAt,
    stopped_at: a.stoppedAt,
    stopped_by: a.stoppedBy === null ? null : userId(a.stoppedBy),
    stop_comment: a.stopComment,
    last_notified_at: a.lastNotifiedAt,
  }));
  for (let i = 0; i < alertRows.length; i += 1000) await trx.insertInto('alert_history').values(alertRows.slice(i, i + 1000)).execute();

  for (const s of plan.schedules) {
    const { schedule_id } = await trx
      .insertInto('alert_schedules')
      .values({
        store_id: s.storeId,
        schedule_type: s.scheduleType,
        term_type: s.termType,
        start_date: s.startDate,
        end_date: s.endDate,
        sun_flg: s.weekdays[0] ? 1 : 0,
        mon_flg: s.weekdays[1] ? 1 : 0,
        tue_flg: s.weekdays[2] ? 1 : 0,
        wed_flg: s.weekdays[3] ? 1 : 0,
        thu_flg: s.weekdays[4] ? 1 : 0,
        fri_flg: s.weekdays[5] ? 1 : 0,
        sat_flg: s.weekdays[6] ? 1 : 0,
        time_target_type: s.timeTargetType,
        created_at: now,
        updated_at: now,
      })
      .returning('schedule_id')
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('alert_schedule_times')
      .values(s.times.map((t) => ({ store_id: s.storeId, schedule_id, equipment_id: t.sensorId === null ? null : equipmentIdOf(t.sensorId), start_minute: t.start, end_minute: t.end })))
      .execute();
  }

  await trx
    .insertInto('notices')
    .values(plan.notices.map((n) => ({ title: n.title, content: n.content, created_by: userId(n.createdBy), created_at: n.createdAt })))
    .execute();
}

/** Sensors with their reserved equipment ids (an identity column: `overriding system value`). */
async function insertSensors(trx: Db, plan: DemoPlan, equipmentIdOf: (sensorId: number) => number): Promise<void> {
  const rows = plan.stores.flatMap((store) => store.sensors.map((sensor) => ({ store, sensor })));
  const col = <T>(pick: (s: PlannedSensor, store: PlannedStore) => T) => rows.map(({ store, sensor }) => pick(sensor, store));
  await sql`
    insert into sensors (
      store_id, equipment_id, equipment_name, serial_no, model_id, icon_kind, location_no, lower_limit, upper_limit,
      guard_time, snoozing_time, time_constant, def_time, disp_flg, comment_required, installation_datetime, removal_datetime,
      measure_target_equipment_kind_id, measure_target_name, measure_target_serial_no, position_x, position_y, encryption_key,
      created_at, updated_at)
    overriding system value
    select store_id, equipment_id, equipment_name, serial_no, model_id, icon_kind, location_no, lower_limit, upper_limit,
      guard_time, snoozing_time, time_constant, def_time::jsonb, disp_flg, comment_required, installation_datetime::date, removal_datetime::date,
      measure_target_equipment_kind_id, measure_target_name, measure_target_serial_no, position_x, position_y, encryption_key,
      ${plan.now}::timestamptz, ${plan.now}::timestamptz
    from unnest(
      ${col((_, st) => st.storeId)}::text[], ${col((s) => equipmentIdOf(s.sensorId))}::int[], ${col((s) => s.name)}::text[],
      ${col((s) => s.serialNo)}::text[], ${col((s) => s.modelId)}::smallint[], ${col((s) => s.iconKind)}::smallint[],
      ${col((s) => s.locationNo)}::smallint[], ${col((s) => s.lowerLimit)}::numeric[], ${col((s) => s.upperLimit)}::numeric[],
      ${col((s) => s.guardTime)}::smallint[], ${col((s) => s.snoozingTime)}::smallint[], ${col((s) => s.timeConstant)}::smallint[],
      ${col((s) => JSON.stringify(s.defTime))}::text[], ${col((s) => s.dispFlg)}::smallint[], ${col((s) => s.commentRequired)}::smallint[],
      ${col((s) => s.installationDate)}::text[], ${col((s) => s.removalDate)}::text[], ${col((s) => s.targetKindId)}::smallint[],
      ${col((s) => s.targetName)}::text[], ${col((s) => s.targetSerialNo)}::text[], ${col((s) => s.positionX)}::int[],
      ${col((s) => s.positionY)}::int[], ${col((s) => s.encryptionKey)}::text[]
    ) as t(store_id, equipment_id, equipment_name, serial_no, model_id, icon_kind, location_no, lower_limit, upper_limit,
      guard_time, snoozing_time, time_constant, def_time, disp_flg, comment_required, installation_datetime, removal_datetime,
      measure_target_equipment_kind_id, measure_target_name, measure_target_serial_no, position_x, position_y, encryption_key)`.execute(trx);
}

/**
 * Each sensor's state: its last stored reading (read back, so it is the reading itself) and
 * what the alert engine concluded over the plan (status, open codes, engine state).
 */
async function insertSensorStates(trx: Db, plan: DemoPlan, equipmentIdOf: (sensorId: number) => number): Promise<void> {
  const rows = plan.stores.flatMap((store) => store.sensors.map((sensor) => ({ store, sensor })));
  await sql`
    insert into sensor_states (store_id, equipment_id, last_measured_at, last_temperature, last_error, last_battery,
      last_receive_sensitivity, status, alert_codes, engine_state, updated_at)
    select p.store_id, p.equipment_id, m.measured_at, m.temperature, coalesce(m.error, false), m.battery, m.receive_sensitivity,
      p.status, p.codes::varchar(10)[], p.state::jsonb, ${plan.now}::timestamptz
    from unnest(
      ${rows.map(({ store }) => store.storeId)}::text[], ${rows.map(({ sensor }) => equipmentIdOf(sensor.sensorId))}::int[],
      ${rows.map(({ sensor }) => sensor.status)}::smallint[], ${rows.map(({ sensor }) => `{${sensor.openCodes.join(',')}}`)}::text[],
      ${rows.map(({ sensor }) => JSON.stringify(sensor.engineState))}::text[]
    ) as p(store_id, equipment_id, status, codes, state)
    left join lateral (
      select measured_at, temperature, error, battery, receive_sensitivity from measurements
      where measurements.store_id = p.store_id and measurements.equipment_id = p.equipment_id
      order by measured_at desc limit 1
    ) as m on true`.execute(trx);
}
