import { type Transaction, sql } from 'kysely';
import type { Db } from '~/db/db.server';
import type { SensorLabel } from '~/domain/sensor-view';
import type { Database } from '~/db/schema';
import { defrostRangesOf, isInDefrost } from '~/domain/defrost';
import { type DiagramContentType, MAX_PLACED_SENSORS, type SensorPosition } from '~/domain/diagram';
import { roundTenth } from '~/domain/format';
import { toCompactDateTime } from '~/domain/japan-time';
import { storeVisibleTo } from './stores.server';
import type { Viewer } from './users.server';

// Store floor diagrams: the diagram files (a store's own, or chain-wide templates with a null
// store_id), the store's chosen diagram, and the sensors' positions on it. Every query is
// scoped by what the viewer may see; templates are visible to every signed-in user.

/** The Diagram entity of 000 §3. */
export interface DiagramSummary {
  diagram_id: number;
  diagram_name: string;
}

export interface DiagramInfo {
  diagramId: number;
  diagramName: string;
  contentType: string;
  /** A chain-wide template (store_id null) rather than the store's own file. */
  isTemplate: boolean;
}

export interface DiagramFile extends DiagramInfo {
  content: Buffer;
  byteSize: number;
}

/** The list offers the store's newest 100 files and up to 100 templates. */
const LIST_LIMIT = 100;

type Executor = Db | Transaction<Database>;

/** A where-condition: the store `storeId` exists and the viewer may see it. */
function visibleStore(viewer: Viewer, storeId: string) {
  return (db: Executor) => db.selectFrom('stores').select(sql`1`.as('one')).where('stores.store_id', '=', storeId).where(storeVisibleTo(viewer));
}

export interface DiagramChoice {
  diagramId: number;
  diagramName: string;
  isTemplate: boolean;
}

/**
 * GET /v1/diagram: the diagrams a store may use, its own (newest first) then the chain's
 * templates (by name). Empty when the viewer may not see the store.
 */
export async function listUsableDiagrams(db: Db, viewer: Viewer, storeId: string): Promise<DiagramChoice[]> {
  const own = db
    .selectFrom('diagrams')
    .select(['diagram_id', 'diagram_name', 'store_id'])
    .where('diagrams.store_id', '=', storeId)
    .where((eb) => eb.exists(visibleStore(viewer, storeId)(db)))
    .orderBy('created_at', 'desc')
    .orderBy('diagram_id', 'desc')
    .limit(LIST_LIMIT);
  const templates = db
    .selectFrom('diagrams')
    .select(['diagram_id', 'diagram_name', 'store_id'])
    .where('diagrams.store_id', 'is', null)
    .orderBy('diagram_name')
    .orderBy('diagram_id')
    .limit(LIST_LIMIT);
  if (!(await canSeeStore(db, viewer, storeId))) return [];
  const [ownRows, templateRows] = await Promise.all([own.execute(), templates.execute()]);
  return [...ownRows, ...templateRows].map((row) => ({ diagramId: row.diagram_id, diagramName: row.diagram_name, isTemplate: row.store_id === null }));
}

async function canSeeStore(db: Executor, viewer: Viewer, storeId: string): Promise<boolean> {
  return (await visibleStore(viewer, storeId)(db).executeTakeFirst()) !== undefined;
}

/**
 * GET /v1/diagram/image: one diagram file when it is a template or belongs to a store the
 * viewer may see; otherwise null (the caller answers 404, so nothing leaks).
 */
export async function getDiagramFile(db: Db, viewer: Viewer, diagramId: number): Promise<DiagramFile | null> {
  const row = await db
    .selectFrom('diagrams')
    .select(['diagram_id', 'diagram_name', 'content_type', 'content', 'byte_size', 'store_id'])
    .where('diagrams.diagram_id', '=', diagramId)
    .where((eb) =>
      eb.or([
        eb('diagrams.store_id', 'is', null),
        eb.exists(eb.selectFrom('stores').select(sql`1`.as('one')).whereRef('stores.store_id', '=', 'diagrams.store_id').where(storeVisibleTo(viewer))),
      ]),
    )
    .executeTakeFirst();
  if (!row) return null;
  return { diagramId: row.diagram_id, diagramName: row.diagram_name, contentType: row.content_type, isTemplate: row.store_id === null, content: row.content, byteSize: row.byte_size };
}

