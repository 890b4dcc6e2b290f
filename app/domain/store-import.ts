import { z } from 'zod';
import { nameText } from './input-schemas';
import { type SensorSave, SensorSaveDocumentedSchema, SensorSaveSchema } from './sensor-settings';
import { STORE_MESSAGES, type StoreSaveInput, StoreFieldsSchema, StoreIdSchema, USERGROUPS_MAX, UsergroupIdSchema, checkStorePeriod, maxLength } from './store-schemas';

// The store and sensor import (issue 15, `onreco stores import` / `onreco sensors import`;
// decision 153): many stores, their user groups and their sensors in one call, all or nothing.
// Each store is read with the store save's fields (StoreFieldsSchema) and each sensor with the
// sensor save's schema (SensorSaveSchema), so an import refuses exactly what the forms refuse,
// field by field. A store is matched by store_id and a sensor by its serial in its store: what
// exists is left as it is, so importing the same file twice changes nothing.

export const IMPORT_MAX_STORES = 5_000;
export const IMPORT_MAX_SENSORS = 100_000;
/** The largest import body once unpacked: 100,000 sensors of about 300 bytes of JSON each. */
export const IMPORT_MAX_BYTES = 32 * 1024 * 1024;
export const USERGROUP_NAME_MAX = 50;

export const IMPORT_MESSAGES = {
  repeated: 'ファイル内で重複しています',
  unknownGroup: (name: string) => `存在しないユーザーグループです (${name})`,
  ambiguousGroup: (name: string) => `同じ名前のユーザーグループが複数あります (${name})`,
  tooManySensors: `センサは${IMPORT_MAX_SENSORS}件までです`,
} as const;

const addAt = (ctx: z.RefinementCtx, path: (string | number)[], message: string) => ctx.addIssue({ code: z.ZodIssueCode.custom, path, message });

/** How long reading an import may hold the event loop before it hands it back (decision 279). */
export const IMPORT_SLICE_MS = 10;

/**
 * A checkpoint for a long read: after each unit of work, `await pause()` gives the event loop back
 * once IMPORT_SLICE_MS have passed, so the web process keeps answering while a 5,000-store import
 * is read (the schemas below are async for it: parse them with safeParseAsync).
 */
function timeSlices(): () => Promise<void> {
  let since = performance.now();
  return async () => {
    if (performance.now() - since < IMPORT_SLICE_MS) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    since = performance.now();
  };
}

const SensorEntriesSchema = z.array(z.record(z.unknown()), { invalid_type_error: 'sensors is a list of sensor objects' }).max(IMPORT_MAX_SENSORS, IMPORT_MESSAGES.tooManySensors);

/**
 * The sensors of one store, each read by the sensor save's schema as a registration (no
 * equipment_id: the store's sensor of that serial is the one meant). A serial twice in the list
 * is refused at its second place. Issues keep their place under `at`.
 */
async function readSensors(storeId: string, sensors: readonly Record<string, unknown>[], ctx: z.RefinementCtx, at: (string | number)[], pause: () => Promise<void>): Promise<SensorSave[]> {
  const read: SensorSave[] = [];
  const serials = new Set<string>();
  for (const [index, sensor] of sensors.entries()) {
    await pause();
    const parsed = SensorSaveSchema.safeParse({ ...sensor, store_id: storeId, equipment_id: undefined, updated_at: undefined });
    if (!parsed.success) {
      // The store's own id is checked once, at the store.
      for (const issue of parsed.error.issues) if (issue.path[0] !== 'store_id') addAt(ctx, [...at, index, ...issue.path], issue.message);
      continue;
    }
    const serial = parsed.data.serial_no!;
    if (serials.has(serial)) addAt(ctx, [...at, index, 'serial_no'], IMPORT_MESSAGES.repeated);
    serials.add(serial);
    read.push(parsed.data);
  }
  return read;
}

const UsergroupNameSchema = nameText({ invalid_type_error: STORE_MESSAGES.choose }).trim().min(1, STORE_MESSAGES.choose).max(USERGROUP_NAME_MAX, maxLength(USERGROUP_NAME_MAX));

/** The store fields of an import: the store save's entity, its user groups by id or by name. */
const ImportStoreFieldsSchema = StoreFieldsSchema.omit({ usergroup: true })
  .extend({
    usergroup: z.array(UsergroupIdSchema, { invalid_type_error: STORE_MESSAGES.choose }).max(USERGROUPS_MAX, `ユーザーグループは${USERGROUPS_MAX}件までです`).default([]),
    usergroup_names: z.array(UsergroupNameSchema, { invalid_type_error: STORE_MESSAGES.choose }).max(USERGROUPS_MAX, `ユーザーグループは${USERGROUPS_MAX}件までです`).default([]),
  })
  .superRefine(checkStorePeriod);

export interface ImportStore {
  store: StoreSaveInput;
  usergroup_names: string[];
  sensors: SensorSave[];
}

const issuesAt = (ctx: z.RefinementCtx, at: (string | number)[], error: z.ZodError) => {
  for (const issue of error.issues) addAt(ctx, [...at, ...issue.path], issue.message);
};

/**
 * One store of an import with its sensors. The store and each sensor are read apart, so a bad
 * store field does not hide its sensors' errors: a file is told all that is wrong at once.
 */
