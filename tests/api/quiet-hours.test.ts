import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { beforeEach, describe, expect, it } from 'vitest';
import { japanParts, toCompactDateTime } from '~/domain/japan-time';
import { minuteOfDayText } from '~/domain/quiet-hours';
import { action as policyAction } from '~/routes/on-reco+/v1.escalation_policy';
import { action as quietAction, loader as quietLoader } from '~/routes/on-reco+/v1.user.quiet_hours';
import { runEscalations } from '~/services/escalation.server';
import { ingestReadings } from '~/services/ingest.server';
import { claimNextMail } from '~/models/outbox.server';
import { createSensor, createStore, createUser, TEST_PASSWORD } from '../fixtures/chain';
import { resetDb, testDb } from '../support/db';
import { call, get, postJson, tokenFor } from '../support/requests';

// A user's quiet hours (decision 315): the user's own API, and escalation steps that honour them
// holding that user's mail until the quiet hours end (not dropping it), while others are told at once.

process.env.ONRECO_OUTBOX_DIR = mkdtempSync(path.join(tmpdir(), 'onreco-outbox-'));
const db = testDb();
const log = pino({ level: 'silent' });
beforeEach(() => resetDb());

const T = new Date(Math.floor(Date.now() / 60_000) * 60_000);
const minuteOfT = japanParts(T).hour * 60 + japanParts(T).minute;
/** Quiet hours from an hour before T to two hours after it (across midnight when T is near it). */
const aroundT = { quiet_start: minuteOfDayText((minuteOfT + 1440 - 60) % 1440), quiet_end: minuteOfDayText((minuteOfT + 120) % 1440) };
const SERIAL = 'AA:BB:CC:00:00:72';

const save = (token: string, body: unknown) => call(quietAction, postJson('/on-reco/v1/user/quiet_hours', body, token));
const read = async (token: string) => (await call(quietLoader, get('/on-reco/v1/user/quiet_hours', token))).json();

describe('POST /v1/user/quiet_hours', () => {
  it('sets, reads back and clears the signed-in user\'s own quiet hours, audited; refuses half a pair naming the field', async () => {
    const staff = await createUser(db, 'staff', 101, { mail: 'staff@example.com' });
    await createUser(db, 'other', 101);
    const token = await tokenFor('staff', TEST_PASSWORD);
    expect(await read(token)).toEqual({ quiet_start: null, quiet_end: null });
    const saved = await save(token, { quiet_start: '22:00', quiet_end: '06:00' });
    expect(saved.status).toBe(200);
    expect(await saved.json()).toEqual({ quiet_start: '22:00', quiet_end: '06:00' });
    expect(await read(token)).toEqual({ quiet_start: '22:00', quiet_end: '06:00' });
    // Another user's are their own.
    expect(await read(await tokenFor('other', TEST_PASSWORD))).toEqual({ quiet_start: null, quiet_end: null });
    const half = await save(token, { quiet_start: '23:00' });
    expect(half.status).toBe(400);
    expect((await half.json()).fields).toHaveProperty('quiet_end');
    const bad = await save(token, { quiet_start: '25:00', quiet_end: '06:00' });
    expect(bad.status).toBe(400);
    expect((await bad.json()).fields).toHaveProperty('quiet_start');
    expect(await read(token)).toEqual({ quiet_start: '22:00', quiet_end: '06:00' });
    expect((await save(token, { quiet_start: null, quiet_end: null })).status).toBe(200);
    expect(await read(token)).toEqual({ quiet_start: null, quiet_end: null });
    const audit = await db.selectFrom('audit_log').select(['user_id', 'details']).where('action', '=', 'user.quiet_hours').orderBy('audit_id').execute();
    expect(audit.map((row) => row.user_id)).toEqual([staff, staff]);
    expect(audit[0].details).toMatchObject({ before: null, after: { startMinute: 22 * 60, endMinute: 6 * 60 } });
  });
});

describe('quiet hours in escalation', () => {
  async function chain(quietHoursStep: boolean) {
    await createStore(db, 'Q1');
    await createSensor(db, 'Q1', SERIAL, { upper_limit: 10, lower_limit: 0, guard_time: null });
    await createUser(db, 'staff', 101, { storeIds: ['Q1'], mail: 'staff@example.com' });
    const manager = await createUser(db, 'area', 30, { storeIds: ['Q1'], mail: 'area@example.com' });
    await createUser(db, 'admin', 1);
    expect((await save(await tokenFor('staff', TEST_PASSWORD), aroundT)).status).toBe(200);
    const steps = [{ delay_minutes: 0, store_staff: true, user_ids: [manager], channels: ['mail'], quiet_hours: quietHoursStep }];
    const saved = await call(policyAction, postJson('/on-reco/v1/escalation_policy', { policy_name: '夜間', storegroup_id: 'G01', alert_codes: ['OE00000001'], steps }, await tokenFor('admin', TEST_PASSWORD)));
    expect(saved.status).toBe(201);
    await ingestReadings(db, 'Q1', [{ serial_no: SERIAL, measured_at: toCompactDateTime(T), temperature: 14, error: false, battery: 80, receive_sensitivity: -70 }], T);
    expect(await runEscalations(db, T, log)).toBe(1);
  }
  const sendAfter = async (address: string) => (await db.selectFrom('mail_outbox').select('send_after').where('to_address', '=', address).execute()).map((row) => row.send_after.getTime());

  it('holds the mail of a user inside their quiet hours until they end, for a step that honours them; the others are told at once', async () => {
    await chain(true);
    expect(await sendAfter('staff@example.com')).toEqual([T.getTime() + 120 * 60_000]);
    const [area] = await sendAfter('area@example.com');
    expect(Math.abs(area - Date.now())).toBeLessThan(60_000);
    // The worker's claim now passes over the held mail (queued first) to the manager's; at the end it takes the held one.
    const now = await db.transaction().execute((trx) => claimNextMail(trx, new Date(Date.now() + 1000)));
    expect(now?.toAddress).toBe('area@example.com');
    const atEnd = await db.transaction().execute((trx) => claimNextMail(trx, new Date(T.getTime() + 120 * 60_000)));
    expect(atEnd?.toAddress).toBe('staff@example.com');
  });

  it('tells a user in their quiet hours at once when the step does not honour them', async () => {
    await chain(false);
    const [staff] = await sendAfter('staff@example.com');
    expect(Math.abs(staff - Date.now())).toBeLessThan(60_000);
  });
});
