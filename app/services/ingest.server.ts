import { recordIngest } from './metrics.server';
import type { Db } from '~/db/db.server';
import { evaluate, evaluateGatewayContact } from '~/domain/alert-engine';
import { type CheckedReading, checkReading } from '~/domain/gateway-schemas';
import { addToBuckets } from '~/models/measurement-buckets.server';
import { type NewMeasurement, insertStoresMeasurements } from '~/models/measurements.server';
import { loadStoresAlertStopSchedules } from '~/models/alert-schedules.server';
import { type LatestReading, loadStoresSensorsForEvaluation, saveStoresSensorStates } from '~/models/sensor-states.server';
import { lockStores, refreshStoreStatuses, saveStoreContacts } from '~/models/stores.server';
import { getEnv } from '~/env.server';
import { type EvaluatedSensor, type StoreDecision, type StoreForEvaluation, persistDecision } from './alert-persister.server';

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
  const [post] = await storeCheckedPosts(trx, [{ storeId, checked, now }]);
  return post;
}

/** A post checked and waiting for the ingest writer. */
export interface CheckedPost {
  storeId: string;
  checked: CheckedBatch;
  now: Date;
}

/**
 * Many posts in the caller's transaction, in statements whose number does not grow with the
 * posts (docs/decisions/220): their stores locked in one statement, their sensors and alert-stop
 * schedules read in two, every reading inserted in one; the engine runs per post as
 * storeCheckedBatch runs it (a store's later post sees its earlier one's state). A store whose
 * posts opened or recovered an alert is written by persistDecision, post by post (history,
 * mails, webhooks); the states and store rows of all the others in three statements. Throws when
 * a post's store is gone: the writer then stores the batch post by post to find it.
 */
export async function storeCheckedPosts(trx: Db, posts: readonly CheckedPost[]): Promise<StoredPost[]> {
  const storeIds = [...new Set(posts.map((post) => post.storeId))];
  const stores = await lockStores(trx, storeIds);
  if (stores.length !== storeIds.length) throw new Error(`store ${storeIds.find((id) => !stores.some((store) => store.storeId === id))} vanished`);
  const [sensorsOf, schedulesOf] = await Promise.all([
    loadStoresSensorsForEvaluation(trx, storeIds, getEnv().ONRECO_NO_COMMUNICATION_MINUTES),
    loadStoresAlertStopSchedules(trx, storeIds),
  ]);

  // Each upload is a gateway contact, judged from the store as the previous post left it.
  const storeOf = new Map(stores.map((store) => [store.storeId, store]));
  const contacts = posts.map((post) => {
    const previous = storeOf.get(post.storeId)!;
    const { transition: gateway, ...connection } = evaluateGatewayContact(previous, post.now);
    storeOf.set(post.storeId, { ...previous, ...connection, lastGatewayContactAt: post.now });
    return { previous, gateway, contact: { storeId: post.storeId, lastGatewayContactAt: post.now, ...connection } };
  });
  // The stores' own columns first (saveStoreContacts says why); the last post of a store wins.
  const lastContacts = [...new Map(contacts.map(({ contact }) => [contact.storeId, contact])).values()];
  await saveStoreContacts(trx, lastContacts);

  const loadedOf = new Map(stores.map((store): [string, Omit<StoreForEvaluation, 'store'>] => [store.storeId, { sensors: sensorsOf.get(store.storeId) ?? [], schedules: schedulesOf.get(store.storeId) ?? [] }]));
  const parts = posts.map((post) => readingsOfPost(loadedOf.get(post.storeId)!.sensors, post));
  const stored = await insertStoresMeasurements(trx, parts.map((part, index) => ({ storeId: posts[index].storeId, rows: part.rows, receivedAt: posts[index].now })));

  const decisions = posts.map((post, index): StoreDecision & { now: Date } => {
    const loaded = loadedOf.get(post.storeId)!;
    const { previous, gateway, contact } = contacts[index];
    const sensors = evaluateStored({ store: previous, ...loaded }, stored[index]);
    // The store's next post in this batch starts from this one's states.
    const evaluated = new Map(sensors.map((sensor) => [sensor.equipmentId, sensor.evaluation.state]));
    loadedOf.set(post.storeId, { ...loaded, sensors: loaded.sensors.map((sensor) => ({ ...sensor, state: evaluated.get(sensor.equipmentId) ?? sensor.state })) });
    return { store: previous, sensors, gateway, connection: contact, now: post.now };
  });

  // A store whose posts opened or recovered an alert: post by post through the persister (history, mails, webhooks).
  const changing = new Set(decisions.filter((decision) => decision.gateway || decision.sensors.some((sensor) => sensor.evaluation.transitions.length > 0)).map((decision) => decision.store.storeId));
  for (const decision of decisions) if (changing.has(decision.store.storeId)) await persistDecision(trx, decision, decision.now);
  const quiet = mergeByStore(decisions.filter((decision) => !changing.has(decision.store.storeId)));
  await saveStoresSensorStates(trx, quiet.map(({ storeId, states, now }) => ({ storeId, changes: [...states.values()], now })));
  await refreshStoreStatuses(trx, lastContacts.filter((contact) => !changing.has(contact.storeId)));

  return posts.map((_, index) => {
    const rejected = [...parts[index].rejected].sort((a, b) => a.index - b.index);
    return { result: { accepted: stored[index].length, duplicates: parts[index].rows.length - stored[index].length, rejected }, stored: stored[index] };
  });
}

/** A post's readings of the store's sensors as rows, and the rejections (the post's own and unknown serials). */
function readingsOfPost(sensors: StoreForEvaluation['sensors'], post: CheckedPost): { rows: NewMeasurement[]; rejected: IngestResult['rejected'] } {
  const rejected = [...post.checked.rejected];
  const bySerial = new Map(sensors.map((sensor) => [sensor.serialNo, sensor.equipmentId]));
  const rows: NewMeasurement[] = [];
  for (const reading of post.checked.valid) {
    const equipmentId = bySerial.get(reading.serialNo);
    if (equipmentId === undefined) rejected.push({ index: reading.index, reason: 'serial_no: not a sensor of this store' });
    // Named fields, not a rest spread: thousands a second (docs/decisions/182).
    else rows.push({ equipmentId, measuredAt: reading.measuredAt, temperature: reading.temperature, error: reading.error, battery: reading.battery, receiveSensitivity: reading.receiveSensitivity });
  }
  return { rows, rejected };
}

interface QuietStore {
  storeId: string;
  states: Map<number, { equipmentId: number; state: EvaluatedSensor['evaluation']['state']; latest: LatestReading | null }>;
  now: Date;
}

/** The decisions without transitions, one per store: each sensor's last state and newest reading. */
function mergeByStore(decisions: readonly (StoreDecision & { now: Date })[]): QuietStore[] {
  const merged = new Map<string, QuietStore>();
  for (const decision of decisions) {
    const { storeId } = decision.store;
    const entry = merged.get(storeId) ?? { storeId, states: new Map(), now: decision.now };
    for (const { equipmentId, evaluation, latest } of decision.sensors) {
      const before = entry.states.get(equipmentId)?.latest ?? null;
      const newest = before && latest && before.measuredAt > latest.measuredAt ? before : (latest ?? before);
      entry.states.set(equipmentId, { equipmentId, state: evaluation.state, latest: newest });
    }
    entry.now = decision.now;
    merged.set(storeId, entry);
  }
  return [...merged.values()];
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
