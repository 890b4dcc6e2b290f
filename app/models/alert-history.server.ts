import { sql } from 'kysely';
import type { Db } from '~/db/db.server';
import { formatTemperature } from '~/domain/format';
import type { AlertCode, Language } from '~/domain/alert-codes';
import type { TransitionType } from '~/domain/alert-engine';
import { csvDocument } from '~/domain/csv';
import {
  ALERT_HISTORY_CSV_MAX_ROWS,
  type AlertHistoryPageQuery,
  type AlertHistoryRecord,
  type DateRange,
  type MenuSensor,
  alertHistoryCsvRows,
  isStoppable,
  resolveCategory,
} from '~/domain/alert-history';
import { canViewStore, storeVisibleTo } from './stores.server';
import type { Viewer } from './users.server';

// The alert history of the stores a viewer may see: one page (two indexed queries), a bounded
// CSV export, the sensors of the category menu, the statements of the stop transaction, and the
// batched write of the alert engine's transitions.

export interface AlertHistoryFilter {
  /** The store to list; null lists the equipment ids wherever they are (the API's equipment_id). */
  storeId: string | null;
  /** The sensors; null is the whole store, its store-level gateway alerts included. */
  equipmentIds: number[] | null;
  /** null: any time (the open alerts, served by the partial index alert_history_active). */
  range: Pick<DateRange, 'from' | 'to'> | null;
}

function filtered(db: Db, viewer: Viewer, filter: AlertHistoryFilter) {
  let query = db
    .selectFrom('alert_history as h')
    .innerJoin('stores', 'stores.store_id', 'h.store_id')
    .where(storeVisibleTo(viewer));
  if (filter.range !== null) query = query.where('h.started_at', '>=', filter.range.from).where('h.started_at', '<', filter.range.to);
  if (filter.storeId !== null) query = query.where('h.store_id', '=', filter.storeId);
  if (filter.equipmentIds !== null) {
    // An empty category (a kind without sensors) lists nothing.
    query = filter.equipmentIds.length === 0 ? query.where(sql<boolean>`false`) : query.where('h.equipment_id', 'in', filter.equipmentIds);
  }
  return query;
}

/** Whether no later row exists for the same equipment and alert (served by index alert_history_equipment). */
const latestOfPair = sql<boolean>`not exists (
  select 1 from alert_history n
  where n.equipment_id = h.equipment_id and n.store_id = h.store_id and n.alert_id = h.alert_id
    and (n.started_at, n.alert_history_id) > (h.started_at, h.alert_history_id))`;

function selectRecords(db: Db, viewer: Viewer, filter: AlertHistoryFilter) {
  return filtered(db, viewer, filter)
    .leftJoin('sensors as s', (join) => join.onRef('s.store_id', '=', 'h.store_id').onRef('s.equipment_id', '=', 'h.equipment_id'))
    .leftJoin('users as u', 'u.user_id', 'h.stopped_by')
    .leftJoin('users as ack', 'ack.user_id', 'h.acknowledged_by')
    .select([
      'h.alert_history_id',
      'h.store_id',
      'h.equipment_id',
      's.equipment_name',
      'h.alert_id',
      'h.alert_data1',
      'h.temperature',
      'h.simulated_temperature',
      'h.lower_limit',
      'h.upper_limit',
      'h.started_at',
      'h.recovered_at',
      'h.stopped_at',
      'u.user_name as stopped_by_name',
      'h.stop_comment',
      'h.acknowledged_at',
      'ack.user_name as acknowledged_by_name',
      'h.corrective_action',
      'h.acknowledge_note',
      latestOfPair.as('latest_of_pair'),
    ])
    .orderBy('h.started_at', 'desc')
    .orderBy('h.alert_history_id', 'desc');
}

type Row = Awaited<ReturnType<ReturnType<typeof selectRecords>['execute']>>[number];

