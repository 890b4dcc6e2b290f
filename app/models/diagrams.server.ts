import { sql } from 'kysely';
import type { Db } from '~/db/db.server';
import type { SensorLabel } from '~/domain/sensor-view';
import { defrostRangesOf, isInDefrost } from '~/domain/defrost';
import type { DiagramContentType, SensorPosition } from '~/domain/diagram';
import { roundTenth } from '~/domain/format';
import { toCompactDateTime } from '~/domain/japan-time';
import { canViewStore, storeVisibleTo, visibleStoreExists } from './stores.server';
import type { Viewer } from './users.server';

// Store floor diagrams: the diagram files (a store's own, or chain-wide templates with a null
// store_id), the store's chosen diagram, and the sensors' positions on it. Every read is
// scoped by what the viewer may see; templates are visible to every signed-in user. The writes
// run inside the transaction of services/diagrams.server.ts, which decides and audits them.

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
    .where(visibleStoreExists(viewer, storeId))
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
  if (!(await canViewStore(db, viewer, storeId))) return [];
  const [ownRows, templateRows] = await Promise.all([own.execute(), templates.execute()]);
  return [...ownRows, ...templateRows].map((row) => ({ diagramId: row.diagram_id, diagramName: row.diagram_name, isTemplate: row.store_id === null }));
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
        visibleStoreExists(viewer, eb.ref('diagrams.store_id'))(eb),
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
    .where(visibleStoreExists(viewer, storeId))
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

/** The store's files, stored by `createdBy`; returns them in the order given. */
export async function insertDiagrams(trx: Db, storeId: string, files: readonly UploadedDiagram[], createdBy: number): Promise<CreatedDiagram[]> {
  return trx
    .insertInto('diagrams')
    .values(
      files.map((file) => ({
        store_id: storeId,
        diagram_name: file.name,
        content_type: file.contentType,
        byte_size: file.bytes.byteLength,
        content: Buffer.from(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength),
        created_by: createdBy,
      })),
    )
    .returning(['diagram_id', 'diagram_name', 'content_type'])
    .execute();
}

/** The store's chosen diagram id (stores.diagram_id), null when none. */
export async function getStoreDiagramId(db: Db, storeId: string): Promise<number | null> {
  const row = await db.selectFrom('stores').select('diagram_id').where('store_id', '=', storeId).executeTakeFirst();
  return row?.diagram_id ?? null;
}

/** Whether the store may use the diagram: one of its own files or a template. */
export async function isUsableDiagram(db: Db, storeId: string, diagramId: number): Promise<boolean> {
  const row = await db
    .selectFrom('diagrams')
    .select('diagram_id')
    .where('diagram_id', '=', diagramId)
    .where((eb) => eb.or([eb('store_id', 'is', null), eb('store_id', '=', storeId)]))
    .executeTakeFirst();
  return row !== undefined;
}

export async function setStoreDiagramId(trx: Db, storeId: string, diagramId: number | null): Promise<void> {
  await trx.updateTable('stores').set({ diagram_id: diagramId, updated_at: new Date() }).where('store_id', '=', storeId).execute();
}

/** The sensors among `equipmentIds` the viewer may see (and of `storeId` when given), with their store. */
export async function findVisibleSensors(db: Db, viewer: Viewer, equipmentIds: readonly number[], storeId?: string): Promise<{ equipmentId: number; storeId: string }[]> {
  let query = db
    .selectFrom('sensors')
    .select(['sensors.equipment_id as equipmentId', 'sensors.store_id as storeId'])
    .where('sensors.equipment_id', 'in', equipmentIds)
    .where((eb) => visibleStoreExists(viewer, eb.ref('sensors.store_id'))(eb));
  if (storeId !== undefined) query = query.where('sensors.store_id', '=', storeId);
  return query.execute();
}

/** Writes the positions of sensors of `storeIds` in one statement ((0, 0) takes a sensor off the diagram). */
export async function updateSensorPositions(trx: Db, positions: readonly SensorPosition[], storeIds: readonly string[]): Promise<void> {
  await sql`
    update sensors as s
    set position_x = v.x, position_y = v.y, updated_at = now()
    from unnest(${positions.map((p) => p.equipment_id)}::int[], ${positions.map((p) => p.position_x)}::int[], ${positions.map((p) => p.position_y)}::int[]) as v(id, x, y)
    where s.equipment_id = v.id and s.store_id = any(${storeIds}::varchar[])`.execute(trx);
}

/** Placed, shown (disp_flg 1) sensors per store: what the diagram shows and the 20 counts. */
export async function countPlacedSensors(db: Db, storeIds: readonly string[]): Promise<Map<string, number>> {
  const rows = await db
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
    .where(visibleStoreExists(viewer, storeId))
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
