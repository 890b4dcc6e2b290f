import { sql } from 'kysely';
import type { Db } from '~/db/db.server';
import { downloadName, type ReportSave } from '~/domain/report-form';
import { type BucketSeries, emptyBuckets } from '~/domain/report-buckets';
import type { ReadingSeries } from '~/domain/report-rows';
import { storeVisibleTo, visibleStoreExists } from './stores.server';
import type { Viewer } from './users.server';

// Reports: the history (report_history, each row also the job that makes its file), the regular
// settings (regular_reports) and what report collection reads. Store-scoped reads filter by the
// viewer's visibility in their where; the worker's reads (no viewer) name the store they serve.

// ---- the history ------------------------------------------------------------------------------

export interface HistoryRow {
  historyNo: number;
  settingNo: number | null;
  fileName: string;
  reportType: number;
  outputFormat: number;
  startTime: Date;
  endTime: Date;
  createdAt: Date;
  state: 'pending' | 'done' | 'failed';
}

const HISTORY_COLUMNS = [
  'h.history_no as historyNo',
  'h.setting_no as settingNo',
  'h.file_name as fileName',
  'h.report_type as reportType',
  'h.output_format as outputFormat',
  'h.start_time as startTime',
  'h.end_time as endTime',
  'h.create_datetime as createdAt',
  'h.state as state',
] as const;

/** One page of a store's history created within [since, until], newest first, with the count. Null when the viewer may not see the store. */
export async function listReportHistory(
  db: Db,
  viewer: Viewer,
  query: { storeId: string; since: Date; until: Date; page: number; pageSize: number },
): Promise<{ total: number; rows: HistoryRow[] } | null> {
  const store = await db.selectFrom('stores').select('store_id').where('store_id', '=', query.storeId).where(storeVisibleTo(viewer)).executeTakeFirst();
  if (!store) return null;
  const scoped = db
    .selectFrom('report_history as h')
    .where('h.store_id', '=', query.storeId)
    .where('h.create_datetime', '>=', query.since)
    .where('h.create_datetime', '<=', query.until);
  const [count, rows] = await Promise.all([
    scoped.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
    scoped
      .select(HISTORY_COLUMNS)
      .orderBy('h.create_datetime', 'desc')
      .orderBy('h.history_no', 'desc')
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize)
      .execute(),
  ]);
  return { total: Number(count.n), rows };
}

export interface ReportFileInfo {
  storeId: string;
  historyNo: number;
  fileName: string;
  outputFormat: number;
  contentType: string | null;
  size: number;
  state: 'pending' | 'done' | 'failed';
}

/** A history row the viewer may see (by history_no, unique across stores), without its content. */
export async function getReportFileInfo(db: Db, viewer: Viewer, historyNo: number): Promise<ReportFileInfo | null> {
  const row = await db
    .selectFrom('report_history as h')
    .select([
      'h.store_id as storeId',
      'h.history_no as historyNo',
      'h.file_name as fileName',
      'h.output_format as outputFormat',
      'h.content_type as contentType',
      'h.state as state',
      sql<number>`coalesce(octet_length(h.content), 0)`.as('size'),
    ])
    .where('h.history_no', '=', historyNo)
    .where(visibleStoreExists(viewer, sql.ref('h.store_id')))
    .executeTakeFirst();
  return row ? { ...row, size: Number(row.size) } : null;
}

/** A part of a produced file (bytes offset to offset + length), for streaming it without holding it whole. */
export async function readReportChunk(db: Db, storeId: string, historyNo: number, offset: number, length: number): Promise<Buffer> {
  const row = await db
    .selectFrom('report_history')
    .select(sql<Buffer>`substring(content from ${offset + 1} for ${length})`.as('chunk'))
    .where('store_id', '=', storeId)
    .where('history_no', '=', historyNo)
    .executeTakeFirst();
  return row?.chunk ?? Buffer.alloc(0);
}

/** A produced file whole (the mail attachment). */
export async function readReportFile(db: Db, storeId: string, historyNo: number): Promise<{ fileName: string; contentType: string; content: Buffer } | null> {
  const row = await db
    .selectFrom('report_history')
    .select(['file_name', 'output_format', 'content_type', 'content'])
    .where('store_id', '=', storeId)
    .where('history_no', '=', historyNo)
    .where('state', '=', 'done')
    .executeTakeFirst();
  if (!row?.content) return null;
  return { fileName: downloadName(row.file_name, row.output_format), contentType: row.content_type ?? 'application/octet-stream', content: row.content };
}

// ---- the jobs -----------------------------------------------------------------------------------

/** What the worker needs to make a report: the setting as it was when the job was written. */
export interface ReportRequest {
  settingName: string;
  dataInterval: number | null;
  manualTimes: string[];
  option1: number;
  option2: number;
  equipmentIds: number[];
  mailFlg: number;
  mailAddresses: string[];
  attachmentFlg: number;
  createdByName: string | null;
}