function toRecord(row: Row): AlertHistoryRecord {
  return {
    alertHistoryId: row.alert_history_id,
    storeId: row.store_id,
    equipmentId: row.equipment_id,
    equipmentName: row.equipment_name,
    alertId: row.alert_id,
    alertData1: row.alert_data1,
    temperature: row.temperature,
    simulatedTemperature: row.simulated_temperature,
    lowerLimit: row.lower_limit,
    upperLimit: row.upper_limit,
    startedAt: row.started_at,
    recoveredAt: row.recovered_at,
    stoppedAt: row.stopped_at,
    stoppedByName: row.stopped_by_name,
    stopComment: row.stop_comment,
    acknowledgedAt: row.acknowledged_at,
    acknowledgedByName: row.acknowledged_by_name,
    correctiveAction: row.corrective_action,
    acknowledgeNote: row.acknowledge_note,
    latestOfPair: Boolean(row.latest_of_pair),
  };
}

export interface AlertHistoryPage {
  allCount: number;
  records: AlertHistoryRecord[];
}

/** One page, newest first. */
export async function listAlertHistory(db: Db, viewer: Viewer, filter: AlertHistoryFilter, page: { pageNo: number; pageCount: number }): Promise<AlertHistoryPage> {
  const [count, rows] = await Promise.all([
    filtered(db, viewer, filter).select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
    selectRecords(db, viewer, filter)
      .limit(page.pageCount)
      .offset((page.pageNo - 1) * page.pageCount)
      .execute(),
  ]);
  return { allCount: count.n, records: rows.map(toRecord) };
}

/** The whole range for the CSV, newest first, at most ALERT_HISTORY_CSV_MAX_ROWS rows. */
export async function exportAlertHistory(db: Db, viewer: Viewer, filter: AlertHistoryFilter): Promise<AlertHistoryRecord[]> {
  const rows = await selectRecords(db, viewer, filter).limit(ALERT_HISTORY_CSV_MAX_ROWS).execute();
  return rows.map(toRecord);
}

/** A bound for a store in trouble: far more than any screen lists (a sensor has at most a handful of codes). */
const OPEN_ALERTS_MAX = 200;

/**
 * The alerts a user could stop now (isStoppable: active, not stopped, the latest of their pair) of
 * some sensors of a store, newest first: what the sensor pop-up and the graph offer to stop.
 */
export async function listStoppableAlerts(db: Db, viewer: Viewer, storeId: string, equipmentIds: number[] | null): Promise<AlertHistoryRecord[]> {
  const rows = await selectRecords(db, viewer, { storeId, equipmentIds, range: null })
    .where('h.recovered_at', 'is', null)
    .where('h.stopped_at', 'is', null)
    .where('h.equipment_id', 'is not', null)
    .limit(OPEN_ALERTS_MAX)
    .execute();
  return rows.map(toRecord).filter(isStoppable);
}

/** The acknowledged alerts of some sensors that were open at some time in [since, until]: the graph's list of actions taken. */
export async function listAcknowledgedAlerts(db: Db, viewer: Viewer, storeId: string, equipmentIds: number[], period: { since: Date; until: Date }): Promise<AlertHistoryRecord[]> {
  const rows = await selectRecords(db, viewer, { storeId, equipmentIds, range: null })
    .where('h.acknowledged_at', 'is not', null)
    .where('h.started_at', '<=', period.until)
    .where((eb) => eb.or([eb('h.recovered_at', 'is', null), eb('h.recovered_at', '>=', period.since)]))
    .limit(OPEN_ALERTS_MAX)
    .execute();
  return rows.map(toRecord);
}

/** One history row of a store the viewer may see (the stop dialog opened from elsewhere than its page of the list). */
export async function findAlertRecord(db: Db, viewer: Viewer, storeId: string, alertHistoryId: number): Promise<AlertHistoryRecord | null> {
  const row = await selectRecords(db, viewer, { storeId, equipmentIds: null, range: null }).where('h.alert_history_id', '=', alertHistoryId).executeTakeFirst();
  return row ? toRecord(row) : null;
}

