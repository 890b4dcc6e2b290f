// The dashboard's list query (GET /v1/store_list and the page's search params), apart from
// store-list.ts: the page's client code imports that module's labels and sizes, and a module with
// zod schemas at its top level brings zod (14 KB gzip) into the first load.
import { z } from 'zod';
import { dbText, SMALLINT_MAX } from './input-schemas';
import { DASHBOARD_PAGE_SIZE } from './store-list';

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
