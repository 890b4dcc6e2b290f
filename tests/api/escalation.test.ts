import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { beforeEach, describe, expect, it } from 'vitest';
import { toCompactDateTime } from '~/domain/japan-time';
import type { EscalationStepInput } from '~/domain/escalation';
import { action as acknowledgeAction } from '~/routes/on-reco+/v1.alert_history.acknowledge';
import { action as policyAction, loader as policyLoader } from '~/routes/on-reco+/v1.escalation_policy';
import { ingestReadings } from '~/services/ingest.server';
import { runEscalations } from '~/services/escalation.server';
import { createSensor, createStore, createUser, TEST_PASSWORD } from '../fixtures/chain';
import { resetDb, testDb } from '../support/db';
import { call, get, postJson, tokenFor } from '../support/requests';

// Escalation until acknowledged (decision 236) and the acknowledgement (237), below the worker:
// ingest opens the alert, runEscalations is the worker's job with the clock passed in.

process.env.ONRECO_OUTBOX_DIR = mkdtempSync(path.join(tmpdir(), 'onreco-outbox-'));
const db = testDb();
const log = pino({ level: 'silent' });
beforeEach(() => resetDb());

const T = new Date(Math.floor(Date.now() / 60_000) * 60_000);
const at = (minutes: number) => new Date(T.getTime() + minutes * 60_000);
const SERIAL = 'AA:BB:CC:00:00:71';
const reading = (when: Date, temperature: number) => ({ serial_no: SERIAL, measured_at: toCompactDateTime(when), temperature, error: false, battery: 80, receive_sensitivity: -70 });

const staffAndManager: EscalationStepInput[] = [
  { delay_minutes: 0, store_staff: true, channels: ['mail'] },
  { delay_minutes: 10, user_ids: [], usergroup_ids: [], channels: ['mail'] },
];

async function chain() {
  await createStore(db, 'E1');
  await createSensor(db, 'E1', SERIAL, { upper_limit: 10, lower_limit: 0, guard_time: null });
  const staff = await createUser(db, 'staff', 101, { storeIds: ['E1'], mail: 'staff@example.com' });
  const manager = await createUser(db, 'area', 30, { storeIds: ['E1'], mail: 'area@example.com' });
  await createUser(db, 'admin', 1);
  const outsider = await createUser(db, 'outsider', 30, { mail: 'outsider@example.com' });
  const admin = await tokenFor('admin', TEST_PASSWORD);
  const steps = [staffAndManager[0], { ...staffAndManager[1], user_ids: [manager, outsider] }];
  const saved = await call(policyAction, postJson('/on-reco/v1/escalation_policy', { policy_name: '東京エリア 温度', storegroup_id: 'G01', alert_codes: ['OE00000001', 'OE00000002'], steps }, admin));
  expect(saved.status).toBe(201);
  return { staff, manager, admin, policyId: (await saved.json()).policy_id as number };
}

const mailsTo = async (address: string) => (await db.selectFrom('mail_outbox').select(['subject', 'body']).where('to_address', '=', address).orderBy('mail_id').execute());
const openAlert = async () => {
  await ingestReadings(db, 'E1', [reading(T, 14)], T);
  return db.selectFrom('alert_history').select(['alert_history_id', 'acknowledged_at', 'corrective_action']).executeTakeFirstOrThrow();
};