/** The CSV file: UTF-8 with a BOM so that Excel reads the Japanese text. */
export async function alertHistoryCsv(db: Db, viewer: Viewer, filter: AlertHistoryFilter, language: Language): Promise<string> {
  const records = await exportAlertHistory(db, viewer, filter);
  return csvDocument(alertHistoryCsvRows(records, language));
}

/**
 * The sensors among `equipmentIds` that the viewer may see (in `storeId` when given). Callers
 * answer 404 unless every id comes back, so an unknown sensor and another chain's look the same.
 */
export async function findVisibleSensors(db: Db, viewer: Viewer, equipmentIds: number[], storeId: string | null): Promise<{ equipmentId: number; storeId: string }[]> {
  if (equipmentIds.length === 0) return [];
  let query = db
    .selectFrom('sensors as s')
    .innerJoin('stores', 'stores.store_id', 's.store_id')
    .select(['s.equipment_id as equipmentId', 's.store_id as storeId'])
    .where('s.equipment_id', 'in', equipmentIds)
    .where(storeVisibleTo(viewer));
  if (storeId !== null) query = query.where('s.store_id', '=', storeId);
  return query.execute();
}

/**
 * The filter of an API query, or null (404) when the store or one of the sensors does not exist
 * or is not the viewer's: nothing tells the two apart.
 */
export async function resolveApiFilter(
  db: Db,
  viewer: Viewer,
  query: { storeId: string | null; equipmentIds: number[] | null; range: DateRange },
): Promise<AlertHistoryFilter | null> {
  if (query.storeId !== null && !(await canViewStore(db, viewer, query.storeId))) return null;
  if (query.equipmentIds !== null && query.equipmentIds.length > 0) {
    const found = await findVisibleSensors(db, viewer, query.equipmentIds, query.storeId);
    if (found.length !== query.equipmentIds.length) return null;
  }
  return { storeId: query.storeId, equipmentIds: query.equipmentIds && query.equipmentIds.length > 0 ? query.equipmentIds : null, range: query.range };
}

/** The console page's filter: its category (all, a furniture kind, some sensors) resolved against the store's sensors. */
export async function resolvePageFilter(db: Db, viewer: Viewer, storeId: string, query: AlertHistoryPageQuery) {
  const sensors = await listMenuSensors(db, viewer, storeId);
  const { selection, equipmentIds } = resolveCategory(query, sensors);
  const filter: AlertHistoryFilter = { storeId, equipmentIds, range: query.range };
  return { sensors, selection, filter };
}

/** The store's sensors for the category menu. */
export async function listMenuSensors(db: Db, viewer: Viewer, storeId: string): Promise<MenuSensor[]> {
  return db
    .selectFrom('sensors as s')
    .innerJoin('stores', 'stores.store_id', 's.store_id')
    .select(['s.equipment_id as equipmentId', 's.equipment_name as equipmentName', 's.icon_kind as iconKind', 's.location_no as locationNo'])
    .where('s.store_id', '=', storeId)
    .where(storeVisibleTo(viewer))
    .orderBy('s.icon_kind')
    .orderBy('s.location_no')
    .orderBy('s.equipment_id')
    .execute();
}

// ---- the stop transaction's statements (app/services/alert-stop.server.ts runs them) -------

export interface OpenAlertRow {
  alertHistoryId: number;
  stoppedAt: Date | null;
  stoppedBy: number | null;
  stopComment: string | null;
}