async function readStore(raw: unknown, ctx: z.RefinementCtx, at: (string | number)[], pause: () => Promise<void>): Promise<ImportStore | null> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    addAt(ctx, at, 'a store is an object');
    return null;
  }
  const { sensors: rawSensors = [], ...fields } = raw as Record<string, unknown>;
  const store = ImportStoreFieldsSchema.safeParse(fields);
  const entries = SensorEntriesSchema.safeParse(rawSensors);
  if (!store.success) issuesAt(ctx, at, store.error);
  if (!entries.success) issuesAt(ctx, [...at, 'sensors'], entries.error);
  const storeId = typeof fields.store_id === 'string' ? fields.store_id.trim() : '';
  const sensors = entries.success ? await readSensors(storeId, entries.data, ctx, [...at, 'sensors'], pause) : [];
  if (!store.success) return null;
  const { usergroup_names, ...entity } = store.data;
  if (entity.usergroup.length + usergroup_names.length === 0) addAt(ctx, [...at, 'usergroup_names'], STORE_MESSAGES.choose);
  return { store: { ...entity, usergroup: [...new Set(entity.usergroup)] }, usergroup_names: [...new Set(usergroup_names)], sensors };
}

const DryRunSchema = z.boolean({ invalid_type_error: 'dry_run is true or false' }).default(false);

/** The store fields no two stores may share (001 §8): one of a file is refused at its second store too. */
const UNIQUE_IN_FILE = ['store_id', 'store_no', 'store_name', 'gateway_info'] as const;

/** A value of a unique field as the store save compares it (trimmed), or null for none. */
function uniqueValue(raw: unknown, field: string): string | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const value = (raw as Record<string, unknown>)[field];
  const text = typeof value === 'string' || typeof value === 'number' ? String(value).trim() : '';
  return text === '' ? null : text;
}

/** POST /v1/stores/import. */
export const StoreImportRequestSchema = z
  .object({
    dry_run: DryRunSchema,
    stores: z.array(z.unknown(), { required_error: 'stores is required', invalid_type_error: 'stores is a list of stores' }).min(1, 'stores is empty').max(IMPORT_MAX_STORES, `at most ${IMPORT_MAX_STORES} stores an import`),
  })
  .transform(async (request, ctx) => {
    for (const field of UNIQUE_IN_FILE) {
      const seen = new Set<string>();
      request.stores.forEach((raw, index) => {
        const value = uniqueValue(raw, field);
        if (value === null) return;
        if (seen.has(value)) addAt(ctx, ['stores', index, field], IMPORT_MESSAGES.repeated);
        seen.add(value);
      });
    }
    const pause = timeSlices();
    const stores: (ImportStore | null)[] = [];
    for (const [index, raw] of request.stores.entries()) stores.push(await readStore(raw, ctx, ['stores', index], pause));
    if (stores.reduce((sum, entry) => sum + (entry?.sensors.length ?? 0), 0) > IMPORT_MAX_SENSORS) addAt(ctx, ['stores'], IMPORT_MESSAGES.tooManySensors);
    return { dry_run: request.dry_run, stores: stores.filter((entry): entry is ImportStore => entry !== null) };
  });

export type StoreImportRequest = z.output<typeof StoreImportRequestSchema>;

/** POST /v1/equipments/import: sensors of one store. */
export const SensorImportRequestSchema = StoreIdSchema.extend({ dry_run: DryRunSchema, sensors: SensorEntriesSchema.min(1, 'sensors is empty') }).transform(async (request, ctx) => ({
  dry_run: request.dry_run,
  store_id: request.store_id,
  sensors: await readSensors(request.store_id, request.sensors, ctx, ['sensors'], timeSlices()),
}));

export type SensorImportRequest = z.output<typeof SensorImportRequestSchema>;

// ---- what the description shows (the schemas above read and transform) ----

const DocumentedSensorSchema = SensorSaveDocumentedSchema.omit({ store_id: true, equipment_id: true, updated_at: true });

export const StoreImportDocumentedSchema = z.object({
  dry_run: z.boolean().optional().describe('true: check everything and answer what would be created, writing nothing'),
  stores: z.array(
    StoreFieldsSchema.omit({ usergroup: true }).extend({
      usergroup: z.array(z.number().int()).optional().describe('user group ids'),
      usergroup_names: z.array(z.string()).optional().describe('user groups by name (a name several groups share is refused); with usergroup, at least one'),
      sensors: z.array(DocumentedSensorSchema).optional(),
    }),
  ),
});

export const SensorImportDocumentedSchema = StoreIdSchema.extend({ dry_run: z.boolean().optional(), sensors: z.array(DocumentedSensorSchema) });

// ---- the answer ----

const ImportedStoreSchema = z.strictObject({
  store_id: z.string(),
  /** false: the store was there already and is left as it is. */
  created: z.boolean(),
  sensors_created: z.number().int(),
  sensors_existing: z.number().int(),
});

export const ImportAnswerSchema = z.strictObject({
  dry_run: z.boolean(),
  stores_created: z.number().int(),
  stores_existing: z.number().int(),
  sensors_created: z.number().int(),
  sensors_existing: z.number().int(),
  stores: z.array(ImportedStoreSchema),
});

export type ImportAnswer = z.infer<typeof ImportAnswerSchema>;
export type ImportedStore = z.infer<typeof ImportedStoreSchema>;

/** The answer's totals from its stores. */
export function importAnswerOf(dryRun: boolean, stores: ImportedStore[]): ImportAnswer {
  const sum = (pick: (store: ImportedStore) => number) => stores.reduce((total, store) => total + pick(store), 0);
  return {
    dry_run: dryRun,
    stores_created: sum((store) => (store.created ? 1 : 0)),
    stores_existing: sum((store) => (store.created ? 0 : 1)),
    sensors_created: sum((store) => store.sensors_created),
    sensors_existing: sum((store) => store.sensors_existing),
    stores,
  };
}
