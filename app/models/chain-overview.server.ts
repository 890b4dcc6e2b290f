import { sql } from 'kysely';
import type { Db } from '~/db/db.server';
import { ALL_ALERT_CODES, type Language } from '~/domain/alert-codes';
import { type ChainOverview, type ChainOverviewQuery } from '~/domain/chain-overview-schemas';
import { alertKindLabel, STORE_LEVEL_KIND_CODES, worstStatus } from '~/domain/chain-overview';
import { toCompactDateTime } from '~/domain/japan-time';
import { STORE_STATUS, STORE_STATUSES, storeStatusLabel } from '~/domain/store-status';
import { storeListEntriesOf } from './store-list.server';
import type { Viewer } from './users.server';

/** What furniture kind the overview calls sensors without one. */
const NO_KIND_NAME = '未設定';

/**
 * The chain at a glance for the viewer (GET /v1/chain_overview and the console's overview, decision
 * 292): the dashboard's entries under its access rule and filters, counted in a handful of
 * aggregates whatever the chain's size (one row per prefecture × store group × status; sensors
 * only where their status is above 0, on the partial index sensor_states_alerting).
 */
export async function getChainOverview(db: Db, viewer: Viewer, query: ChainOverviewQuery, language: Language, now: Date): Promise<ChainOverview> {
  const entries = () => storeListEntriesOf(db, viewer, query);
  const [cells, places, groups, furnitureRows, codeRows, storeLevel, worstAlarm] = await Promise.all([
    entries()
      .select(['e.prefecture_id', 'e.storegroup_id', 'e.store_status', sql<number>`count(*)::int`.as('n')])
      .groupBy(['e.prefecture_id', 'e.storegroup_id', 'e.store_status'])
      .execute(),
    db.selectFrom('prefectures as p').innerJoin('regions as r', 'r.region_id', 'p.region_id').select(['p.prefecture_id', 'p.prefecture_name', 'r.region_id', 'r.region_name']).orderBy('p.prefecture_id').execute(),
    db.selectFrom('storegroups').select(['storegroup_id', 'storegroup_name', 'company_id']).execute(),
    entries()
      .innerJoin('sensor_states as ss', 'ss.store_id', 'e.store_id')
      .innerJoin('sensors as s', (join) => join.onRef('s.store_id', '=', 'ss.store_id').onRef('s.equipment_id', '=', 'ss.equipment_id'))
      .leftJoin('measure_target_equipment_kinds as k', 'k.measure_target_equipment_kind_id', 's.measure_target_equipment_kind_id')
      .select([
        's.measure_target_equipment_kind_id as kind_id',
        'k.measure_target_equipment_kind_name as kind_name',
        sql<number>`(count(*) filter (where cardinality(ss.alert_codes) > 0))::int`.as('alarm'),
        sql<number>`(count(*) filter (where cardinality(ss.alert_codes) = 0))::int`.as('pending'),
      ])
      .where('ss.status', '>', 0)
      .groupBy(['s.measure_target_equipment_kind_id', 'k.measure_target_equipment_kind_name'])
      .execute(),
    // A sensor with two open codes counts under each; a store once per code.
    entries()
      .innerJoin('sensor_states as ss', 'ss.store_id', 'e.store_id')
      .innerJoin(sql`unnest(ss.alert_codes)`.as('code'), (join) => join.onTrue())
      .select([sql<string>`code`.as('code'), sql<number>`count(*)::int`.as('sensors'), sql<number>`count(distinct ss.store_id)::int`.as('stores')])
      .where('ss.status', '>', 0)
      .groupBy(sql`code`)
      .execute(),
    entries()
      .innerJoin('alert_history as h', 'h.store_id', 'e.store_id')
      .select(['h.alert_id', sql<number>`count(distinct h.store_id)::int`.as('stores')])
      .where('h.equipment_id', 'is', null)
      .where('h.recovered_at', 'is', null)
      .where('h.alert_id', 'in', STORE_LEVEL_KIND_CODES)
      .groupBy('h.alert_id')
      .execute(),
    entries()
      .innerJoin('sensor_states as ss', 'ss.store_id', 'e.store_id')
      .select(['e.store_id', 'e.store_no', 'e.store_name', 'e.prefecture_id', 'e.store_status', sql<number>`count(*)::int`.as('alarm_sensor_count')])
      .where('e.in_alarm', '=', true)
      .where('ss.status', '>', 0)
      .where(sql<boolean>`cardinality(ss.alert_codes) > 0`)
      .groupBy(['e.store_id', 'e.store_no', 'e.store_name', 'e.prefecture_id', 'e.store_status'])
      .orderBy('alarm_sensor_count', 'desc')
      .orderBy('e.store_no')
      .orderBy('e.store_id')
      .limit(query.worst_count)
      .execute(),
  ]);
  // After the stores in alarm, the silent ones (by number) fill the list.
  const room = query.worst_count - worstAlarm.length;
  const worstSilent =
    room > 0
      ? await entries()
          .select(['e.store_id', 'e.store_no', 'e.store_name', 'e.prefecture_id', 'e.store_status', sql<number>`0`.as('alarm_sensor_count')])
          .where('e.store_status', '=', STORE_STATUS.notConnected)
          .orderBy('e.store_no')
          .orderBy('e.store_id')
          .limit(room)
          .execute()
      : [];

  const byStatus = new Map<number, number>();
  const byPrefecture = new Map<number, { all: number; alarm: number; silent: number; statuses: Set<number> }>();
  const byGroup = new Map<string, { all: number; alarm: number; silent: number }>();
  for (const cell of cells) {
    byStatus.set(cell.store_status, (byStatus.get(cell.store_status) ?? 0) + cell.n);
    const alarm = cell.store_status === STORE_STATUS.warning ? cell.n : 0;
    const silent = cell.store_status === STORE_STATUS.notConnected ? cell.n : 0;
    const place = byPrefecture.get(cell.prefecture_id) ?? { all: 0, alarm: 0, silent: 0, statuses: new Set<number>() };
    byPrefecture.set(cell.prefecture_id, { all: place.all + cell.n, alarm: place.alarm + alarm, silent: place.silent + silent, statuses: place.statuses.add(cell.store_status) });
    const group = byGroup.get(cell.storegroup_id) ?? { all: 0, alarm: 0, silent: 0 };
    byGroup.set(cell.storegroup_id, { all: group.all + cell.n, alarm: group.alarm + alarm, silent: group.silent + silent });
  }
  const counted = (all: number, alarm: number, silent: number) => ({ store_count: all, alarm_store_count: alarm, not_connected_count: silent });

  const prefectures = places.map((place) => {
    const found = byPrefecture.get(place.prefecture_id);
    return {
      prefecture_id: place.prefecture_id,
      prefecture_name: place.prefecture_name,
      region_id: place.region_id,
      ...counted(found?.all ?? 0, found?.alarm ?? 0, found?.silent ?? 0),
      worst_status: worstStatus(found?.statuses ?? []),
    };
  });
  const regions = new Map<number, ChainOverview['regions'][number]>();
  for (const place of prefectures) {
    const region = regions.get(place.region_id) ?? { region_id: place.region_id, region_name: places.find((p) => p.region_id === place.region_id)!.region_name, ...counted(0, 0, 0) };
    regions.set(place.region_id, {
      ...region,
      ...counted(region.store_count + place.store_count, region.alarm_store_count + place.alarm_store_count, region.not_connected_count + place.not_connected_count),
    });
  }
  const storegroups = groups
    .filter((group) => byGroup.has(group.storegroup_id))
    .map((group) => {
      const found = byGroup.get(group.storegroup_id)!;
      return { storegroup_id: group.storegroup_id, storegroup_name: group.storegroup_name, company_id: group.company_id, ...counted(found.all, found.alarm, found.silent) };
    })
    .sort((a, b) => b.alarm_store_count - a.alarm_store_count || b.not_connected_count - a.not_connected_count || a.storegroup_id.localeCompare(b.storegroup_id));

  const kinds = new Map<string, { sensors: number; stores: number }>(codeRows.map((row) => [row.code, { sensors: row.sensors, stores: row.stores }]));
  for (const row of storeLevel) kinds.set(row.alert_id, { sensors: 0, stores: row.stores });
  const alertKinds = ALL_ALERT_CODES.filter((code) => kinds.has(code)).map((code) => ({
    alert_id: code,
    label: alertKindLabel(code, language),
    sensor_count: kinds.get(code)!.sensors,
    store_count: kinds.get(code)!.stores,
  }));

  const storeCount = cells.reduce((sum, cell) => sum + cell.n, 0);
  return {
    generated_at: toCompactDateTime(now),
    store_count: storeCount,
    alarm_store_count: byStatus.get(STORE_STATUS.warning) ?? 0,
    statuses: STORE_STATUSES.map((status) => ({ store_status: status, label: storeStatusLabel(status, language), store_count: byStatus.get(status) ?? 0 })),
    alert_kinds: alertKinds,
    regions: [...regions.values()],
    prefectures,
    storegroups,
    furniture_kinds: furnitureRows
      .map((row) => ({ measure_target_equipment_kind_id: row.kind_id, name: row.kind_name ?? NO_KIND_NAME, alarm_sensor_count: row.alarm, pending_sensor_count: row.pending }))
      .sort((a, b) => b.alarm_sensor_count - a.alarm_sensor_count || b.pending_sensor_count - a.pending_sensor_count || (a.measure_target_equipment_kind_id ?? 999) - (b.measure_target_equipment_kind_id ?? 999)),
    worst_stores: [...worstAlarm, ...worstSilent],
  };
}