/** The diagram the store has chosen (stores.diagram_id), or null when none or the store is not visible. */
export async function getStoreDiagram(db: Db, viewer: Viewer, storeId: string): Promise<DiagramInfo | null> {
  const row = await db
    .selectFrom('stores')
    .innerJoin('diagrams', 'diagrams.diagram_id', 'stores.diagram_id')
    .select(['diagrams.diagram_id', 'diagrams.diagram_name', 'diagrams.content_type', 'diagrams.store_id'])
    .where('stores.store_id', '=', storeId)
    .where(storeVisibleTo(viewer))
    .executeTakeFirst();
  return row ? { diagramId: row.diagram_id, diagramName: row.diagram_name, contentType: row.content_type, isTemplate: row.store_id === null } : null;
}

/** A diagram the store may use (its own or a template), for the editor's diagram_id query; null otherwise. */
export async function getUsableDiagram(db: Db, viewer: Viewer, storeId: string, diagramId: number): Promise<DiagramInfo | null> {
  const row = await db
    .selectFrom('diagrams')
    .select(['diagram_id', 'diagram_name', 'content_type', 'store_id'])
    .where('diagrams.diagram_id', '=', diagramId)
    .where((eb) => eb.or([eb('diagrams.store_id', 'is', null), eb('diagrams.store_id', '=', storeId)]))
    .where((eb) => eb.exists(visibleStore(viewer, storeId)(db)))
    .executeTakeFirst();
  return row ? { diagramId: row.diagram_id, diagramName: row.diagram_name, contentType: row.content_type, isTemplate: row.store_id === null } : null;
}

export interface UploadedDiagram {
  name: string;
  contentType: DiagramContentType;
  bytes: Uint8Array;
}

export interface CreatedDiagram extends DiagramSummary {
  content_type: string;
}

async function lockVisibleStore(trx: Transaction<Database>, viewer: Viewer, storeId: string): Promise<boolean> {
  const row = await trx.selectFrom('stores').select('stores.store_id').where('stores.store_id', '=', storeId).where(storeVisibleTo(viewer)).forUpdate().executeTakeFirst();
  return row !== undefined;
}

async function audit(trx: Transaction<Database>, viewer: Viewer, entry: { action: string; targetType: string; targetId: string | null; storeId: string; details: unknown }) {
  await trx
    .insertInto('audit_log')
    .values({ user_id: viewer.userId, action: entry.action, target_type: entry.targetType, target_id: entry.targetId, store_id: entry.storeId, details: JSON.stringify(entry.details) })
    .execute();
}

/**
 * POST /v1/diagram: stores the files (already typed by content) as the store's diagrams, in one
 * transaction with their audit rows. With `setAsStoreDiagram` the last one becomes the store's
 * diagram (the console's upload screen). null when the viewer may not see the store.
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
    const created = await trx
      .insertInto('diagrams')
      .values(
        files.map((file) => ({
          store_id: storeId,
          diagram_name: file.name,
          content_type: file.contentType,
          byte_size: file.bytes.byteLength,
          content: Buffer.from(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength),
          created_by: viewer.userId,
        })),
      )
      .returning(['diagram_id', 'diagram_name', 'content_type'])
      .execute();
    for (const row of created) {
      await audit(trx, viewer, { action: 'diagram.upload', targetType: 'diagram', targetId: String(row.diagram_id), storeId, details: { diagram_name: row.diagram_name, content_type: row.content_type } });
    }
    const chosen = created[created.length - 1];
    if (options.setAsStoreDiagram && chosen) {
      await trx.updateTable('stores').set({ diagram_id: chosen.diagram_id, updated_at: new Date() }).where('store_id', '=', storeId).execute();
      await audit(trx, viewer, { action: 'store.diagram.set', targetType: 'store', targetId: storeId, storeId, details: { diagram_id: chosen.diagram_id } });
    }
    return created;
  });
}

export type SetDiagramResult = 'ok' | 'store_not_found' | 'diagram_not_found';

/**
 * POST /v1/stores/diagram: the store's diagram becomes one of its own files or a template;
 * null (or 0) clears it.
 */
