import { sql } from 'kysely';
import type { Db } from '~/db/db.server';
import { isAlertCode } from '~/domain/alert-codes';
import { alertHistoryText } from '~/domain/alert-history';
import type { AlertStopSchedule } from '~/domain/alert-stop-schedule';
import type { HaccpAlert, HaccpComment, HaccpReading, HaccpSensorInput, HaccpSignoff } from '~/domain/haccp';
import { loadAlertStopSchedules } from './alert-schedules.server';
import { settingsInForceBySensor } from './sensor-settings.server';
import { storeVisibleTo } from './stores.server';
import type { Viewer } from './users.server';

// What the HACCP daily record reads (issue 14 item 6) and its sign-offs (haccp_signoffs). Every
// query is scoped by the store the viewer may see; domain/haccp.ts decides pass and fail.

const isoDay = (day: string) => `${day.slice(0, 4)}-${day.slice(4, 6)}-${day.slice(6, 8)}`;

export interface HaccpStoreData {
  store: { storeId: string; storeNo: string; storeName: string };
  sensors: HaccpSensorInput[];
  schedules: AlertStopSchedule[];
}

/**
 * A store's sensors with their readings, alerts and comments over [from, to) (a day, or a month
 * for the PDF), and the store's alert-stop schedules. Sensors removed before `from` are left out.
 * null when the store does not exist or the viewer may not see it.
 */
export async function loadHaccpData(db: Db, viewer: Viewer, storeId: string, range: { from: Date; to: Date; firstDay: string }): Promise<HaccpStoreData | null> {
  const store = await db
    .selectFrom('stores')
    .select(['store_id', 'store_no', 'store_name'])
    .where('store_id', '=', storeId)
    .where(storeVisibleTo(viewer))
    .executeTakeFirst();
  if (!store) return null;
  const sensorRows = await db
    .selectFrom('sensors')
    .select(['equipment_id', 'equipment_name', 'serial_no', 'lower_limit'])
    .where('store_id', '=', storeId)
    .where((eb) => eb.or([eb('removal_datetime', 'is', null), eb('removal_datetime', '>=', isoDay(range.firstDay))]))
    .orderBy(sql`lower_limit asc nulls last`)
    .orderBy('equipment_id')
    .execute();
  const ids = sensorRows.map((row) => row.equipment_id);
  const [limits, readings, alerts, comments, schedules] = await Promise.all([
    settingsInForceBySensor(db, storeId, ids, range.from, range.to),
    db
      .selectFrom('measurements')
      .select(['equipment_id', 'measured_at', 'temperature', 'error'])
      .where('store_id', '=', storeId)
      .where('measured_at', '>=', range.from)
      .where('measured_at', '<', range.to)
      .orderBy('equipment_id')
      .orderBy('measured_at')
      .execute(),
    db
      .selectFrom('alert_history as a')
      .leftJoin('users as u', 'u.user_id', 'a.stopped_by')
      .leftJoin('users as k', 'k.user_id', 'a.acknowledged_by')
      .select(['a.equipment_id', 'a.alert_id', 'a.started_at', 'a.recovered_at', 'a.stopped_at', 'a.stop_comment', 'u.user_name as stopped_by_name', 'a.acknowledged_at', 'k.user_name as acknowledged_by_name', 'a.corrective_action', 'a.acknowledge_note'])
      .where('a.store_id', '=', storeId)
      .where('a.equipment_id', 'is not', null)
      .where('a.started_at', '<', range.to)
      .where((eb) => eb.or([eb('a.recovered_at', 'is', null), eb('a.recovered_at', '>=', range.from)]))
      .orderBy('a.started_at')
      .execute(),
    db
      .selectFrom('measurement_comments as c')
      .leftJoin('users as u', 'u.user_id', 'c.user_id')
      .select(['c.equipment_id', 'c.measured_at', 'c.comment', 'u.user_name'])
      .where('c.store_id', '=', storeId)
      .where('c.measured_at', '>=', range.from)
      .where('c.measured_at', '<', range.to)
      .orderBy('c.measured_at')
      .execute(),
    loadAlertStopSchedules(db, storeId),
  ]);
  interface Collected extends HaccpSensorInput {
    readings: HaccpReading[];
    alerts: HaccpAlert[];
    comments: HaccpComment[];
  }
  const byId = new Map<number, Collected>();
  const sensors = sensorRows.map((row) => {
    const sensor: Collected = {
      equipmentId: row.equipment_id,
      name: row.equipment_name,
      serialNo: row.serial_no,
      settings: limits.get(row.equipment_id) ?? [],
      readings: [],
      alerts: [],
      comments: [],
    };
    byId.set(row.equipment_id, sensor);
    return sensor;
  });
  for (const r of readings) byId.get(r.equipment_id)?.readings.push({ at: r.measured_at, temperature: r.error ? null : r.temperature });
  for (const a of alerts) {
    if (a.equipment_id === null || !isAlertCode(a.alert_id)) continue;
    byId.get(a.equipment_id)?.alerts.push({
      alertId: a.alert_id,
      label: alertHistoryText({ equipmentId: a.equipment_id, alertId: a.alert_id, recoveredAt: a.recovered_at }, viewer.language),
      startedAt: a.started_at,
      recoveredAt: a.recovered_at,
      stoppedAt: a.stopped_at,
      stoppedBy: a.stopped_by_name ?? null,
      stopComment: a.stop_comment,
      acknowledgedAt: a.acknowledged_at,
      acknowledgedBy: a.acknowledged_by_name ?? null,
      correctiveAction: a.corrective_action,
      acknowledgeNote: a.acknowledge_note,
    });
  }
  for (const c of comments) byId.get(c.equipment_id)?.comments.push({ at: c.measured_at, comment: c.comment, userName: c.user_name ?? null });
  return { store: { storeId: store.store_id, storeNo: store.store_no, storeName: store.store_name }, sensors, schedules };
}

