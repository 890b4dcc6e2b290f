import { z } from 'zod';

const emptyAsUndefined = (value: unknown) => (value === '' ? undefined : value);

export const PrefectureQuerySchema = z.object({
  region_id: z.preprocess(emptyAsUndefined, z.coerce.number({ invalid_type_error: 'region_id must be a number' }).int().positive().optional()),
});

export const StoregroupQuerySchema = z.object({
  company_id: z.preprocess(emptyAsUndefined, z.string().max(10).optional()),
});
