import { type SqlBool, sql } from 'kysely';
import type { Db } from '~/db/db.server';
import { changedFields, type SensorDifference, type SettingsTemplate, type SettingsValues, TEMPLATE_PREVIEW_LIMIT, type TemplateSave } from '~/domain/settings-templates';
import { storeVisibleTo } from './stores.server';
import type { Viewer } from './users.server';

// Settings templates (issue 32, decision 295): the templates, and the sensors of a store
// group whose settings differ from their kind's template, read and written set-based (one
// statement whatever the number of sensors). Only the stores the viewer sees are ever touched.

const updatedAtText = sql<string>`to_char(t.updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

export async function listTemplates(db: Db): Promise<SettingsTemplate[]> {
  const rows = await db
    .selectFrom('settings_templates as t')
    .select(['t.template_id', 't.template_name', 't.icon_kind', 't.lower_limit', 't.upper_limit', 't.guard_time', 't.snoozing_time', 't.time_constant', 't.def_time', updatedAtText.as('updated_at')])
    .orderBy('t.icon_kind')
    .execute();
  return rows.map((row) => ({ ...row, def_time: row.def_time ?? [] }));
}

export async function getTemplate(db: Db, templateId: number): Promise<SettingsTemplate | null> {
  return (await listTemplates(db)).find((template) => template.template_id === templateId) ?? null;
}

export async function templateOfKind(db: Db, iconKind: number): Promise<number | null> {
  const row = await db.selectFrom('settings_templates').select('template_id').where('icon_kind', '=', iconKind).executeTakeFirst();
  return row?.template_id ?? null;
}

const values = (input: TemplateSave) => ({
  template_name: input.template_name,
  icon_kind: input.icon_kind,
  lower_limit: input.lower_limit,
  upper_limit: input.upper_limit,
  guard_time: input.guard_time,
  snoozing_time: input.snoozing_time,
  time_constant: input.time_constant,
  def_time: JSON.stringify(input.def_time),
});

export async function insertTemplate(trx: Db, input: TemplateSave, userId: number, now: Date): Promise<number> {
  const row = await trx.insertInto('settings_templates').values({ ...values(input), updated_at: now, updated_by: userId }).returning('template_id').executeTakeFirstOrThrow();
  return row.template_id;
}

/** The template before the update (for the audit row), or null when there is none. */
export async function updateTemplate(trx: Db, input: TemplateSave & { template_id: number }, userId: number, now: Date): Promise<SettingsTemplate | null> {
  const before = await getTemplate(trx, input.template_id);
  if (!before) return null;
  await trx.updateTable('settings_templates').set({ ...values(input), updated_at: now, updated_by: userId }).where('template_id', '=', input.template_id).execute();
  return before;
}

export async function deleteTemplate(trx: Db, templateId: number): Promise<SettingsTemplate | null> {
  const before = await getTemplate(trx, templateId);
  if (before) await trx.deleteFrom('settings_templates').where('template_id', '=', templateId).execute();
  return before;
}

/** Whether the store group exists and has a store the viewer sees (for a manager: one of their stores). */
export async function storegroupSeenBy(db: Db, viewer: Viewer, storegroupId: string): Promise<boolean> {
  const group = await db.selectFrom('storegroups').select('storegroup_id').where('storegroup_id', '=', storegroupId).executeTakeFirst();
  if (!group) return false;
  const store = await db.selectFrom('stores').select('stores.store_id').where('stores.storegroup_id', '=', storegroupId).where(storeVisibleTo(viewer)).limit(1).executeTakeFirst();
  return store !== undefined;
}

/** The store groups the viewer sees a store of, for the screen's choice. */
export async function listStoregroupsSeenBy(db: Db, viewer: Viewer): Promise<{ storegroupId: string; storegroupName: string }[]> {
  const rows = await db
    .selectFrom('storegroups as g')
    .select(['g.storegroup_id', 'g.storegroup_name'])
    .where((eb) => eb.exists(eb.selectFrom('stores').select(sql`1`.as('one')).whereRef('stores.storegroup_id', '=', 'g.storegroup_id').where(storeVisibleTo(viewer))))
    .orderBy('g.storegroup_id')
    .execute();
  return rows.map((row) => ({ storegroupId: row.storegroup_id, storegroupName: row.storegroup_name }));
}

/** A sensor's settings differ from the template's (a null time constant reads as its default). */
const differs = sql<SqlBool>`(s.lower_limit is distinct from t.lower_limit or s.upper_limit is distinct from t.upper_limit
  or s.guard_time is distinct from t.guard_time or s.snoozing_time is distinct from t.snoozing_time
  or coalesce(s.time_constant, 100) is distinct from t.time_constant or coalesce(s.def_time, '[]'::jsonb) is distinct from t.def_time)`;

/**
 * The sensors of the group's stores the viewer sees, of a kind with a template (that template when
 * templateId is given), not removed by `now` (Japan date), whose settings differ from it.
 */
function differingSensors(db: Db, viewer: Viewer, storegroupId: string, now: Date, templateId?: number) {
  let query = db
    .selectFrom('sensors as s')
    .innerJoin('stores', 'stores.store_id', 's.store_id')
    .innerJoin('settings_templates as t', 't.icon_kind', 's.icon_kind')
    .where('stores.storegroup_id', '=', storegroupId)
    .where(storeVisibleTo(viewer))
    .where((eb) => eb.or([eb('s.removal_datetime', 'is', null), eb('s.removal_datetime', '>', sql<string>`(${now}::timestamptz at time zone 'Asia/Tokyo')::date`)]))
    .where(differs);
  if (templateId !== undefined) query = query.where('t.template_id', '=', templateId);
  return query;
}

/** A sensor's settings as a template holds them: what a preview compares and an apply replaces. */
const SENSOR_SETTINGS_COLUMNS = ['s.lower_limit', 's.upper_limit', 's.guard_time', 's.snoozing_time', 's.time_constant', 's.def_time'] as const;

/** How many sensors and stores differ, and the first `limit` of them with their values and the template's. */
export async function listDifferences(
  db: Db,
  viewer: Viewer,
  storegroupId: string,
  now: Date,
  templateId: number | undefined,
  limit = TEMPLATE_PREVIEW_LIMIT,
): Promise<{ storeCount: number; sensorCount: number; sensors: SensorDifference[] }> {
  const counts = await differingSensors(db, viewer, storegroupId, now, templateId)
    .select([sql<number>`count(*)::int`.as('sensors'), sql<number>`count(distinct s.store_id)::int`.as('stores')])
    .executeTakeFirstOrThrow();
  const rows = await differingSensors(db, viewer, storegroupId, now, templateId)
    .select([
      's.store_id',
      'stores.store_name',
      's.equipment_id',
      's.equipment_name',
      's.icon_kind',
      't.template_id',
      ...SENSOR_SETTINGS_COLUMNS,
      't.lower_limit as t_lower_limit',
      't.upper_limit as t_upper_limit',
      't.guard_time as t_guard_time',
      't.snoozing_time as t_snoozing_time',
      't.time_constant as t_time_constant',
      't.def_time as t_def_time',
    ])
    .orderBy('s.store_id')
    .orderBy('s.equipment_id')
    .limit(limit)
    .execute();
  const sensors = rows.map((row): SensorDifference => {
    const before: SettingsValues = { lower_limit: row.lower_limit, upper_limit: row.upper_limit, guard_time: row.guard_time, snoozing_time: row.snoozing_time, time_constant: row.time_constant ?? 100, def_time: row.def_time ?? [] };
    const after: SettingsValues = { lower_limit: row.t_lower_limit, upper_limit: row.t_upper_limit, guard_time: row.t_guard_time, snoozing_time: row.t_snoozing_time, time_constant: row.t_time_constant, def_time: row.t_def_time ?? [] };
    return { store_id: row.store_id, store_name: row.store_name, equipment_id: row.equipment_id, equipment_name: row.equipment_name, icon_kind: row.icon_kind, template_id: row.template_id, fields: changedFields(before, after), before, after };
  });
  return { storeCount: counts.stores, sensorCount: counts.sensors, sensors };
}

/**
 * Writes the template's settings to every differing sensor of the group the viewer sees, and
 * their settings history (DESIGN.md "Settings over time"), in one statement: the open periods
 * close at `now` and new ones open from it with the template's values; a sensor without history
 * (saved before it was kept) first gets its old values from its creation. Call it in the
 * transaction that writes the audit row. Returns how many sensors and which stores changed.
 */
export async function applyTemplate(trx: Db, viewer: Viewer, templateId: number, storegroupId: string, now: Date): Promise<{ sensors: number; stores: number; storeIds: string[] }> {
  const targets = differingSensors(trx, viewer, storegroupId, now, templateId).select([
    's.store_id',
    's.equipment_id',
    's.created_at',
    ...SENSOR_SETTINGS_COLUMNS,
  ]);
  const { rows } = await sql<{ sensors: number; stores: number; store_ids: string[] | null }>`
    with targets as (${targets}),
    updated as (
      update sensors s
      set lower_limit = t.lower_limit, upper_limit = t.upper_limit, guard_time = t.guard_time, snoozing_time = t.snoozing_time,
        time_constant = t.time_constant, def_time = t.def_time, updated_at = ${now}
      from targets g, settings_templates t
      where s.store_id = g.store_id and s.equipment_id = g.equipment_id and t.template_id = ${templateId}
      returning s.store_id, s.equipment_id
    ), closed as (
      update sensor_settings_history h set effective_to = ${now}
      from targets g
      where h.store_id = g.store_id and h.equipment_id = g.equipment_id and h.effective_to is null
      returning h.equipment_id
    ), legacy as (
      insert into sensor_settings_history (store_id, equipment_id, effective_from, effective_to, lower_limit, upper_limit, guard_time, snoozing_time, time_constant, def_time)
      select g.store_id, g.equipment_id, g.created_at, ${now}, g.lower_limit, g.upper_limit, g.guard_time, g.snoozing_time, g.time_constant, coalesce(g.def_time, '[]'::jsonb)
      from targets g
      left join sensor_settings_history h on h.store_id = g.store_id and h.equipment_id = g.equipment_id
      where h.equipment_id is null and g.created_at < ${now}
      returning equipment_id
    ), opened as (
      insert into sensor_settings_history (store_id, equipment_id, effective_from, effective_to, lower_limit, upper_limit, guard_time, snoozing_time, time_constant, def_time)
      select g.store_id, g.equipment_id, ${now}, null, t.lower_limit, t.upper_limit, t.guard_time, t.snoozing_time, t.time_constant, t.def_time
      -- Reading closed's count makes it run first: the CTEs of one statement run in no set order,
      -- and a period opened before the old one is closed breaks the one-open-period index.
      from targets g, settings_templates t, (select count(*) from closed) as after_closed
      where t.template_id = ${templateId}
      returning equipment_id
    )
    select count(*)::int as sensors, count(distinct store_id)::int as stores, array_agg(distinct store_id order by store_id) as store_ids from updated`.execute(trx);
  const [row] = rows;
  return { sensors: row?.sensors ?? 0, stores: row?.stores ?? 0, storeIds: row?.store_ids ?? [] };
}