export interface NewReportJob {
  storeId: string;
  settingNo: number | null;
  fileName: string;
  reportType: number;
  outputFormat: number;
  startTime: Date;
  endTime: Date;
  createdBy: number | null;
  request: ReportRequest;
  createdAt?: Date;
}

const jobRow = (job: NewReportJob) => ({
  store_id: job.storeId,
  setting_no: job.settingNo,
  file_name: job.fileName,
  report_type: job.reportType,
  output_format: job.outputFormat,
  start_time: job.startTime,
  end_time: job.endTime,
  created_by: job.createdBy,
  state: 'pending' as const,
  request: JSON.stringify(job.request),
  ...(job.createdAt ? { create_datetime: job.createdAt } : {}),
});

/** Writes a sequential report's job (its history row, 作成中). */
export async function insertReportJob(trx: Db, job: NewReportJob): Promise<number> {
  const row = await trx.insertInto('report_history').values(jobRow(job)).returning('history_no').executeTakeFirstOrThrow();
  return row.history_no;
}

/** Writes regular reports' jobs; a setting's period already written is skipped (the unique key). Returns how many were new. */
export async function insertRegularReportJobs(trx: Db, jobs: readonly NewReportJob[]): Promise<number> {
  if (jobs.length === 0) return 0;
  const rows = await trx
    .insertInto('report_history')
    .values(jobs.map(jobRow))
    .onConflict((oc) => oc.columns(['store_id', 'setting_no', 'start_time']).where('setting_no', 'is not', null).doNothing())
    .returning('history_no')
    .execute();
  return rows.length;
}

export interface ClaimedJob {
  storeId: string;
  historyNo: number;
  settingNo: number | null;
  fileName: string;
  reportType: number;
  outputFormat: number;
  startTime: Date;
  endTime: Date;
  createdBy: number | null;
  createdAt: Date;
  attempts: number;
  request: ReportRequest;
}

/**
 * The oldest pending job, locked for the transaction (FOR UPDATE SKIP LOCKED); null when none.
 * The claim lasts while the worker works: a transaction left idle past `idleLimitMs` (a worker
 * hung between two statements: its render never ends, its event loop is stuck) is ended by
 * PostgreSQL, which frees the row for another worker, instead of holding it for ever.
 */
export async function claimNextReportJob(trx: Db, formats: readonly number[], idleLimitMs: number): Promise<ClaimedJob | null> {
  if (formats.length === 0) return null;
  const row = await trx
    .selectFrom('report_history')
    .select([
      'store_id as storeId',
      'history_no as historyNo',
      'setting_no as settingNo',
      'file_name as fileName',
      'report_type as reportType',
      'output_format as outputFormat',
      'start_time as startTime',
      'end_time as endTime',
      'created_by as createdBy',
      'create_datetime as createdAt',
      'attempts',
      'request',
    ])
    .where('state', '=', 'pending')
    .where('output_format', 'in', [...formats])
    .orderBy('history_no')
    .limit(1)
    .forUpdate()
    .skipLocked()
    .executeTakeFirst();
  if (!row) return null;
  await sql`select set_config('idle_in_transaction_session_timeout', ${String(idleLimitMs)}, true)`.execute(trx);
  return { ...row, request: row.request as ReportRequest };
}

export async function completeReportJob(trx: Db, job: { storeId: string; historyNo: number }, file: { contentType: string; content: Buffer; at: Date }): Promise<void> {
  await trx
    .updateTable('report_history')
    .set({ state: 'done', content_type: file.contentType, content: file.content, finished_at: file.at, last_error: null })
    .where('store_id', '=', job.storeId)
    .where('history_no', '=', job.historyNo)
    .execute();
}

/**
 * Records a failed attempt of a job still pending (another worker may have made it meanwhile);
 * after `maxAttempts` the row turns 'failed' (shown as such).
 */
export async function failReportJob(db: Db, job: { storeId: string; historyNo: number }, error: string, maxAttempts: number): Promise<void> {
  await db
    .updateTable('report_history')
    .set((eb) => ({
      attempts: eb('attempts', '+', 1),
      last_error: error.slice(0, 500),
      state: sql<'pending' | 'failed'>`case when attempts + 1 >= ${maxAttempts} then 'failed' else 'pending' end`,
    }))
    .where('store_id', '=', job.storeId)
    .where('history_no', '=', job.historyNo)
    .where('state', '=', 'pending')
    .execute();
}

// ---- the regular settings ------------------------------------------------------------------------

