import { beforeEach, describe, expect, it } from 'vitest';
import { settingsInForceBySensor } from '~/models/sensor-settings.server';
import { action as applyAction } from '~/routes/on-reco+/v1.settings_template.apply';
import { loader as divergenceLoader } from '~/routes/on-reco+/v1.settings_template.divergence';
import { loader as previewLoader } from '~/routes/on-reco+/v1.settings_template.preview';
import { action as templateAction } from '~/routes/on-reco+/v1.settings_template';
import { bleAddress, countRows, createSensor, createStore, createUser, TEST_PASSWORD } from '../fixtures/chain';
import { resetDb, testDb } from '../support/db';
import { call, get, postJson, tokenFor } from '../support/requests';

// Settings templates (issue 32, decision 295): preview, apply in one audited step with the
// settings history, the report's limits in force, divergences, access and bad input.

const db = testDb();
beforeEach(() => resetDb());

const FROZEN = { template_name: '冷凍ケース 標準', icon_kind: 10, lower_limit: -25, upper_limit: -15, guard_time: 30, snoozing_time: 120, time_constant: 50, def_time: [{ start: '02:00', end: '02:30' }] };

async function chain() {
  await createStore(db, 'T1', { store_name: '一号店' });
  await createStore(db, 'T2', { store_name: '二号店' });
  const frozen1 = await createSensor(db, 'T1', bleAddress('71', 1), { equipment_name: '冷凍ケース1', icon_kind: 10, lower_limit: -22, upper_limit: -12 });
  const chilled1 = await createSensor(db, 'T1', bleAddress('71', 2), { equipment_name: 'チルド1', icon_kind: 3 });
  const frozen2 = await createSensor(db, 'T2', bleAddress('72', 1), { equipment_name: '冷凍ケース2', icon_kind: 10, lower_limit: -22, upper_limit: -12 });
  await createUser(db, 'tadmin', 1);
  await createUser(db, 'tarea', 30, { storeIds: ['T1'] });
  await createUser(db, 'tstore', 101, { storeIds: ['T1'] });
  const admin = await tokenFor('tadmin', TEST_PASSWORD);
  const created = await call(templateAction, postJson('/on-reco/v1/settings_template', FROZEN, admin));
  expect(created.status).toBe(201);
  const { template_id: templateId } = (await created.json()) as { template_id: number };
  return { admin, templateId, frozen1, chilled1, frozen2 };
}

const preview = (token: string, templateId: number, group = 'G01') => call(previewLoader, get(`/on-reco/v1/settings_template/preview?template_id=${templateId}&storegroup_id=${group}`, token));
const apply = (token: string, templateId: number, group = 'G01') => call(applyAction, postJson('/on-reco/v1/settings_template/apply', { template_id: templateId, storegroup_id: group }, token));

