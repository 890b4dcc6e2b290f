import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { toCompactDateTime } from '~/domain/japan-time';
import { mailOutboxJob } from '~/jobs/mail-outbox.server';
import { noCommunicationJob } from '~/jobs/no-communication.server';
import { pinExpiryJob } from '~/jobs/pin-expiry.server';
import { runExclusive } from '~/jobs/worker.server';
import { withJobLock } from '~/models/job-locks.server';
import { refreshStoreStatus } from '~/models/stores.server';
import { ingestReadings } from '~/services/ingest.server';
import { countRows, createSensor, createStore, createUser } from '../fixtures/chain';
import { counted, resetDb, testDb } from '../support/db';

// The alert pipeline below the routes: ingest and the worker's jobs against the real database,
// with the clock passed in.

process.env.ONRECO_OUTBOX_DIR = mkdtempSync(path.join(tmpdir(), 'onreco-outbox-'));
const db = testDb();
beforeEach(() => resetDb());

const T = new Date(Math.floor(Date.now() / 60_000) * 60_000);
const minutesBefore = (minutes: number, at = T) => new Date(at.getTime() - minutes * 60_000);
const reading = (serial_no: string, at: Date, temperature: number) => ({
  serial_no, measured_at: toCompactDateTime(at), temperature, error: false, battery: 80, receive_sensitivity: -70,
});

async function storeWithSensor(storeId: string, serial: string, workingState: number | null = 1) {
  await createStore(db, storeId, { working_state: workingState });
  const equipmentId = await createSensor(db, storeId, serial, { upper_limit: 10, lower_limit: 0 });
  const userId = await createUser(db, `${storeId.toLowerCase()}-user`, 30, { storeIds: [storeId] });
  await db.updateTable('users').set({ alert_filter: 0 }).where('user_id', '=', userId).execute(); // occurrence and recovery
  return equipmentId;
}

const storeRow = (storeId: string) =>
  db.selectFrom('stores').select(['working_state', 'gateway_down', 'store_status']).where('store_id', '=', storeId).executeTakeFirstOrThrow();

describe('gateway down and back', () => {
  it('opens the store-level alert when the gateway falls silent, and the next upload recovers it, with a mail each way', async () => {
    await storeWithSensor('GW1', 'AA:BB:CC:00:00:01', 0);
    // First contact: the store starts operating.
    await ingestReadings(db, 'GW1', [reading('AA:BB:CC:00:00:01', minutesBefore(71), 4)], minutesBefore(70));
    expect(await storeRow('GW1')).toEqual({ working_state: 1, gateway_down: false, store_status: 2 });
    // 70 minutes of silence: one store-level alert, none per sensor, the store not connected.
    expect(await runExclusive(db, noCommunicationJob, T)).toBe(true);
    expect(await storeRow('GW1')).toEqual({ working_state: 1, gateway_down: true, store_status: 0 });
    const [down] = await db.selectFrom('alert_history').selectAll().execute();
    expect(down).toMatchObject({ equipment_id: null, alert_id: 'OE00000005', started_at: T, recovered_at: null });
    // The gateway speaks again: the engine recovers the alert at the contact.
    const back = new Date(T.getTime() + 60_000);
    await ingestReadings(db, 'GW1', [reading('AA:BB:CC:00:00:01', T, 4)], back);
    expect(await storeRow('GW1')).toEqual({ working_state: 1, gateway_down: false, store_status: 2 });
    const history = await db.selectFrom('alert_history').selectAll().execute();
    expect(history).toHaveLength(1);
    expect(history[0].recovered_at).toEqual(back);
    const mails = await db.selectFrom('mail_outbox').select(['alert_history_id', 'subject']).orderBy('mail_id').execute();
    expect(mails.map((mail) => mail.alert_history_id)).toEqual([down.alert_history_id, down.alert_history_id]);
  });

  it('opens no-communication on a silent sensor while its gateway still uploads, and its next reading ends it', async () => {
    const silent = await storeWithSensor('NC1', 'AA:BB:CC:00:00:02');
    await createSensor(db, 'NC1', 'AA:BB:CC:00:00:03');
    await ingestReadings(db, 'NC1', [reading('AA:BB:CC:00:00:02', minutesBefore(61), 4)], minutesBefore(61));
    await ingestReadings(db, 'NC1', [reading('AA:BB:CC:00:00:03', minutesBefore(1), 4)], minutesBefore(1));
    await runExclusive(db, noCommunicationJob, T);
    const state = await db.selectFrom('sensor_states').select(['status', 'alert_codes']).where('equipment_id', '=', silent).executeTakeFirstOrThrow();
    expect(state).toEqual({ status: 2, alert_codes: ['OE00000005'] });
    expect((await storeRow('NC1')).store_status).toBe(3);
    await ingestReadings(db, 'NC1', [reading('AA:BB:CC:00:00:02', T, 4)], T);
    const [history] = await db.selectFrom('alert_history').selectAll().execute();
    expect(history).toMatchObject({ equipment_id: silent, alert_id: 'OE00000005', recovered_at: T });
    expect((await storeRow('NC1')).store_status).toBe(2);
  });
});

/** `excursions` alerts opened and recovered within one backlog, a minute per reading. */
function backlog(serial: string, excursions: number) {
  return Array.from({ length: excursions * 2 }, (_, index) => reading(serial, minutesBefore(excursions * 2 - index), index % 2 === 0 ? 14 : 4));
}