export interface RegularReportRow {
  storeId: string;
  settingNo: number;
  settingName: string;
  fileName: string;
  reportType: number;
  regularReport: number;
  dataInterval: number | null;
  manualTimes: string[];
  startTime: Date;
  endTime: Date;
  outputFormat: number;
  mailFlg: number;
  option1: number;
  option2: number;
  option3: number;
  option4: number;
  option5: number;
  equipmentIds: number[];
  mailAddresses: string[];
  attachmentFlg: number;
  createdAt: Date;
  createdBy: number | null;
  createdByName: string | null;
}

function regularQuery(db: Db) {
  return db
    .selectFrom('regular_reports as r')
    .leftJoin('users as u', 'u.user_id', 'r.created_by')
    .select([
      'r.store_id as storeId',
      'r.setting_no as settingNo',
      'r.setting_name as settingName',
      'r.file_name as fileName',
      'r.report_type as reportType',
      'r.regular_report as regularReport',
      'r.data_interval as dataInterval',
      'r.manual_data_interval as manualTimes',
      'r.start_time as startTime',
      'r.end_time as endTime',
      'r.output_format as outputFormat',
      'r.mail_flg as mailFlg',
      'r.option1',
      'r.option2',
      'r.option3',
      'r.option4',
      'r.option5',
      'r.equipment_ids as equipmentIds',
      'r.mail_addresses as mailAddresses',
      'r.attachment_flg as attachmentFlg',
      'r.created_at as createdAt',
      'r.created_by as createdBy',
      'u.user_name as createdByName',
    ]);
}

/** A store's regular settings in setting order; null when the viewer may not see the store. */
export async function listRegularReports(db: Db, viewer: Viewer, storeId: string): Promise<RegularReportRow[] | null> {
  const store = await db.selectFrom('stores').select('store_id').where('store_id', '=', storeId).where(storeVisibleTo(viewer)).executeTakeFirst();
  if (!store) return null;
  return regularQuery(db).where('r.store_id', '=', storeId).orderBy('r.setting_no').execute();
}

export async function getRegularReport(db: Db, viewer: Viewer, storeId: string, settingNo: number): Promise<RegularReportRow | null> {
  const row = await regularQuery(db)
    .where('r.store_id', '=', storeId)
    .where('r.setting_no', '=', settingNo)
    .where(visibleStoreExists(viewer, storeId))
    .executeTakeFirst();
  return row ?? null;
}

/** Locks the store's settings (the count limit under concurrent saves) and returns how many there are. */
export async function lockRegularReports(trx: Db, storeId: string): Promise<number> {
  await trx.selectFrom('stores').select('store_id').where('store_id', '=', storeId).forUpdate().execute();
  const row = await trx.selectFrom('regular_reports').select((eb) => eb.fn.countAll<string>().as('n')).where('store_id', '=', storeId).executeTakeFirstOrThrow();
  return Number(row.n);
}

const settingColumns = (input: ReportSave) => ({
  setting_name: input.setting_name,
  file_name: input.file_name,
  report_type: input.report_type,
  regular_report: input.regular_report,
  data_interval: input.data_interval,
  manual_data_interval: input.manual_data_interval,
  start_time: input.start_time,
  end_time: input.end_time,
  output_format: input.output_format,
  mail_flg: input.mail_flg,
  option1: input.option1,
  option2: input.option2,
  option3: input.option3,
  option4: input.option4,
  option5: input.option5,
  equipment_ids: input.equipment_ids,
  mail_addresses: input.mail_addresses,
  attachment_flg: input.attachment_flg,
});

export async function insertRegularReport(trx: Db, input: ReportSave, userId: number, now: Date): Promise<number> {
  const row = await trx
    .insertInto('regular_reports')
    .values({ store_id: input.store_id, ...settingColumns(input), created_by: userId, created_at: now, updated_at: now })
    .returning('setting_no')
    .executeTakeFirstOrThrow();
  return row.setting_no;
}

export async function updateRegularReport(trx: Db, input: ReportSave & { setting_no: number }, now: Date): Promise<void> {
  await trx
    .updateTable('regular_reports')
    .set({ ...settingColumns(input), updated_at: now })
    .where('store_id', '=', input.store_id)
    .where('setting_no', '=', input.setting_no)
    .execute();
}

export async function deleteRegularReport(trx: Db, storeId: string, settingNo: number): Promise<void> {
  await trx.deleteFrom('regular_reports').where('store_id', '=', storeId).where('setting_no', '=', settingNo).execute();
}

/** Every regular setting of the stores that are not removed, for the schedule (no viewer: the worker). */
export async function listDueRegularSettings(db: Db): Promise<RegularReportRow[]> {
  return regularQuery(db)
    .innerJoin('stores as s', 's.store_id', 'r.store_id')
    .where((eb) => eb.or([eb('s.working_state', 'is', null), eb('s.working_state', '!=', 2)]))
    .orderBy('r.store_id')
    .orderBy('r.setting_no')
    .execute();
}