export async function setStoreDiagram(db: Db, viewer: Viewer, storeId: string, diagramId: number | null): Promise<SetDiagramResult> {
  return db.transaction().execute(async (trx) => {
    if (!(await lockVisibleStore(trx, viewer, storeId))) return 'store_not_found';
    if (diagramId !== null) {
      const usable = await trx
        .selectFrom('diagrams')
        .select('diagram_id')
        .where('diagram_id', '=', diagramId)
        .where((eb) => eb.or([eb('store_id', 'is', null), eb('store_id', '=', storeId)]))
        .executeTakeFirst();
      if (!usable) return 'diagram_not_found';
    }
    await trx.updateTable('stores').set({ diagram_id: diagramId, updated_at: new Date() }).where('store_id', '=', storeId).execute();
    await audit(trx, viewer, { action: 'store.diagram.set', targetType: 'store', targetId: storeId, storeId, details: { diagram_id: diagramId } });
    return 'ok';
  });
}

export type SavePositionsResult =
  | { ok: true; saved: number }
  | { ok: false; reason: 'not_found'; equipmentIds: number[] }
  | { ok: false; reason: 'too_many'; storeId: string; placed: number };

/**
 * POST /v1/equipments/position: saves sensor positions in one transaction ((0, 0) takes a
 * sensor off the diagram). Every sensor must belong to a store the viewer may see (and to
 * `storeId` when given), else nothing changes. A save that would leave more than 20 shown
 * sensors placed on a store's diagram, more than before, is refused; the store row is locked
 * so two editors cannot both place the 20th.
 */
export async function saveSensorPositions(db: Db, viewer: Viewer, positions: readonly SensorPosition[], options: { storeId?: string } = {}): Promise<SavePositionsResult> {
  if (positions.length === 0) return { ok: true, saved: 0 };
  const ids = positions.map((p) => p.equipment_id);
  class Rollback extends Error {
    constructor(readonly result: SavePositionsResult) {
      super('rollback');
    }
  }
  try {
    return await db.transaction().execute(async (trx) => {
      let found = trx
        .selectFrom('sensors')
        .select(['sensors.equipment_id', 'sensors.store_id'])
        .where('sensors.equipment_id', 'in', ids)
        .where((eb) => eb.exists(eb.selectFrom('stores').select(sql`1`.as('one')).whereRef('stores.store_id', '=', 'sensors.store_id').where(storeVisibleTo(viewer))));
      if (options.storeId !== undefined) found = found.where('sensors.store_id', '=', options.storeId);
      const rows = await found.execute();
      if (rows.length !== ids.length) {
        const known = new Set(rows.map((row) => row.equipment_id));
        return { ok: false, reason: 'not_found', equipmentIds: ids.filter((id) => !known.has(id)) } as const;
      }
      const storeIds = [...new Set(rows.map((row) => row.store_id))].sort();
      await trx.selectFrom('stores').select('store_id').where('store_id', 'in', storeIds).orderBy('store_id').forUpdate().execute();
      const before = await placedPerStore(trx, storeIds);
      await sql`
        update sensors as s
        set position_x = v.x, position_y = v.y, updated_at = now()
        from unnest(${ids}::int[], ${positions.map((p) => p.position_x)}::int[], ${positions.map((p) => p.position_y)}::int[]) as v(id, x, y)
        where s.equipment_id = v.id and s.store_id = any(${storeIds}::varchar[])`.execute(trx);
      const after = await placedPerStore(trx, storeIds);
      for (const storeId of storeIds) {
        const placed = after.get(storeId) ?? 0;
        if (placed > MAX_PLACED_SENSORS && placed > (before.get(storeId) ?? 0)) throw new Rollback({ ok: false, reason: 'too_many', storeId, placed });
      }
      const storeOf = new Map(rows.map((row) => [row.equipment_id, row.store_id]));
      for (const storeId of storeIds) {
        const items = positions.filter((p) => storeOf.get(p.equipment_id) === storeId);
        await audit(trx, viewer, { action: 'sensor.position.save', targetType: 'store', targetId: storeId, storeId, details: { positions: items } });
      }
      return { ok: true, saved: positions.length } as const;
    });
  } catch (error) {
    if (error instanceof Rollback) return error.result;
    throw error;
  }
}