/** The active (unrecovered) history row of a sensor's alert, locked; the newest should there ever be two. */
export async function lockOpenAlert(trx: Db, storeId: string, equipmentId: number, alertId: string): Promise<OpenAlertRow | undefined> {
  return trx
    .selectFrom('alert_history')
    .select(['alert_history_id as alertHistoryId', 'stopped_at as stoppedAt', 'stopped_by as stoppedBy', 'stop_comment as stopComment'])
    .where('store_id', '=', storeId)
    .where('equipment_id', '=', equipmentId)
    .where('alert_id', '=', alertId)
    .where('recovered_at', 'is', null)
    .orderBy('started_at', 'desc')
    .orderBy('alert_history_id', 'desc')
    .limit(1)
    .forUpdate()
    .executeTakeFirst();
}

export async function markAlertStopped(trx: Db, storeId: string, alertHistoryId: number, stop: { at: Date; by: number; comment: string | null }): Promise<void> {
  await trx
    .updateTable('alert_history')
    .set({ stopped_at: stop.at, stopped_by: stop.by, stop_comment: stop.comment })
    .where('store_id', '=', storeId)
    .where('alert_history_id', '=', alertHistoryId)
    .execute();
}

/** When each of the store's given alerts opened, by history id (recovery mails say how long it lasted). */
export async function alertOpenTimes(trx: Db, storeId: string, alertHistoryIds: readonly number[]): Promise<Map<number, Date>> {
  if (alertHistoryIds.length === 0) return new Map();
  const rows = await trx
    .selectFrom('alert_history')
    .select(['alert_history_id as id', 'started_at as startedAt'])
    .where('store_id', '=', storeId)
    .where('alert_history_id', 'in', [...alertHistoryIds])
    .execute();
  return new Map(rows.map((row) => [Number(row.id), row.startedAt]));
}

export async function userName(trx: Db, userId: number | null): Promise<string | null> {
  if (userId === null) return null;
  const row = await trx.selectFrom('users').select('user_name').where('user_id', '=', userId).executeTakeFirst();
  return row?.user_name ?? null;
}

// ---- the alert engine's transitions (app/services/alert-persister.server.ts) ---------------

/** A transition as history records it; equipmentId null is the store-level gateway alert. */
export interface HistoryTransition {
  equipmentId: number | null;
  type: TransitionType;
  code: AlertCode;
  at: Date;
  notify: boolean;
  temperature: number | null;
  /** A temperature alert's simulated (damped) value, the one checked against the limits (decision 278). */
  simulatedTemperature: number | null;
  lowerLimit: number | null;
  upperLimit: number | null;
  /** alert_data1 when it is not the temperature (OE00000007: how many readings were lost). */
  data1?: string | null;
}

interface NewRow {
  transition: HistoryTransition;
  recoveredAt: Date | null;
  lastNotifiedAt: Date | null;
}

interface OpenRowUpdate {
  equipmentId: number | null;
  code: AlertCode;
  recoveredAt: Date | null;
  lastNotifiedAt: Date | null;
}

/** Which row a transition lands on: one opened in this batch, one already open, or none (a recovered alert). */
type Target = { row: NewRow } | { update: OpenRowUpdate } | null;

const alertKey = (equipmentId: number | null, code: string) => `${equipmentId ?? ''}|${code}`;

/**
 * Writes the history of a store's transitions, given in the engine's order, in at most two
 * statements: one update of the alerts already open (recovery, re-notification), then one insert
 * of the alerts opened here, into which their later transitions are folded. Returns each
 * transition's history row, or null when there is none to speak of (no open row).
 */