// ---- what collection reads ------------------------------------------------------------------

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
  // One READING_RECORD_BYTES record per reading (readReadingRecord), sent as base64 like the
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
    const packed = Buffer.from(row.packed, 'base64');
    const view = new DataView(packed.buffer, packed.byteOffset, packed.byteLength);
    const n = packed.byteLength / READING_RECORD_BYTES;
    const series: ReadingSeries = { length: n, at: new Float64Array(n), temperature: new Float64Array(n), error: new Uint8Array(n) };
    for (let i = 0; i < n; i++) readReadingRecord(view, i * READING_RECORD_BYTES, series, i);
    out.set(row.equipmentId, series);
  }
  return out;
}

/** A reading's record: its instant, its temperature (NaN when none), and 1 for an error, 2 for an empty reading. */
const READING_RECORD_BYTES = 14;

function readReadingRecord(view: DataView, at: number, series: ReadingSeries, i: number): void {
  series.at[i] = instantAt(view, at);
  series.error[i] = view.getInt16(at + 12) === 1 ? 1 : 0;
  series.temperature[i] = series.error[i] === 1 ? NaN : realAt(view, at + 8);
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
  // One record per bucket, BUCKET_RECORD_BYTES long, in the order readBucketRecord reads it (a null
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
    const packed = Buffer.from(row.packed, 'base64');
    const view = new DataView(packed.buffer, packed.byteOffset, packed.byteLength);
    const series = emptyBuckets(packed.byteLength / BUCKET_RECORD_BYTES);
    const order = recordsInTimeOrder(view, series.length);
    for (let i = 0; i < series.length; i++) readBucketRecord(view, order[i] * BUCKET_RECORD_BYTES, series, i);
    out.set(row.equipmentId, series);
  }
  return out;
}

const BUCKET_RECORD_BYTES = 54;

/** PostgreSQL's timestamp epoch (2000-01-01 UTC) in Unix ms. */
const PG_EPOCH_MS = 946_684_800_000;

const int64At = (view: DataView, at: number) => view.getInt32(at) * 4_294_967_296 + view.getUint32(at + 4);
const instantAt = (view: DataView, at: number) => PG_EPOCH_MS + Math.round(int64At(view, at) / 1000);

/** The records' indexes in bucket order: as they came when already in order (the index scan's), sorted otherwise. */
export function recordsInTimeOrder(view: DataView, count: number): Int32Array {
  const order = new Int32Array(count);
  const instants = new Float64Array(count);
  let sorted = true;
  for (let i = 0; i < count; i++) {
    order[i] = i;
    instants[i] = int64At(view, i * BUCKET_RECORD_BYTES);
    if (i > 0 && instants[i] < instants[i - 1]) sorted = false;
  }
  return sorted ? order : order.sort((a, b) => instants[a] - instants[b]);
}

/**
 * A real as the number its text would give (float4out prints the shortest decimal that reads back
 * as the same real, so 4.1 is 4.1 and not the real's 4.099999904…): temperatures are tenths, so
 * that decimal is the nearest tenth whenever the tenth reads back as the same real.
 */
function realAt(view: DataView, at: number): number {
  const real = view.getFloat32(at);
  if (Number.isNaN(real)) return NaN;
  const tenth = Math.round(real * 10) / 10;
  if (Math.abs(real) < 100_000 && Math.fround(tenth) === real) return tenth;
  for (let digits = 1; ; digits++) {
    const shortest = Number(real.toPrecision(digits));
    if (Math.fround(shortest) === real) return shortest;
  }
}

function readBucketRecord(view: DataView, at: number, series: BucketSeries, i: number): void {
  series.bucket[i] = instantAt(view, at);
  series.gaps[i] = view.getInt32(at + 8);
  series.count[i] = view.getInt32(at + 12);
  series.tenths[i] = int64At(view, at + 16);
  series.min[i] = realAt(view, at + 24);
  series.minAt[i] = Number.isNaN(series.min[i]) ? NaN : instantAt(view, at + 28);
  series.max[i] = realAt(view, at + 36);
  series.maxAt[i] = Number.isNaN(series.max[i]) ? NaN : instantAt(view, at + 40);
  series.markTemperature[i] = realAt(view, at + 48);
  const markError = view.getInt16(at + 52);
  series.markError[i] = markError < 0 ? NaN : markError;
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
    .select([
      'a.equipment_id as equipmentId',
      'a.alert_id as alertId',
      'a.started_at as startedAt',
      'a.recovered_at as recoveredAt',
      'a.stopped_at as stoppedAt',
      'u.user_name as stoppedBy',
      'a.stop_comment as stopComment',
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
