import { sql } from 'kysely';
import type { Db } from '~/db/db.server';
import { evaluate, type Reading } from '~/domain/alert-engine';
import { type CheckedReading, checkReading } from '~/domain/gateway-schemas';
import { type LatestReading, loadStoreForEvaluation, saveEvaluation } from './sensor-evaluation.server';
import type { SensorTransition } from './alerts.server';

export interface IngestResult {
  accepted: number;
  duplicates: number;
  rejected: { index: number; reason: string }[];
}

/**
 * POST /v1/gateway/readings for one store, in one transaction: valid readings are stored even
 * when others are rejected; a repeat of (sensor, measured_at) is a duplicate, never a second
 * row; the newly stored readings go through the alert engine in measured_at order.
 */
export async function ingestReadings(db: Db, storeId: string, raw: unknown[], now: Date): Promise<IngestResult> {
  const rejected: IngestResult['rejected'] = [];
  const valid: CheckedReading[] = [];
  for (const [index, item] of raw.entries()) {
    const check = checkReading(item, index, now);
    if (check.ok) valid.push(check.reading);
    else rejected.push({ index: check.index, reason: check.reason });
  }
  return db.transaction().execute(async (trx) => {
    const store = await loadStoreForEvaluation(trx, storeId);
    if (!store) throw new Error(`store ${storeId} vanished`);
    const bySerial = new Map([...store.sensors.values()].map((sensor) => [sensor.serialNo, sensor.equipmentId]));
    const rows: (CheckedReading & { equipmentId: number })[] = [];
    for (const reading of valid) {
      const equipmentId = bySerial.get(reading.serialNo);
      if (equipmentId === undefined) rejected.push({ index: reading.index, reason: 'serial_no: not a sensor of this store' });
      else rows.push({ ...reading, equipmentId });
    }
    const stored = await insertMeasurements(trx, storeId, rows, now);
    const evaluated = [...groupByEquipment(stored)].map(([equipmentId, readings]) => {
      const sensor = store.sensors.get(equipmentId)!;
      readings.sort((a, b) => a.measuredAt.getTime() - b.measuredAt.getTime());
      return { sensor, evaluation: evaluate(sensor.settings, sensor.state, readings, { stopWindows: store.schedules }), latest: readings.at(-1) as LatestReading };
    });
    const storeChanges = await recordGatewayContact(trx, store, now);
    await saveEvaluation(trx, store, evaluated, now, storeChanges);
    rejected.sort((a, b) => a.index - b.index);
    return { accepted: stored.length, duplicates: rows.length - stored.length, rejected };
  });
}

/** One INSERT … SELECT FROM unnest for the whole batch; returns the rows that were new. */
async function insertMeasurements(trx: Db, storeId: string, rows: (CheckedReading & { equipmentId: number })[], now: Date) {
  if (rows.length === 0) return [];
  const { rows: inserted } = await sql<{ equipment_id: number; measured_at: Date; temperature: number | null; error: boolean; battery: number | null; receive_sensitivity: number | null }>`
    insert into measurements (store_id, equipment_id, measured_at, temperature, error, battery, receive_sensitivity, received_at)
    select ${storeId}, r.* , ${now}::timestamptz from unnest(
      ${rows.map((r) => r.equipmentId)}::int[],
      ${rows.map((r) => r.measuredAt.toISOString())}::timestamptz[],
      ${rows.map((r) => r.temperature)}::real[],
      ${rows.map((r) => r.error)}::boolean[],
      ${rows.map((r) => r.battery)}::smallint[],
      ${rows.map((r) => r.receiveSensitivity)}::smallint[]
    ) as r(equipment_id, measured_at, temperature, error, battery, receive_sensitivity)
    on conflict do nothing
    returning equipment_id, measured_at, temperature, error, battery, receive_sensitivity`.execute(trx);
  return inserted;
}

function groupByEquipment(rows: Awaited<ReturnType<typeof insertMeasurements>>): Map<number, (Reading & LatestReading)[]> {
  const groups = new Map<number, (Reading & LatestReading)[]>();
  for (const row of rows) {
    const reading = { measuredAt: row.measured_at, temperature: row.temperature, error: row.error, battery: row.battery, receiveSensitivity: row.receive_sensitivity };
    const group = groups.get(row.equipment_id);
    if (group) group.push(reading);
    else groups.set(row.equipment_id, [reading]);
  }
  return groups;
}

/**
 * The gateway spoke: first communication turns a waiting store into an operating one, and a
 * store whose gateway was down recovers its store-level alert.
 */
async function recordGatewayContact(trx: Db, store: NonNullable<Awaited<ReturnType<typeof loadStoreForEvaluation>>>, now: Date): Promise<SensorTransition[]> {
  const wasDown = store.gatewayDown;
  if (store.workingState === 0) store.workingState = 1;
  store.gatewayDown = false;
  await trx
    .updateTable('stores')
    .set({ last_gateway_contact_at: now, gateway_down: false, working_state: store.workingState })
    .where('store_id', '=', store.storeId)
    .execute();
  if (!wasDown) return [];
  return [{ equipmentId: null, equipmentName: null, transition: { type: 'recover', code: 'OE00000005', at: now, notify: true, temperature: null, lowerLimit: null, upperLimit: null } }];
}
