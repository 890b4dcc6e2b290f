import type { Db } from '~/db/db.server';
import { MAX_PLACED_SENSORS, type SensorPosition } from '~/domain/diagram';
import { type AuditEntry, audit } from '~/models/audit.server';
import {
  type CreatedDiagram,
  type UploadedDiagram,
  countPlacedSensors,
  findVisibleSensors,
  getStoreDiagram,
  getStoreDiagramId,
  insertDiagrams,
  isUsableDiagram,
  listDiagramSensors,
  setStoreDiagramId,
  updateSensorPositions,
} from '~/models/diagrams.server';
import { lockStore } from '~/models/store-management.server';
import type { Viewer } from '~/models/users.server';
import { staleReadingsNow } from './silence.server';

// The diagram writes (000 §2, §4, §9): uploads, the store's diagram choice and the sensors'
// positions. Each runs in one transaction on the locked store row, with its audit rows, so a
// failed step leaves nothing of the others behind. Decisions: docs/decisions/050-diagrams.md.

/**
 * A store's diagram as the views show it (the diagram page, the settings' diagram tab): the
 * diagram, its shown sensors (none without a diagram) and which of their values are stale.
 */
export async function loadDiagramView(db: Db, viewer: Viewer, storeId: string) {
  const [diagram, sensors] = await Promise.all([getStoreDiagram(db, viewer, storeId), listDiagramSensors(db, viewer, storeId)]);
  const shown = diagram ? sensors : [];
  return { diagram, sensors: shown, stale: staleReadingsNow(shown.map((sensor) => [sensor.equipmentId, sensor.measuredAt])) };
}

export type SetDiagramResult = 'ok' | 'store_not_found' | 'diagram_not_found';

export type SavePositionsResult =
  | { ok: true; saved: number }
  | { ok: false; reason: 'not_found'; equipmentIds: number[] }
  | { ok: false; reason: 'too_many'; storeId: string; placed: number };

export type PlaceOnDiagramResult = SavePositionsResult | { ok: false; reason: 'store_not_found' | 'diagram_not_found' };

/** A failure found after some writes: thrown to roll the transaction back, then returned. */
class Rollback<T> extends Error {
  constructor(readonly result: T) {
    super('rollback');
  }
}

async function inTransaction<T>(db: Db, work: (trx: Db) => Promise<T>): Promise<T> {
  try {
    return await db.transaction().execute(work);
  } catch (error) {
    if (error instanceof Rollback) return error.result as T;
    throw error;
  }
}

async function lockVisibleStore(trx: Db, viewer: Viewer, storeId: string): Promise<boolean> {
  return (await lockStore(trx, viewer, storeId))?.visible === true;
}

const diagramSet = (viewer: Viewer, storeId: string, diagramId: number | null, previousId: number | null): AuditEntry => ({
  userId: viewer.userId,
  action: 'store.diagram.set',
  targetType: 'store',
  targetId: storeId,
  storeId,
  details: { before: { diagram_id: previousId }, after: { diagram_id: diagramId } },
});

/**
 * POST /v1/diagram and the upload screen: stores the files (already typed by content) as the
 * store's diagrams. With `setAsStoreDiagram` the last one becomes the store's diagram (the
 * console's upload screen). null when the viewer may not see the store.
 */
export async function createDiagrams(
  db: Db,
  viewer: Viewer,
  storeId: string,
  files: readonly UploadedDiagram[],
  options: { setAsStoreDiagram?: boolean } = {},
): Promise<CreatedDiagram[] | null> {
  return db.transaction().execute(async (trx) => {
    if (!(await lockVisibleStore(trx, viewer, storeId))) return null;
    const created = await insertDiagrams(trx, storeId, files, viewer.userId);
    const entries: AuditEntry[] = created.map((row) => ({
      userId: viewer.userId,
      action: 'diagram.upload',
      targetType: 'diagram',
      targetId: row.diagram_id,
      storeId,
      details: { diagram_name: row.diagram_name, content_type: row.content_type },
    }));
    const chosen = created[created.length - 1];
    if (options.setAsStoreDiagram && chosen) {
      const previousId = await getStoreDiagramId(trx, storeId);
      await setStoreDiagramId(trx, storeId, chosen.diagram_id);
      entries.push(diagramSet(viewer, storeId, chosen.diagram_id, previousId));
    }
    await audit(trx, entries);
    return created;
  });
}