/** Placed, shown (disp_flg 1) sensors per store: what the diagram shows and the 20 counts. */
async function placedPerStore(trx: Transaction<Database>, storeIds: string[]): Promise<Map<string, number>> {
  const rows = await trx
    .selectFrom('sensors')
    .select(['store_id', sql<number>`count(*)::int`.as('placed')])
    .where('store_id', 'in', storeIds)
    .where('disp_flg', '=', 1)
    .where((eb) => eb.not(eb.and([eb('position_x', '=', 0), eb('position_y', '=', 0)])))
    .groupBy('store_id')
    .execute();
  return new Map(rows.map((row) => [row.store_id, row.placed]));
}

/** A sensor on the diagram: its settings, position and latest reading. */
export interface DiagramSensor extends SensorLabel {
  positionX: number;
  positionY: number;
  /** °C, ERROR (sensor error), DEF (reading inside a defrost range) or null (no reading). */
  temperature: number | 'ERROR' | 'DEF' | null;
  /** 0 none, 1 warning, 2 error (000 §3). */
  status: number;
  alertCodes: string[];
  /** YYYYMMDDHHmmss, Japan time. */
  measuredAt: string | null;
}

/** A store has few sensors (20 on a diagram); the list is bounded all the same. */
const SENSOR_LIMIT = 500;

/**
 * The store's shown sensors (disp_flg 1) with their latest reading and status, in one indexed
 * query (sensors by store, sensor_states by primary key), ordered by location number and name.
 */
export async function listDiagramSensors(db: Db, viewer: Viewer, storeId: string): Promise<DiagramSensor[]> {
  const rows = await db
    .selectFrom('sensors')
    .leftJoin('sensor_states as ss', (join) => join.onRef('ss.store_id', '=', 'sensors.store_id').onRef('ss.equipment_id', '=', 'sensors.equipment_id'))
    .select([
      'sensors.equipment_id',
      'sensors.equipment_name',
      'sensors.icon_kind',
      'sensors.location_no',
      'sensors.lower_limit',
      'sensors.upper_limit',
      'sensors.position_x',
      'sensors.position_y',
      'sensors.def_time',
      'ss.last_measured_at',
      'ss.last_temperature',
      'ss.last_error',
      'ss.status',
      'ss.alert_codes',
    ])
    .where('sensors.store_id', '=', storeId)
    .where('sensors.disp_flg', '=', 1)
    .where((eb) => eb.exists(visibleStore(viewer, storeId)(db)))
    .orderBy(sql`sensors.location_no nulls first`)
    .orderBy('sensors.equipment_name')
    .orderBy('sensors.equipment_id')
    .limit(SENSOR_LIMIT)
    .execute();
  return rows.map((row) => ({
    equipmentId: row.equipment_id,
    equipmentName: row.equipment_name,
    iconKind: row.icon_kind,
    locationNo: row.location_no,
    lowerLimit: row.lower_limit,
    upperLimit: row.upper_limit,
    positionX: row.position_x,
    positionY: row.position_y,
    temperature: temperatureOf(row),
    status: row.status ?? 0,
    alertCodes: row.alert_codes ?? [],
    measuredAt: row.last_measured_at ? toCompactDateTime(row.last_measured_at) : null,
  }));
}

function temperatureOf(row: { last_measured_at: Date | null; last_temperature: number | null; last_error: boolean | null; def_time: { start: string; end: string }[] }): DiagramSensor['temperature'] {
  if (!row.last_measured_at) return null;
  if (row.last_error) return 'ERROR';
  if (isInDefrost(defrostRangesOf(row.def_time), row.last_measured_at)) return 'DEF';
  return row.last_temperature === null ? null : roundTenth(row.last_temperature);
}
