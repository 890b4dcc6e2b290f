// GET /v1/chain_overview: its query and answer (apart from chain-overview.ts, which the screen's
// client code imports: zod stays out of its first load, as store-list-schemas.ts does).
import { z } from 'zod';
import { CHAIN_OVERVIEW_WORST_COUNT, CHAIN_OVERVIEW_WORST_MAX } from './chain-overview';
import { StoreListQuerySchema } from './store-list-schemas';

/** The dashboard's own filters (same meaning, same checks), plus how many worst stores to list. */
export const ChainOverviewQuerySchema = StoreListQuerySchema.pick({ region_id: true, company_id: true, storegroup_id: true }).extend({
  worst_count: z.coerce
    .number({ invalid_type_error: 'worst_count must be a number' })
    .int('worst_count must be a whole number')
    .min(1, 'worst_count starts at 1')
    .max(CHAIN_OVERVIEW_WORST_MAX, `worst_count is at most ${CHAIN_OVERVIEW_WORST_MAX}`)
    .default(CHAIN_OVERVIEW_WORST_COUNT),
});
export type ChainOverviewQuery = z.infer<typeof ChainOverviewQuerySchema>;

const count = z.number().int().nonnegative();
/** Stores of a place or group: all, in alarm (警報発生中), not connected (未接続). */
const storeCounts = { store_count: count, alarm_store_count: count, not_connected_count: count };

export const ChainOverviewAnswerSchema = z.strictObject({
  /** When the counts were taken, YYYYMMDDHHmmss Japan time. */
  generated_at: z.string(),
  store_count: count,
  alarm_store_count: count,
  statuses: z.array(z.strictObject({ store_status: z.number().int(), label: z.string(), store_count: count })),
  alert_kinds: z.array(z.strictObject({ alert_id: z.string(), label: z.string(), sensor_count: count, store_count: count })),
  regions: z.array(z.strictObject({ region_id: z.number().int(), region_name: z.string(), ...storeCounts })),
  prefectures: z.array(z.strictObject({ prefecture_id: z.number().int(), prefecture_name: z.string(), region_id: z.number().int(), ...storeCounts, worst_status: z.number().int() })),
  storegroups: z.array(z.strictObject({ storegroup_id: z.string(), storegroup_name: z.string(), company_id: z.string(), ...storeCounts })),
  furniture_kinds: z.array(
    z.strictObject({
      measure_target_equipment_kind_id: z.number().int().nullable(),
      name: z.string(),
      /** Sensors with an open alert (the sensor's status 1 or 2 with alert codes). */
      alarm_sensor_count: count,
      /** Sensors at status 1 without an open alert: a pending excursion (guard time running). */
      pending_sensor_count: count,
    }),
  ),
  worst_stores: z.array(
    z.strictObject({
      store_id: z.string(),
      store_no: z.string(),
      store_name: z.string(),
      prefecture_id: z.number().int(),
      store_status: z.number().int(),
      alarm_sensor_count: count,
    }),
  ),
});
export type ChainOverview = z.infer<typeof ChainOverviewAnswerSchema>;