/** The store's diagram becomes `diagramId` (its own file or a template; null clears it), on a locked store. */
async function chooseDiagram(trx: Db, viewer: Viewer, storeId: string, diagramId: number | null): Promise<'ok' | 'diagram_not_found'> {
  if (diagramId !== null && !(await isUsableDiagram(trx, storeId, diagramId))) return 'diagram_not_found';
  const previousId = await getStoreDiagramId(trx, storeId);
  await setStoreDiagramId(trx, storeId, diagramId);
  await audit(trx, diagramSet(viewer, storeId, diagramId, previousId));
  return 'ok';
}

/** POST /v1/stores/diagram and the editor's diagram choice. */
export async function setStoreDiagram(db: Db, viewer: Viewer, storeId: string, diagramId: number | null): Promise<SetDiagramResult> {
  return db.transaction().execute(async (trx) => {
    if (!(await lockVisibleStore(trx, viewer, storeId))) return 'store_not_found';
    return chooseDiagram(trx, viewer, storeId, diagramId);
  });
}

/** The 20-sensor rule (000 §9): a save may not leave more than 20 placed, unless it places no more than before. */
const breaksPlacementLimit = (before: number, after: number) => after > MAX_PLACED_SENSORS && after > before;

/**
 * Saves positions inside the caller's transaction, throwing a Rollback on failure. Every sensor
 * must belong to a store the viewer may see (and to `storeId` when given). The stores are
 * locked in id order (almost always one store), so two editors cannot both place the 20th.
 */
async function placeSensors(trx: Db, viewer: Viewer, positions: readonly SensorPosition[], storeId?: string): Promise<SavePositionsResult> {
  if (positions.length === 0) return { ok: true, saved: 0 };
  const ids = positions.map((p) => p.equipment_id);
  const sensors = await findVisibleSensors(trx, viewer, ids, storeId);
  if (sensors.length !== ids.length) {
    const known = new Set(sensors.map((sensor) => sensor.equipmentId));
    throw new Rollback<SavePositionsResult>({ ok: false, reason: 'not_found', equipmentIds: ids.filter((id) => !known.has(id)) });
  }
  const storeIds = [...new Set(sensors.map((sensor) => sensor.storeId))].sort();
  for (const id of storeIds) await lockStore(trx, viewer, id);
  const before = await countPlacedSensors(trx, storeIds);
  await updateSensorPositions(trx, positions, storeIds);
  const after = await countPlacedSensors(trx, storeIds);
  for (const id of storeIds) {
    const placed = after.get(id) ?? 0;
    if (breaksPlacementLimit(before.get(id) ?? 0, placed)) throw new Rollback<SavePositionsResult>({ ok: false, reason: 'too_many', storeId: id, placed });
  }
  const storeOf = new Map(sensors.map((sensor) => [sensor.equipmentId, sensor.storeId]));
  await audit(
    trx,
    storeIds.map((id) => ({
      userId: viewer.userId,
      action: 'sensor.position.save',
      targetType: 'store',
      targetId: id,
      storeId: id,
      details: { positions: positions.filter((p) => storeOf.get(p.equipment_id) === id) },
    })),
  );
  return { ok: true, saved: positions.length };
}

/**
 * POST /v1/equipments/position: saves sensor positions in one transaction ((0, 0) takes a
 * sensor off the diagram); on any failure nothing changes.
 */
export async function saveSensorPositions(db: Db, viewer: Viewer, positions: readonly SensorPosition[], options: { storeId?: string } = {}): Promise<SavePositionsResult> {
  return inTransaction(db, (trx) => placeSensors(trx, viewer, positions, options.storeId));
}

/**
 * The editor's save: sensors placed on a diagram make it the store's diagram. The choice and
 * the positions are one transaction, so a refused position leaves the store's diagram as it was.
 */
export async function placeSensorsOnDiagram(db: Db, viewer: Viewer, storeId: string, diagramId: number, positions: readonly SensorPosition[]): Promise<PlaceOnDiagramResult> {
  return inTransaction(db, async (trx): Promise<PlaceOnDiagramResult> => {
    if (!(await lockVisibleStore(trx, viewer, storeId))) return { ok: false, reason: 'store_not_found' };
    if ((await getStoreDiagramId(trx, storeId)) !== diagramId) {
      const chosen = await chooseDiagram(trx, viewer, storeId, diagramId);
      if (chosen !== 'ok') return { ok: false, reason: chosen };
    }
    return placeSensors(trx, viewer, positions, storeId);
  });
}