describe('escalation policies', () => {
  it('tells the store staff when the alert opens and the area manager at the step\'s delay, each once, and the recovery to both', async () => {
    await chain();
    await openAlert();
    // Under a policy the default notification is replaced by the steps.
    expect(await mailsTo('area@example.com')).toEqual([]);
    expect(await runEscalations(db, at(0.1), log)).toBe(1);
    expect(await mailsTo('staff@example.com')).toHaveLength(1);
    expect(await mailsTo('area@example.com')).toEqual([]);
    expect(await runEscalations(db, at(9.9), log)).toBe(0);
    // Two workers at once (or one re-run after a kill): the step fires once.
    const fired = await Promise.all([runEscalations(db, at(10), log), runEscalations(db, at(10), log)]);
    expect(fired.reduce((a, b) => a + b)).toBe(1);
    expect(await runEscalations(db, at(11), log)).toBe(0);
    expect(await mailsTo('area@example.com')).toHaveLength(1);
    // A user named in a step who cannot see the store is never told about it.
    expect(await mailsTo('outsider@example.com')).toEqual([]);
    await ingestReadings(db, 'E1', [reading(at(12), 4)], at(12));
    const [staffRecovery, areaRecovery] = [(await mailsTo('staff@example.com'))[1], (await mailsTo('area@example.com'))[1]];
    expect(staffRecovery.subject).toContain('警報復旧');
    expect(areaRecovery.subject).toContain('警報復旧');
    expect(areaRecovery.body).toContain('継続時間: 12分');
  });

  it('stops escalating once someone acknowledges with a corrective action, and keeps the first acknowledgement', async () => {
    const { admin } = await chain();
    const alert = await openAlert();
    await runEscalations(db, at(0.1), log);
    const staff = await tokenFor('staff', TEST_PASSWORD);
    const body = { store_id: 'E1', alert_history_id: alert.alert_history_id, corrective_action: '扉の閉め忘れを直した', note: '3時に確認' };
    const acknowledged = await call(acknowledgeAction, postJson('/on-reco/v1/alert_history/acknowledge', body, staff));
    expect(acknowledged.status).toBe(200);
    expect(await acknowledged.json()).toMatchObject({ corrective_action: '扉の閉め忘れを直した', note: '3時に確認', acknowledged_by_name: 'staff さん', already_acknowledged: 0 });
    expect(await runEscalations(db, at(30), log)).toBe(0);
    expect(await mailsTo('area@example.com')).toEqual([]);
    const again = await call(acknowledgeAction, postJson('/on-reco/v1/alert_history/acknowledge', { ...body, corrective_action_text: '別の措置' }, admin));
    expect(await again.json()).toMatchObject({ corrective_action: '扉の閉め忘れを直した', already_acknowledged: 1 });
    const audit = await db.selectFrom('audit_log').select('action').where('action', '=', 'alert_history.acknowledge').execute();
    expect(audit).toHaveLength(1);
  });

  it('refuses an acknowledgement without a corrective action, and one of a store the user does not see', async () => {
    await chain();
    const alert = await openAlert();
    const staff = await tokenFor('staff', TEST_PASSWORD);
    const missing = await call(acknowledgeAction, postJson('/on-reco/v1/alert_history/acknowledge', { store_id: 'E1', alert_history_id: alert.alert_history_id }, staff));
    expect(missing.status).toBe(400);
    expect((await missing.json()).fields).toHaveProperty('corrective_action');
    const outsider = await tokenFor('outsider', TEST_PASSWORD);
    const unseen = await call(acknowledgeAction, postJson('/on-reco/v1/alert_history/acknowledge', { store_id: 'E1', alert_history_id: alert.alert_history_id, corrective_action: 'x' }, outsider));
    expect(unseen.status).toBe(404);
  });

  it('keeps the default notification for codes no policy covers, and lets a store override its group', async () => {
    const { admin, manager } = await chain();
    const override = await call(policyAction, postJson('/on-reco/v1/escalation_policy', { policy_name: 'E1 だけ', store_id: 'E1', alert_codes: ['OE00000001'], steps: [{ delay_minutes: 0, user_ids: [manager] }] }, admin));
    expect(override.status).toBe(201);
    await openAlert();
    await runEscalations(db, at(0.1), log);
    expect(await mailsTo('area@example.com')).toHaveLength(1);
    expect(await mailsTo('staff@example.com')).toEqual([]);
    const list = await (await call(policyLoader, get('/on-reco/v1/escalation_policy', admin))).json();
    expect(list.policies.map((policy: { store_id: string | null }) => policy.store_id)).toEqual([null, 'E1']);
  });

  it('checks a policy\'s steps: the first at the opening, later ones later, each telling someone', async () => {
    const { admin } = await chain();
    const bad = await call(policyAction, postJson('/on-reco/v1/escalation_policy', { policy_name: 'x', storegroup_id: 'G01', alert_codes: ['OE00000001'], steps: [{ delay_minutes: 5, store_staff: true }, { delay_minutes: 5 }] }, admin));
    expect(bad.status).toBe(400);
    const { fields } = await bad.json();
    expect(Object.keys(fields)).toEqual(expect.arrayContaining(['steps.0.delay_minutes', 'steps.1.delay_minutes', 'steps.1.user_ids']));
    const staff = await tokenFor('staff', TEST_PASSWORD);
    expect((await call(policyLoader, get('/on-reco/v1/escalation_policy', staff))).status).toBe(403);
  });
});
