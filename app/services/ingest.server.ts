import { recordIngest } from './metrics.server';
import type { Db } from '~/db/db.server';
import { evaluate, evaluateGatewayContact } from '~/domain/alert-engine';
import { type CheckedReading, checkReading } from '~/domain/gateway-schemas';
import { addToBuckets } from '~/models/measurement-buckets.server';
import { type NewMeasurement, insertMeasurements } from '~/models/measurements.server';
import { type EvaluatedSensor, type StoreForEvaluation, loadStoreForEvaluation, persistDecision } from './alert-persister.server';

export interface IngestResult {
  accepted: number;
  duplicates: number;
  rejected: { index: number; reason: string }[];
}

/** A post's readings checked before any transaction: the well-formed ones and the reasons of the others. */
export interface CheckedBatch {
  valid: CheckedReading[];
  rejected: IngestResult['rejected'];
}

export function checkBatch(raw: readonly unknown[], now: Date): CheckedBatch {
  const rejected: IngestResult['rejected'] = [];
  const valid: CheckedReading[] = [];
  for (const [index, item] of raw.entries()) {
    const check = checkReading(item, index, now);
    if (check.ok) valid.push(check.reading);
    else rejected.push({ index: check.index, reason: check.reason });
  }
  return { valid, rejected };
}

/**
 * POST /v1/gateway/readings for one store, in a transaction of its own (the group-commit writer,
 * ingest-writer.server.ts, runs many posts' `storeCheckedBatch` in one).
 */
export async function ingestReadings(db: Db, storeId: string, raw: unknown[], now: Date): Promise<IngestResult> {
  const checked = checkBatch(raw, now);
  const { result } = await db.transaction().execute(async (trx) => {
    const post = await storeCheckedBatch(trx, storeId, checked, now);
    await addToBuckets(trx, [{ storeId, readings: post.stored }]);
    return post;
  });
  recordCommitted(checked, result, now);
  return result;
}

/** Counted once committed: a batch rolled back is posted again and counted then. */
export function recordCommitted(checked: CheckedBatch, result: IngestResult, now: Date): void {
  const newestMeasuredAt = checked.valid.reduce<Date | null>((newest, reading) => (newest && newest >= reading.measuredAt ? newest : reading.measuredAt), null);
  recordIngest({ accepted: result.accepted, duplicates: result.duplicates, rejected: result.rejected.length, newestMeasuredAt }, now);
}

/** A post written in the caller's transaction: its answer, and the readings it stored (for their buckets). */
export interface StoredPost {
  result: IngestResult;
  stored: readonly NewMeasurement[];
}

/**
 * One post's readings, in the caller's transaction: valid readings are stored even when others
 * are rejected; a repeat of (sensor, measured_at) is a duplicate, never a second row; the newly
 * stored readings go through the alert engine in measured_at order, and the upload itself is a
 * gateway contact. The caller adds the stored readings to their buckets (once for a batch).
 */
export async function storeCheckedBatch(trx: Db, storeId: string, checked: CheckedBatch, now: Date): Promise<StoredPost> {
  // A copy: the writer may run the same post again after another post's failure.
  const rejected = [...checked.rejected];
  const loaded = await loadStoreForEvaluation(trx, storeId);
  if (!loaded) throw new Error(`store ${storeId} vanished`);
  const bySerial = new Map(loaded.sensors.map((sensor) => [sensor.serialNo, sensor.equipmentId]));
  const rows: NewMeasurement[] = [];
  for (const reading of checked.valid) {
    const equipmentId = bySerial.get(reading.serialNo);
    if (equipmentId === undefined) rejected.push({ index: reading.index, reason: 'serial_no: not a sensor of this store' });
    // Named fields, not a rest spread: thousands a second (docs/decisions/182).
    else rows.push({ equipmentId, measuredAt: reading.measuredAt, temperature: reading.temperature, error: reading.error, battery: reading.battery, receiveSensitivity: reading.receiveSensitivity });
  }
  const stored = await insertMeasurements(trx, storeId, rows, now);
  const { transition: gateway, ...connection } = evaluateGatewayContact(loaded.store, now);
  const sensors = evaluateStored(loaded, stored);
  await persistDecision(trx, { store: loaded.store, sensors, gateway, connection: { ...connection, lastGatewayContactAt: now } }, now);
  rejected.sort((a, b) => a.index - b.index);
  return { result: { accepted: stored.length, duplicates: rows.length - stored.length, rejected }, stored };
}

/** Each sensor's new readings through the engine, in measured_at order (sensors in the order of the batch). */
function evaluateStored({ sensors, schedules }: StoreForEvaluation, stored: readonly NewMeasurement[]): EvaluatedSensor[] {
  const sensorOf = new Map(sensors.map((sensor) => [sensor.equipmentId, sensor]));
  return [...groupBySensor(stored)].map(([equipmentId, readings]) => {
    const sensor = sensorOf.get(equipmentId)!;
    readings.sort((a, b) => a.measuredAt.getTime() - b.measuredAt.getTime());
    const evaluation = evaluate(sensor.settings, sensor.state, readings, { stopWindows: schedules });
    return { equipmentId, equipmentName: sensor.equipmentName, evaluation, latest: readings.at(-1)! };
  });
}

function groupBySensor(readings: readonly NewMeasurement[]): Map<number, NewMeasurement[]> {
  const groups = new Map<number, NewMeasurement[]>();
  for (const reading of readings) {
    const group = groups.get(reading.equipmentId);
    if (group) group.push(reading);
    else groups.set(reading.equipmentId, [reading]);
  }
  return groups;
}
