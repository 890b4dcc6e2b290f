import { sql } from 'kysely';
import type { Db } from '~/db/db.server';
import { downloadName } from '~/domain/report-form';
import { storeVisibleTo, visibleStoreExists } from './stores.server';
import type { Viewer } from './users.server';

// report_history: a store's report history, each row also the job that makes its file (claimed by
// the report workers, completed or failed). Store-scoped reads filter by the viewer's visibility in
// their where; the worker's reads (no viewer) name the store they serve.


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

/**
 * A history row the viewer may see (by history_no, unique across stores), without its content.
 * The store first, then the row by its store: Citus plans no correlated subquery on the
 * reference table `stores` in a query over every shard.
 */
export async function getReportFileInfo(db: Db, viewer: Viewer, historyNo: number): Promise<ReportFileInfo | null> {
  const located = await db.selectFrom('report_history').select('store_id').where('history_no', '=', historyNo).executeTakeFirst();
  if (!located) return null;
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
    .where('h.store_id', '=', located.store_id)
    .where('h.history_no', '=', historyNo)
    .where(visibleStoreExists(viewer, located.store_id))
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
  /** Whether the raw values follow as an appendix; absent in requests made before the setting existed (they had it). */
  appendix?: boolean;
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

/** A history row as the worker claims it: the row's fields but its state (pending while claimed), with what making it needs. */
export interface ClaimedJob extends Omit<HistoryRow, 'state'> {
  storeId: string;
  createdBy: number | null;
  attempts: number;
  request: ReportRequest;
}

/** How many of the oldest pending jobs a claim tries before it says there is none free. */
const CLAIM_CANDIDATES = 16;

/**
 * The oldest pending job, locked for the transaction (FOR UPDATE SKIP LOCKED); null when none.
 * The claim lasts while the worker works: a transaction left idle past `idleLimitMs` (a worker
 * hung between two statements: its render never ends, its event loop is stuck) is ended by
 * PostgreSQL, which frees the row for another worker, instead of holding it for ever.
 * Two steps: the oldest candidates read unlocked across every store, then each locked by its
 * key until one is free and still pending. Citus refuses FOR UPDATE over several shards; a lock
 * by key goes to one (decision 301).
 */
export async function claimNextReportJob(trx: Db, formats: readonly number[], idleLimitMs: number): Promise<ClaimedJob | null> {
  if (formats.length === 0) return null;
  const candidates = await trx
    .selectFrom('report_history')
    .select(['store_id', 'history_no'])
    .where('state', '=', 'pending')
    .where('output_format', 'in', [...formats])
    // Regular reports first, then one-off reports round-robin between stores: a store's n-th
    // report of the hour before it (made or waiting) comes after every store's (n-1)-th, so one
    // store's burst delays only itself (decision 244; report_history_created serves the count).
    .orderBy(sql`setting_no is null`)
    .orderBy(
      sql`case when setting_no is null then (
        select count(*) from report_history earlier
        where earlier.store_id = report_history.store_id and earlier.setting_no is null
          and earlier.create_datetime > report_history.create_datetime - interval '1 hour' and earlier.history_no < report_history.history_no
      ) end`,
    )
    .orderBy('history_no')
    .limit(CLAIM_CANDIDATES)
    .execute();
  for (const candidate of candidates) {
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
      .where('store_id', '=', candidate.store_id)
      .where('history_no', '=', candidate.history_no)
      .where('state', '=', 'pending')
      .forUpdate()
      .skipLocked()
      .executeTakeFirst();
    if (!row) continue; // another worker has it, or made it meanwhile
    await sql`select set_config('idle_in_transaction_session_timeout', ${String(idleLimitMs)}, true)`.execute(trx);
    return { ...row, request: row.request as ReportRequest };
  }
  return null;
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

/** One-off reports still waiting to be made: the store's and, of them, the user's. */
export async function countQueuedReports(trx: Db, storeId: string, userId: number): Promise<{ store: number; user: number }> {
  const row = await trx
    .selectFrom('report_history')
    .select((eb) => [
      eb.fn.count<string>(sql`case when store_id = ${storeId} then 1 end`).as('store'),
      eb.fn.count<string>(sql`case when created_by = ${userId} then 1 end`).as('user'),
    ])
    .where('state', '=', 'pending')
    .where('setting_no', 'is', null)
    .where((eb) => eb.or([eb('store_id', '=', storeId), eb('created_by', '=', userId)]))
    .executeTakeFirstOrThrow();
  return { store: Number(row.store), user: Number(row.user) };
}
