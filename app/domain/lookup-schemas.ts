import { z } from 'zod';
import { dbText, SMALLINT_MAX } from './input-schemas';

const emptyAsUndefined = (value: unknown) => (value === '' ? undefined : value);

export const PrefectureQuerySchema = z.object({
  region_id: z.preprocess(emptyAsUndefined, z.coerce.number({ invalid_type_error: 'region_id must be a number' }).int().positive().max(SMALLINT_MAX).optional()),
});

export const StoregroupQuerySchema = z.object({
  company_id: z.preprocess(emptyAsUndefined, dbText().max(10).optional()),
});

// ---- answers ----

export const RegionListSchema = z.array(z.strictObject({ region_id: z.number().int(), region_name: z.string() }));

export const PrefectureListSchema = z.array(z.strictObject({ prefecture_id: z.number().int(), prefecture_name: z.string(), region_id: z.number().int() }));

export const CompanyListSchema = z.array(z.strictObject({ company_id: z.string(), company_name: z.string() }));

export const StoregroupListSchema = z.array(z.strictObject({ storegroup_id: z.string(), storegroup_name: z.string(), company_id: z.string(), company_name: z.string() }));