describe('the alert persister', () => {
  it('writes a backlog with many transitions in as many statements as one with two', async () => {
    await storeWithSensor('B1', 'AA:BB:CC:00:00:11');
    await storeWithSensor('B2', 'AA:BB:CC:00:00:12');
    const few = counted(db);
    await ingestReadings(few.db, 'B1', backlog('AA:BB:CC:00:00:11', 1), T);
    const many = counted(db);
    await ingestReadings(many.db, 'B2', backlog('AA:BB:CC:00:00:12', 6), T);
    expect(few.statements()).toBeGreaterThan(5); // the counter sees the service's statements
    expect(many.statements()).toBe(few.statements());
    // Every excursion has its own row, opened and recovered, and both its mails point to it.
    const rows = await db.selectFrom('alert_history').selectAll().where('store_id', '=', 'B2').orderBy('started_at').execute();
    expect(rows).toHaveLength(6);
    for (const [index, row] of rows.entries()) {
      expect(row).toMatchObject({ alert_id: 'OE00000001', alert_data1: '14.0', started_at: minutesBefore(12 - 2 * index), recovered_at: minutesBefore(11 - 2 * index) });
    }
    const mails = await db.selectFrom('mail_outbox').select('alert_history_id').where('store_id', '=', 'B2').orderBy('mail_id').execute();
    expect(mails.map((mail) => Number(mail.alert_history_id))).toEqual(rows.flatMap((row) => [row.alert_history_id, row.alert_history_id]));
  });

  it('recovers an alert opened by an earlier upload and opens the next one in the same batch', async () => {
    const equipmentId = await storeWithSensor('B3', 'AA:BB:CC:00:00:13');
    await ingestReadings(db, 'B3', [reading('AA:BB:CC:00:00:13', minutesBefore(5), 14)], minutesBefore(5));
    await ingestReadings(db, 'B3', [4, 3].map((m, i) => reading('AA:BB:CC:00:00:13', minutesBefore(m), i === 0 ? 4 : 15)), T);
    const rows = await db.selectFrom('alert_history').select(['started_at', 'recovered_at', 'alert_data1']).where('equipment_id', '=', equipmentId).orderBy('started_at').execute();
    expect(rows).toEqual([
      { started_at: minutesBefore(5), recovered_at: minutesBefore(4), alert_data1: '14.0' },
      { started_at: minutesBefore(3), recovered_at: null, alert_data1: '15.0' },
    ]);
  });
});

describe('refreshStoreStatus', () => {
  // The status recompute existed twice: ingest counted every sensor's codes, store management only
  // those of sensors with status > 0. The engine never writes open codes with status 0, so the
  // two agree on every row it writes; on a row it did not write they disagreed, and the store
  // now follows the dashboard, which lists alerts from status > 0 rows only.
  it('counts the open alerts of sensors whose status is above 0, as the dashboard lists them', async () => {
    const [stale, battery] = [await storeWithSensor('R1', 'AA:BB:CC:00:00:21'), await createSensor(db, 'R1', 'AA:BB:CC:00:00:22')];
    await db
      .insertInto('sensor_states')
      .values([
        { store_id: 'R1', equipment_id: stale, status: 0, alert_codes: ['OE00000001'], engine_state: '{}' },
        { store_id: 'R1', equipment_id: battery, status: 0, alert_codes: [], engine_state: '{}' },
      ])
      .execute();
    await db.transaction().execute((trx) => refreshStoreStatus(trx, 'R1'));
    expect((await storeRow('R1')).store_status).toBe(2);
    await db.updateTable('sensor_states').set({ status: 1, alert_codes: ['OE00000003'] }).where('equipment_id', '=', battery).execute();
    await db.transaction().execute((trx) => refreshStoreStatus(trx, 'R1'));
    expect((await storeRow('R1')).store_status).toBe(3);
  });
});

describe('jobs', () => {
  it('removes expired gateway PINs only', async () => {
    await createStore(db, 'P1');
    await createStore(db, 'P2');
    await db.insertInto('gateway_pins').values([
      { store_id: 'P1', pin_code: '111111', effective_time: minutesBefore(1) },
      { store_id: 'P2', pin_code: '222222', effective_time: minutesBefore(-1) },
    ]).execute();
    await runExclusive(db, pinExpiryJob, T);
    expect((await db.selectFrom('gateway_pins').select('store_id').execute()).map((row) => row.store_id)).toEqual(['P2']);
  });

  it('sends the due outbox mails and marks them sent', async () => {
    await createStore(db, 'M1');
    await db.insertInto('mail_outbox').values([
      { to_address: 'due@example.com', subject: 'due', body: 'now', store_id: 'M1', send_after: minutesBefore(1) },
      { to_address: 'later@example.com', subject: 'later', body: 'later', store_id: 'M1', send_after: new Date(T.getTime() + 3600_000) },
    ]).execute();
    await runExclusive(db, mailOutboxJob, T);
    const rows = await db.selectFrom('mail_outbox').select(['to_address', 'attempts', 'sent_at']).orderBy('mail_id').execute();
    expect(rows.map((row) => [row.to_address, row.attempts, row.sent_at !== null])).toEqual([['due@example.com', 1, true], ['later@example.com', 0, false]]);
    expect(readdirSync(process.env.ONRECO_OUTBOX_DIR!).filter((file) => file.endsWith('.eml'))).toHaveLength(1);
  });

  it('skips a run while another worker holds the job', async () => {
    await createStore(db, 'L1');
    await db.insertInto('gateway_pins').values({ store_id: 'L1', pin_code: '333333', effective_time: minutesBefore(1) }).execute();
    const ran = await withJobLock(db, pinExpiryJob.name, async () => {
      expect(await runExclusive(db, pinExpiryJob, T)).toBe(false);
    });
    expect(ran).toBe(true);
    expect(await countRows(db, 'gateway_pins')).toBe(1);
  });
});