describe('settings templates', () => {
  it('previews old → new, applies in one audited step with history, and the report shows the template\'s limits from then', async () => {
    const { admin, templateId, frozen1, chilled1, frozen2 } = await chain();
    const before = await countRows(db, 'sensors');
    const previewed = await preview(admin, templateId);
    expect(previewed.status).toBe(200);
    const body = (await previewed.json()) as { store_count: number; sensor_count: number; sensors: { store_id: string; equipment_id: number; fields: string[]; before: { lower_limit: number }; after: { lower_limit: number } }[] };
    expect(body.store_count).toBe(2);
    expect(body.sensor_count).toBe(2);
    expect(body.sensors.map((sensor) => sensor.equipment_id)).toEqual([frozen1, frozen2]);
    expect(body.sensors[0].fields).toEqual(['lower_limit', 'upper_limit', 'guard_time', 'snoozing_time', 'time_constant', 'def_time']);
    expect(body.sensors[0].before.lower_limit).toBe(-22);
    expect(body.sensors[0].after.lower_limit).toBe(-25);
    // The preview writes nothing.
    expect((await db.selectFrom('sensors').select('lower_limit').where('equipment_id', '=', frozen1).executeTakeFirstOrThrow()).lower_limit).toBe(-22);

    const applied = await apply(admin, templateId);
    expect(applied.status).toBe(200);
    expect(await applied.json()).toMatchObject({ store_count: 2, sensor_count: 2 });
    expect(await countRows(db, 'sensors')).toBe(before);
    const sensors = await db.selectFrom('sensors').select(['equipment_id', 'lower_limit', 'upper_limit', 'guard_time', 'time_constant', 'def_time']).orderBy('equipment_id').execute();
    expect(sensors.find((row) => row.equipment_id === frozen1)).toMatchObject({ lower_limit: -25, upper_limit: -15, guard_time: 30, time_constant: 50, def_time: [{ start: '02:00', end: '02:30' }] });
    expect(sensors.find((row) => row.equipment_id === chilled1)).toMatchObject({ lower_limit: 0, upper_limit: 10 });

    const history = await db.selectFrom('sensor_settings_history').selectAll().where('equipment_id', '=', frozen1).orderBy('effective_from').execute();
    expect(history).toHaveLength(2);
    expect(history[0]).toMatchObject({ lower_limit: -22, upper_limit: -12 });
    expect(history[0].effective_to).not.toBeNull();
    expect(history[1]).toMatchObject({ lower_limit: -25, upper_limit: -15, effective_to: null });
    expect(history[1].effective_from.getTime()).toBe(history[0].effective_to!.getTime());

    // A report's limits-in-force table over a period around the apply: the old limits, then the template's.
    const appliedAt = history[1].effective_from;
    const periods = await settingsInForceBySensor(db, 'T1', [frozen1], new Date(appliedAt.getTime() - 3600_000), new Date(appliedAt.getTime() + 3600_000));
    expect(periods.get(frozen1)!.map((period) => [period.lowerLimit, period.upperLimit])).toEqual([[-22, -12], [-25, -15]]);

    const audit = await db.selectFrom('audit_log').selectAll().where('action', '=', 'settings_template.apply').execute();
    expect(audit).toHaveLength(1);
    expect(audit[0].details).toMatchObject({ storegroup_id: 'G01', sensor_count: 2, store_count: 2, store_ids: ['T1', 'T2'] });

    // Nothing differs any more; a second apply changes nothing.
    const divergence = await call(divergenceLoader, get('/on-reco/v1/settings_template/divergence?storegroup_id=G01', admin));
    expect(await divergence.json()).toMatchObject({ sensor_count: 0, sensors: [] });
    expect(await (await apply(admin, templateId)).json()).toMatchObject({ sensor_count: 0 });
  });

  it('lists the sensors that differ from their kind\'s template', async () => {
    const { admin, frozen1 } = await chain();
    await call(applyAction, postJson('/on-reco/v1/settings_template/apply', { template_id: (await db.selectFrom('settings_templates').select('template_id').executeTakeFirstOrThrow()).template_id, storegroup_id: 'G01' }, admin));
    await db.updateTable('sensors').set({ upper_limit: -10 }).where('equipment_id', '=', frozen1).execute();
    const divergence = await call(divergenceLoader, get('/on-reco/v1/settings_template/divergence?storegroup_id=G01', admin));
    const body = (await divergence.json()) as { sensor_count: number; sensors: { equipment_id: number; fields: string[] }[] };
    expect(body.sensor_count).toBe(1);
    expect(body.sensors[0]).toMatchObject({ equipment_id: frozen1, fields: ['upper_limit'] });
  });

  it('lets a manager apply to their own stores of the group only; store users and other groups are refused', async () => {
    const { templateId, frozen1, frozen2 } = await chain();
    const area = await tokenFor('tarea', TEST_PASSWORD);
    const store = await tokenFor('tstore', TEST_PASSWORD);
    expect((await apply(store, templateId)).status).toBe(403);
    expect((await preview(store, templateId)).status).toBe(403);
    expect((await apply(area, templateId, 'G99')).status).toBe(404);
    expect((await call(templateAction, postJson('/on-reco/v1/settings_template', { ...FROZEN, icon_kind: 11 }, area))).status).toBe(403);
    const applied = await apply(area, templateId);
    expect(await applied.json()).toMatchObject({ store_count: 1, sensor_count: 1 });
    const limits = await db.selectFrom('sensors').select(['equipment_id', 'lower_limit']).where('equipment_id', 'in', [frozen1, frozen2]).orderBy('equipment_id').execute();
    expect(limits.map((row) => row.lower_limit)).toEqual([-25, -22]);
  });

  it('refuses bad input with the field and the reason, and changes nothing', async () => {
    const { admin, templateId } = await chain();
    const templates = await db.selectFrom('settings_templates').selectAll().execute();
    const audits = await countRows(db, 'audit_log');
    const refused = await call(templateAction, postJson('/on-reco/v1/settings_template', { ...FROZEN, template_id: templateId, lower_limit: -10, upper_limit: -20 }, admin));
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { fields: Record<string, string> }).fields).toEqual({ lower_limit: '入力の範囲が違います' });
    const taken = await call(templateAction, postJson('/on-reco/v1/settings_template', { ...FROZEN, template_name: '二つ目' }, admin));
    expect(taken.status).toBe(400);
    expect(((await taken.json()) as { fields: Record<string, string> }).fields).toEqual({ icon_kind: 'この什器種別のテンプレートは既に登録されています' });
    const overlap = await call(templateAction, postJson('/on-reco/v1/settings_template', { ...FROZEN, icon_kind: 13, def_time: [{ start: '02:00', end: '03:00' }, { start: '02:30', end: '04:00' }] }, admin));
    expect(overlap.status).toBe(400);
    expect(Object.keys(((await overlap.json()) as { fields: Record<string, string> }).fields)).toEqual(['def_time.1']);
    expect((await apply(admin, templateId, '')).status).toBe(400);
    expect(await db.selectFrom('settings_templates').selectAll().execute()).toEqual(templates);
    expect(await countRows(db, 'audit_log')).toBe(audits);
  });
});
