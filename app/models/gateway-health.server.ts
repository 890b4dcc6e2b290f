import { type SqlBool, sql } from 'kysely';
import type { Db } from '~/db/db.server';
import {
  type CheckedHealthReport,
  GATEWAY_LIST_PAGE_SIZE,
  type GatewayHealthView,
  type GatewayListQuery,
  type HealthAlarmState,
  gatewayListFlags,
  isWeakSignal,
} from '~/domain/gateway-health';
import { parseCompact } from '~/domain/japan-time';
import { storeVisibleTo } from './stores.server';
import type { Viewer } from './users.server';

// The gateway health tables (migrations 2026-11-24-50 and -76): the latest report per store with
// the state of its two alarms and the list's filter facts, 30 days of history, and the ゲートウェイ一覧 query.

/** The alarm state kept with the latest report, under the caller's store lock. */
export async function getHealthAlarmState(trx: Db, storeId: string): Promise<HealthAlarmState | null> {
  const row = await trx
    .selectFrom('gateway_health')
    .select(['buffer_alarm', 'loss_alarm', 'dropped_total'])
    .where('store_id', '=', storeId)
    .executeTakeFirst();
  return row ? { bufferAlarm: row.buffer_alarm, lossAlarm: row.loss_alarm, droppedTotal: row.dropped_total } : null;
}

/** Stores the report as the latest (with the alarm state) and in the history, and the store's LTE signal (000 §3 receive_sensitivity). */
export async function saveHealthReport(trx: Db, storeId: string, report: CheckedHealthReport, alarms: HealthAlarmState, receivedAt: Date): Promise<void> {
  const columns = {
    store_id: storeId,
    reported_at: parseCompact(report.reported_at)!,
    received_at: receivedAt,
    version: report.version,
    uptime_seconds: report.uptime_seconds,
    buffer_depth: report.buffer_depth,
    buffer_capacity: report.buffer_capacity,
    oldest_unsent_at: report.oldest_unsent_at === null ? null : parseCompact(report.oldest_unsent_at),
    disk_free_bytes: report.disk_free_bytes,
    disk_total_bytes: report.disk_total_bytes,
    ble_adapter: report.ble_adapter,
    sensors_heard: report.sensors_heard,
    lte_rssi: report.lte_rssi === null ? null : Math.round(report.lte_rssi),
    dropped_total: report.dropped_total,
  };
  const latest = { ...columns, ...gatewayListFlags(columns), buffer_alarm: alarms.bufferAlarm, loss_alarm: alarms.lossAlarm };
  await trx
    .insertInto('gateway_health')
    .values(latest)
    .onConflict((oc) => oc.column('store_id').doUpdateSet(latest))
    .execute();
  await trx.insertInto('gateway_health_history').values(columns).onConflict((oc) => oc.columns(['store_id', 'received_at']).doNothing()).execute();
  await trx.updateTable('stores').set({ receive_sensitivity: columns.lte_rssi }).where('store_id', '=', storeId).execute();
}

/**
 * Recomputes every latest report's list flags, for reports written in bulk by SQL (the demo seed,
 * the bench) rather than by saveHealthReport: the rule stays in gatewayListFlags alone.
 */
export async function refreshGatewayListFlags(db: Db): Promise<void> {
  const rows = await db.selectFrom('gateway_health').select(['store_id', 'buffer_depth', 'buffer_capacity', 'lte_rssi']).execute();
  const flags = rows.map(gatewayListFlags);
  await sql`
    update gateway_health h set buffer_over_half = f.buffer_over_half, weak_signal = f.weak_signal
    from unnest(${rows.map((row) => row.store_id)}::text[], ${flags.map((f) => f.buffer_over_half)}::boolean[], ${flags.map((f) => f.weak_signal)}::boolean[])
      as f(store_id, buffer_over_half, weak_signal)
    where h.store_id = f.store_id and (h.buffer_over_half, h.weak_signal) is distinct from (f.buffer_over_half, f.weak_signal)
  `.execute(db);
}