export interface StoredSignoff extends HaccpSignoff {
  day: string;
}

/** The sign-offs of a store's days from `firstDay` to `lastDay` (YYYYMMDD, inclusive), oldest first. */
export async function listSignoffs(db: Db, storeId: string, firstDay: string, lastDay: string): Promise<StoredSignoff[]> {
  const rows = await db
    .selectFrom('haccp_signoffs')
    .select(['day', 'user_name', 'signed_at', 'note', 'issue_count'])
    .where('store_id', '=', storeId)
    .where('day', '>=', isoDay(firstDay))
    .where('day', '<=', isoDay(lastDay))
    .orderBy('day')
    .orderBy('signed_at')
    .orderBy('signoff_id')
    .execute();
  return rows.map((row) => ({ day: row.day.replaceAll('-', ''), userName: row.user_name, signedAt: row.signed_at, note: row.note, issueCount: row.issue_count }));
}

export interface NewSignoff {
  storeId: string;
  day: string;
  userId: number;
  userName: string;
  signedAt: Date;
  note: string | null;
  issueCount: number;
}

/** Writes one sign-off (in the caller's transaction, with its audit row). */
export async function insertSignoff(trx: Db, signoff: NewSignoff): Promise<number> {
  const row = await trx
    .insertInto('haccp_signoffs')
    .values({
      store_id: signoff.storeId,
      day: isoDay(signoff.day),
      user_id: signoff.userId,
      user_name: signoff.userName,
      signed_at: signoff.signedAt,
      note: signoff.note,
      issue_count: signoff.issueCount,
    })
    .returning('signoff_id')
    .executeTakeFirstOrThrow();
  return row.signoff_id;
}

/** Serialises sign-offs of one store day (two signers at once see each other's row). */
export async function lockSignoffDay(trx: Db, storeId: string, day: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext(${`haccp:${storeId}:${day}`}))`.execute(trx);
}
