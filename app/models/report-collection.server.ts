import { sql } from 'kysely';
import type { Db } from '~/db/db.server';
import { bucketRecords, readingRecords } from '~/db/binary-records.server';
import type { BucketSeries } from '~/domain/report-buckets';
import type { ReadingSeries } from '~/domain/report-rows';
import { storeVisibleTo } from './stores.server';
import type { Viewer } from './users.server';

// What report collection reads: the store, its sensors, their readings and 10-minute buckets
// (as binary records: app/db/binary-records.server.ts), comments and alerts.


export interface ReportStoreRow {
  storeId: string;
  storeNo: string;
  storeName: string;
  workingState: number | null;
}

/** The store a report is of (removed or not: its history keeps working). */
export async function getReportStore(db: Db, storeId: string): Promise<ReportStoreRow | null> {
  const row = await db
    .selectFrom('stores')
    .select(['store_id as storeId', 'store_no as storeNo', 'store_name as storeName', 'working_state as workingState'])
    .where('store_id', '=', storeId)
    .executeTakeFirst();
  return row ?? null;
}

/** The store's sensors for the form: every sensor, hidden ones flagged (the form dims them). Null when the viewer may not see the store. */
export async function listReportSensors(db: Db, viewer: Viewer, storeId: string): Promise<{ equipmentId: number; name: string; hidden: boolean }[] | null> {
  const store = await db.selectFrom('stores').select('store_id').where('store_id', '=', storeId).where(storeVisibleTo(viewer)).executeTakeFirst();
  if (!store) return null;
  const rows = await db
    .selectFrom('sensors')
    .select(['equipment_id as equipmentId', 'equipment_name as name', 'disp_flg'])
    .where('store_id', '=', storeId)
    .orderBy('location_no')
    .orderBy('equipment_id')
    .execute();
  return rows.map((row) => ({ equipmentId: row.equipmentId, name: row.name, hidden: row.disp_flg !== 1 }));
}

/** Which of the ids are sensors of the store. */
export async function sensorIdsOfStore(db: Db, storeId: string, equipmentIds: readonly number[]): Promise<number[]> {
  if (equipmentIds.length === 0) return [];
  const rows = await db.selectFrom('sensors').select('equipment_id').where('store_id', '=', storeId).where('equipment_id', 'in', [...equipmentIds]).execute();
  return rows.map((row) => row.equipment_id);
}

export interface ReportSensorRow {
  equipmentId: number;
  name: string;
  serialNo: string;
  iconKind: number;
}

export async function reportSensors(db: Db, storeId: string, equipmentIds: readonly number[]): Promise<ReportSensorRow[]> {
  if (equipmentIds.length === 0) return [];
  return db
    .selectFrom('sensors')
    .select(['equipment_id as equipmentId', 'equipment_name as name', 'serial_no as serialNo', 'icon_kind as iconKind'])
    .where('store_id', '=', storeId)
    .where('equipment_id', 'in', [...equipmentIds])
    .orderBy('location_no')
    .orderBy('equipment_id')
    .execute();
}

/**
 * The readings of the sensors in [from, to) as one compact binary text per sensor, parsed into
 * typed arrays: no row object per reading (docs/decisions/148-report-speed.md).
 */
export async function reportReadingSeries(db: Db, storeId: string, equipmentIds: readonly number[], from: Date, to: Date): Promise<Map<number, ReadingSeries>> {
  return reportReadingRanges(db, storeId, equipmentIds.map((equipmentId) => ({ equipmentId, from: from.getTime(), to: to.getTime() })));
}

/** The readings of each sensor's ranges [from, to) (ms), as reportReadingSeries gives them. */
export async function reportReadingRanges(db: Db, storeId: string, ranges: readonly { equipmentId: number; from: number; to: number }[]): Promise<Map<number, ReadingSeries>> {
  const out = new Map<number, ReadingSeries>();
  if (ranges.length === 0) return out;
  // One record per reading (app/db/binary-records.server.ts reads it), sent as base64 like the
  // buckets: the `*send` functions turn no instant or number into text (docs/decisions/202).
  const rows = await sql<{ equipmentId: number; packed: string }>`
    select m.equipment_id as "equipmentId",
           encode(string_agg(timestamptz_send(m.measured_at) || float4send(coalesce(m.temperature, 'NaN'))
                             || int2send(case when m.error then 1 when m.temperature is null then 2 else 0 end::int2), ''::bytea order by m.measured_at), 'base64') as packed
      from unnest(${ranges.map((r) => r.equipmentId)}::int[], ${ranges.map((r) => new Date(r.from).toISOString())}::timestamptz[], ${ranges.map((r) => new Date(r.to).toISOString())}::timestamptz[]) as r(equipment_id, since, until)
      -- One index range read per range (offset 0 keeps the planner from turning many ranges into a scan of the whole month).
      cross join lateral (select * from measurements x
                           where x.store_id = ${storeId} and x.equipment_id = r.equipment_id and x.measured_at >= r.since and x.measured_at < r.until offset 0) m
     group by m.equipment_id`.execute(db);
  for (const row of rows.rows) {
    out.set(row.equipmentId, readingRecords(row.packed));
  }
  return out;
}