/** Deletes history older than `before`; how many rows went. */
export async function purgeHealthHistory(db: Db, before: Date): Promise<number> {
  const result = await db.deleteFrom('gateway_health_history').where('received_at', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}

// Last contact: the later of a reading batch and a health report.
const LAST_CONTACT = sql<Date | null>`greatest(stores.last_gateway_contact_at, h.received_at)`;
// Offline: the gateway-down flag, or never heard from (no batch and no report). Written so that
// stores_gateway_offline (gateway_down or never a batch) serves it as a filter: the planner takes
// `gateway_down or not gateway_contacted` out of the OR for the stores scan.
const OFFLINE = sql<SqlBool>`(stores.gateway_down or (not stores.gateway_contacted and h.store_id is null))`;
// A store without a report has an unknown signal, which counts as the rule says for null.
const WEAK_SIGNAL = sql<SqlBool>`coalesce(h.weak_signal, ${sql.lit(isWeakSignal(null))})`;

function healthColumns() {
  return [
    'stores.store_id',
    'stores.store_no',
    'stores.store_name',
    'stores.gateway_info',
    LAST_CONTACT.as('last_contact_at'),
    OFFLINE.as('offline'),
    'h.reported_at',
    'h.version',
    'h.uptime_seconds',
    'h.buffer_depth',
    'h.buffer_capacity',
    'h.oldest_unsent_at',
    'h.disk_free_bytes',
    'h.disk_total_bytes',
    'h.ble_adapter',
    'h.sensors_heard',
    'h.lte_rssi',
    'h.dropped_total',
    sql<boolean>`coalesce(h.buffer_alarm, false)`.as('buffer_alarm'),
    sql<boolean>`coalesce(h.loss_alarm, false)`.as('loss_alarm'),
  ] as const;
}

type HealthRow = {
  store_id: string;
  store_no: string;
  store_name: string;
  gateway_info: string | null;
  last_contact_at: Date | null;
  offline: boolean;
  reported_at: Date | null;
  version: string | null;
  uptime_seconds: number | null;
  buffer_depth: number | null;
  buffer_capacity: number | null;
  oldest_unsent_at: Date | null;
  disk_free_bytes: number | null;
  disk_total_bytes: number | null;
  ble_adapter: string | null;
  sensors_heard: number | null;
  lte_rssi: number | null;
  dropped_total: number | null;
  buffer_alarm: boolean;
  loss_alarm: boolean;
};

const iso = (date: Date | null) => (date === null ? null : new Date(date).toISOString());

function toView(row: HealthRow): GatewayHealthView {
  return { ...row, last_contact_at: iso(row.last_contact_at), reported_at: iso(row.reported_at), oldest_unsent_at: iso(row.oldest_unsent_at) };
}

/** One store's gateway health for the store management card; null when the viewer may not see the store. */
export async function getStoreGatewayHealth(db: Db, viewer: Viewer, storeId: string): Promise<GatewayHealthView | null> {
  const row = await db
    .selectFrom('stores')
    .leftJoin('gateway_health as h', 'h.store_id', 'stores.store_id')
    .select(healthColumns())
    .where('stores.store_id', '=', storeId)
    .where(storeVisibleTo(viewer))
    .executeTakeFirst();
  return row ? toView(row as HealthRow) : null;
}

const SORT_EXPRESSIONS = {
  store_no: sql`stores.store_no`,
  store_name: sql`stores.store_name`,
  last_contact: LAST_CONTACT,
  version: sql`h.version`,
  buffer: sql`(h.buffer_depth::float8 / nullif(h.buffer_capacity, 0))`,
  oldest_unsent: sql`h.oldest_unsent_at`,
  lte: sql`h.lte_rssi`,
} as const;

/**
 * The ゲートウェイ一覧: every store with a gateway the viewer may see, filtered (offline, buffer over
 * 50 %, weak signal: below −85 dBm or unknown), sorted (missing values last), one page of 20 and the count.
 */
export async function listGateways(db: Db, viewer: Viewer, query: GatewayListQuery): Promise<{ total: number; gateways: GatewayHealthView[] }> {
  const filtered = db
    .selectFrom('stores')
    .leftJoin('gateway_health as h', 'h.store_id', 'stores.store_id')
    .where('stores.gateway_info', 'is not', null)
    .where(storeVisibleTo(viewer))
    .$if(query.offline, (qb) => qb.where(OFFLINE))
    .$if(query.buffer, (qb) => qb.where('h.buffer_over_half', '=', true))
    .$if(query.weak, (qb) => qb.where(WEAK_SIGNAL));
  const direction = query.order === 'desc' ? sql`desc` : sql`asc`;
  // store_no and store_name are never null: a plain order lets the unique index serve it.
  const order = query.sort === 'store_no' || query.sort === 'store_name' ? sql`${SORT_EXPRESSIONS[query.sort]} ${direction}` : sql`${SORT_EXPRESSIONS[query.sort]} ${direction} nulls last`;
  // The page's store ids first (the sort carries only the key and the id, not every health
  // column of the 20,000 rows the sort reads), then the 20 rows' columns.
  const pageIds = filtered.select('stores.store_id').orderBy(order).orderBy('stores.store_no').limit(GATEWAY_LIST_PAGE_SIZE).offset((query.page_no - 1) * GATEWAY_LIST_PAGE_SIZE);
  const [count, rows] = await Promise.all([
    filtered.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    db
      .selectFrom('stores')
      .leftJoin('gateway_health as h', 'h.store_id', 'stores.store_id')
      .select(healthColumns())
      .where('stores.store_id', 'in', pageIds)
      .orderBy(order)
      .orderBy('stores.store_no')
      .execute(),
  ]);
  return { total: Number(count.n), gateways: (rows as HealthRow[]).map(toView) };
}