export async function writeAlertHistory(trx: Db, storeId: string, transitions: readonly HistoryTransition[]): Promise<(number | null)[]> {
  const newRows: NewRow[] = [];
  const updates = new Map<string, OpenRowUpdate>();
  const current = new Map<string, Target>();
  const targets = transitions.map((transition): Target => {
    const key = alertKey(transition.equipmentId, transition.code);
    if (transition.type === 'open') {
      const row = { transition, recoveredAt: null, lastNotifiedAt: transition.notify ? transition.at : null };
      newRows.push(row);
      current.set(key, { row });
      return { row };
    }
    let target = current.get(key);
    if (target === undefined) {
      const update = { equipmentId: transition.equipmentId, code: transition.code, recoveredAt: null, lastNotifiedAt: null };
      updates.set(key, update);
      target = { update };
    }
    if (target === null) return null;
    const written = 'row' in target ? target.row : target.update;
    if (transition.type === 'recover') written.recoveredAt = transition.at;
    else written.lastNotifiedAt = transition.at;
    current.set(key, transition.type === 'recover' ? null : target);
    return target;
  });
  const updatedIds = await updateOpenAlerts(trx, storeId, [...updates.values()]);
  const insertedIds = await insertAlerts(trx, storeId, newRows);
  return targets.map((target) => {
    if (target === null) return null;
    if ('row' in target) return insertedIds.get(target.row) ?? null;
    return updatedIds.get(alertKey(target.update.equipmentId, target.update.code)) ?? null;
  });
}

async function updateOpenAlerts(trx: Db, storeId: string, updates: OpenRowUpdate[]): Promise<Map<string, number>> {
  if (updates.length === 0) return new Map();
  const { rows } = await sql<{ alert_history_id: number; equipment_id: number | null; alert_id: string }>`
    update alert_history as h
    set recovered_at = coalesce(v.recovered_at, h.recovered_at), last_notified_at = coalesce(v.last_notified_at, h.last_notified_at)
    from unnest(
      ${updates.map((u) => u.equipmentId)}::int[],
      ${updates.map((u) => u.code)}::varchar[],
      ${updates.map((u) => u.recoveredAt?.toISOString() ?? null)}::timestamptz[],
      ${updates.map((u) => u.lastNotifiedAt?.toISOString() ?? null)}::timestamptz[]
    ) as v(equipment_id, alert_id, recovered_at, last_notified_at)
    where h.store_id = ${storeId} and h.recovered_at is null
      and h.equipment_id is not distinct from v.equipment_id and h.alert_id = v.alert_id
    returning h.alert_history_id, h.equipment_id, h.alert_id`.execute(trx);
  const ids = new Map<string, number>();
  for (const row of rows) {
    const key = alertKey(row.equipment_id, row.alert_id);
    if (!ids.has(key)) ids.set(key, Number(row.alert_history_id));
  }
  return ids;
}

async function insertAlerts(trx: Db, storeId: string, rows: NewRow[]): Promise<Map<NewRow, number>> {
  if (rows.length === 0) return new Map();
  const inserted = await trx
    .insertInto('alert_history')
    .values(
      rows.map(({ transition, recoveredAt, lastNotifiedAt }) => ({
        store_id: storeId,
        equipment_id: transition.equipmentId,
        alert_id: transition.code,
        alert_data1: transition.data1 ?? alertData(transition.code, transition.temperature),
        temperature: transition.temperature,
        simulated_temperature: transition.simulatedTemperature,
        lower_limit: transition.lowerLimit,
        upper_limit: transition.upperLimit,
        started_at: transition.at,
        recovered_at: recoveredAt,
        last_notified_at: lastNotifiedAt,
      })),
    )
    .returning(['alert_history_id', 'equipment_id', 'alert_id', 'started_at'])
    .execute();
  // An alert opens at most once per instant: (sensor, code, start) names the row.
  const idOf = new Map(inserted.map((row) => [`${alertKey(row.equipment_id, row.alert_id)}|${row.started_at.getTime()}`, row.alert_history_id]));
  return new Map(rows.map((row) => [row, idOf.get(`${alertKey(row.transition.equipmentId, row.transition.code)}|${row.transition.at.getTime()}`)!]));
}

/** alert_data1: the temperature text, or ERROR for a sensor error (000 §3). */
function alertData(code: AlertCode, temperature: number | null): string | null {
  if (code === 'OE00000004') return 'ERROR';
  return temperature === null ? null : formatTemperature(temperature);
}
