import { z } from 'zod';
import { dbText, SMALLINT_MAX } from './input-schemas';
import { type AlertCode, alertText, isAlertCode, type Language } from './alert-codes';
import { ja } from './texts/ja';

export const DASHBOARD_PAGE_SIZE = 20;
export const STORE_NAME_FILTER_SIZE = 50;

/** Regions and prefectures are smallint columns. */
const id = (field: string) => z.coerce.number({ invalid_type_error: `${field} must be a number` }).int(`${field} must be a whole number`).positive().max(SMALLINT_MAX);
const optional = <T extends z.ZodTypeAny>(schema: T) => z.preprocess((value) => (value === '' ? undefined : value), schema.optional());

// GET /v1/store_list: page_no, page_count, optional filters (000 §7).
export const StoreListQuerySchema = z.object({
  page_no: z.coerce.number({ invalid_type_error: 'page_no must be a number' }).int().min(1, 'page_no starts at 1').max(100_000).default(1),
  page_count: z.coerce.number({ invalid_type_error: 'page_count must be a number' }).int().min(1).max(100, 'page_count is at most 100').default(DASHBOARD_PAGE_SIZE),
  region_id: optional(id('region_id')),
  prefecture_id: optional(id('prefecture_id')),
  company_id: optional(dbText().max(10)),
  storegroup_id: optional(dbText().max(5)),
  store_status: optional(z.coerce.number({ invalid_type_error: 'store_status must be a number' }).int().min(0).max(3, 'store_status is 0 to 3')),
  store_name: optional(dbText().trim().max(255)),
  store_no: optional(dbText().trim().max(20)),
});

export type StoreListQuery = z.infer<typeof StoreListQuerySchema>;

export const STORE_STATUS_LABELS: Record<number, string> = ja.storeStatus;

export const WORKING_STATE_LABELS: Record<string, string> = ja.workingState;

/**
 * The dashboard row's alert messages from its sensors' open (code, sensor status) pairs:
 * each distinct message once (000 §8), in code order.
 */
export function storeAlertMessages(alerts: { code: string; status: number }[], language: Language): string[] {
  const sorted = [...alerts].filter((alert): alert is { code: AlertCode; status: number } => isAlertCode(alert.code)).sort((a, b) => a.code.localeCompare(b.code));
  return [...new Set(sorted.map((alert) => alertText(alert.code, language, alert.status)))];
}