/**
 * The sensors' 10-minute buckets whose readings fall in [from, to), with what a report reads of
 * them (migrations/2026-11-24-90), one bytea per sensor of fixed-size binary records (the `*send`
 * functions: no number or timestamp turned into text and back, docs/decisions/192).
 */
export async function reportBuckets(db: Db, storeId: string, equipmentIds: readonly number[], from: Date, to: Date): Promise<Map<number, BucketSeries>> {
  const out = new Map<number, BucketSeries>();
  if (equipmentIds.length === 0) return out;
  const half = 5 * 60_000;
  // One record per bucket, in the order app/db/binary-records.server.ts reads it (a null
  // value is NaN, a null instant the bucket's own, a missing mark -1), sent as base64: a third
  // shorter than bytea's hex text, which node-pg would decode as a string first.
  // One aggregate per sensor over its own range of the primary key (grouping the store's buckets
  // by sensor sorted them all, on disk past work_mem). The aggregate does not sort them again:
  // they come in the index's order, and the reader puts them in time order whatever order a plan
  // gives (docs/decisions/201).
  const rows = await sql<{ equipmentId: number; packed: string }>`
    select s.equipment_id as "equipmentId", b.packed
      from unnest(${[...equipmentIds]}::int[]) as s(equipment_id)
      cross join lateral (
        select encode(string_agg(timestamptz_send(bucket) || int4send(gap_count) || int4send(value_count) || int8send(value_tenths)
                                 || float4send(coalesce(value_min, 'NaN')) || timestamptz_send(coalesce(min_at, bucket))
                                 || float4send(coalesce(value_max, 'NaN')) || timestamptz_send(coalesce(max_at, bucket))
                                 || float4send(coalesce(mark_temperature, 'NaN')) || int2send(coalesce(mark_error::int::int2, (-1)::int2)),
                                 ''::bytea), 'base64') as packed
          from measurement_buckets
         where store_id = ${storeId} and equipment_id = s.equipment_id
           and bucket > ${new Date(from.getTime() - half)} and bucket < ${new Date(to.getTime() + half)}) b
     where b.packed is not null`.execute(db);
  for (const row of rows.rows) {
    out.set(row.equipmentId, bucketRecords(row.packed));
  }
  return out;
}

export async function reportComments(db: Db, storeId: string, equipmentIds: readonly number[], from: Date, to: Date) {
  if (equipmentIds.length === 0) return [];
  return db
    .selectFrom('measurement_comments as c')
    .leftJoin('users as u', 'u.user_id', 'c.user_id')
    .select(['c.equipment_id as equipmentId', 'c.measured_at as at', 'c.comment', 'u.user_name as userName'])
    .where('c.store_id', '=', storeId)
    .where('c.equipment_id', 'in', [...equipmentIds])
    .where('c.measured_at', '>=', from)
    .where('c.measured_at', '<', to)
    .orderBy('c.measured_at')
    .execute();
}

/** The sensors' alerts that overlap [from, to). */
export async function reportAlerts(db: Db, storeId: string, equipmentIds: readonly number[], from: Date, to: Date) {
  if (equipmentIds.length === 0) return [];
  return db
    .selectFrom('alert_history as a')
    .leftJoin('users as u', 'u.user_id', 'a.stopped_by')
    .leftJoin('users as ack', 'ack.user_id', 'a.acknowledged_by')
    .select([
      'a.equipment_id as equipmentId',
      'a.alert_id as alertId',
      'a.started_at as startedAt',
      'a.recovered_at as recoveredAt',
      'a.stopped_at as stoppedAt',
      'u.user_name as stoppedBy',
      'a.stop_comment as stopComment',
      'a.acknowledged_at as acknowledgedAt',
      'ack.user_name as acknowledgedByName',
      'a.corrective_action as correctiveAction',
      'a.acknowledge_note as acknowledgeNote',
    ])
    .where('a.store_id', '=', storeId)
    .where('a.equipment_id', 'in', [...equipmentIds])
    .where('a.started_at', '<', to)
    .where((eb) => eb.or([eb('a.recovered_at', 'is', null), eb('a.recovered_at', '>=', from)]))
    .orderBy('a.started_at')
    .execute();
}

/** The user's name (the report's creator), or null. */
export async function reportUserName(db: Db, userId: number | null): Promise<string | null> {
  if (userId === null) return null;
  const row = await db.selectFrom('users').select('user_name').where('user_id', '=', userId).executeTakeFirst();
  return row?.user_name ?? null;
}
