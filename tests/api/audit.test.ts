import { sql } from 'kysely';
import { beforeEach, describe, expect, it } from 'vitest';
import { advanceAuditCheckpoint, audit, auditChainVerification, verifyAuditChain } from '~/models/audit.server';
import { auditChainJob } from '~/jobs/audit-chain.server';
import { runExclusive } from '~/jobs/worker.server';
import { loader as auditLoader } from '~/routes/on-reco+/v1.audit';
import { action as commentAction } from '~/routes/on-reco+/v1.equipments.measurement.comment';
import { action as pairAction } from '~/routes/on-reco+/v1.gateway.pair';
import { action as noticeAction } from '~/routes/on-reco+/v1.notice';
import { action as pinAction } from '~/routes/on-reco+/v1.stores.pin';
import { action as storesAction, loader as storesLoader } from '~/routes/on-reco+/v1.stores';
import { TEST_PASSWORD, createSensor, createStore, createUser, issuePin } from '../fixtures/chain';
import { resetDb, testDb } from '../support/db';
import { call, get, postJson, tokenFor } from '../support/requests';
import { insertMeasurementRows } from '~/models/measurement-buckets.server';

// The audit trail as a hash chain (issue 13 item 6, decisions 130–134): the writer, the
// verification against SQL tampering, concurrent appends, and GET /v1/audit for each role.

const db = testDb();
beforeEach(async () => {
  await resetDb();
  // The earlier tests' changes counted now, not in the middle of this one (a walk would go full).
  await flushTableStatistics();
});

async function world() {
  await createStore(db, 'S001', { store_name: '新宿店' });
  await createStore(db, 'S002', { store_name: '渋谷店' });
  const adminId = await createUser(db, 'admin', 1);
  const userId = await createUser(db, 'area', 30, { storeIds: ['S001'] });
  return { adminId, userId };
}

/** `count` rows written by the one writer, one transaction each. */
async function writeRows(userId: number, count: number, storeId = 'S001') {
  for (let i = 0; i < count; i += 1) {
    await db.transaction().execute((trx) =>
      audit(trx, { userId, action: 'store.update', targetType: 'store', targetId: storeId, storeId, details: { before: { store_name: `店${i}` }, after: { store_name: `店${i + 1}` } } }),
    );
  }
  return (await db.selectFrom('audit_log').select('audit_id').orderBy('audit_id').execute()).map((row) => Number(row.audit_id));
}

/**
 * Makes every pooled session publish its table statistics now. An idle session publishes its
 * earlier tests' UPDATEs and DELETEs of audit_log up to 10 s late (PostgreSQL's idle statistics
 * interval); pg_stat_force_next_flush() makes the session publish them before it answers. The
 * sessions are held together (pg_sleep) so that each of the pool's 10 is asked once.
 */
async function flushTableStatistics() {
  await Promise.all(Array.from({ length: 10 }, () => db.connection().execute((session) => sql`select pg_stat_force_next_flush(), pg_sleep(0.05)`.execute(session))));
}

describe('the audit chain', () => {
  it('chains every row to the one before, keeps the writer\'s name, and verifies', async () => {
    const { adminId } = await world();
    await writeRows(adminId, 3);
    const rows = await db.selectFrom('audit_log').select(['audit_id', 'prev_hash', 'row_hash', 'user_name']).orderBy('audit_id').execute();
    expect(rows[0].prev_hash).toBe('0'.repeat(64));
    expect(rows[1].prev_hash).toBe(rows[0].row_hash);
    expect(rows[2].prev_hash).toBe(rows[1].row_hash);
    expect(rows.every((row) => /^[0-9a-f]{64}$/.test(row.row_hash ?? '') && row.user_name)).toBe(true);
    expect(await verifyAuditChain(db)).toEqual({ ok: true, checked: 3, broken: [] });
  });

  it('keeps a deleted user\'s name on their rows, and the chain stays valid', async () => {
    const { userId } = await world();
    await writeRows(userId, 2);
    const { user_name: name } = await db.selectFrom('audit_log').select('user_name').where('user_id', '=', userId).executeTakeFirstOrThrow();
    expect(name).toBeTruthy();
    await db.deleteFrom('users').where('user_id', '=', userId).execute();
    const rows = await db.selectFrom('audit_log').select(['user_id', 'user_name']).execute();
    expect(rows).toEqual([{ user_id: userId, user_name: name }, { user_id: userId, user_name: name }]);
    expect((await verifyAuditChain(db)).ok).toBe(true);
  });

  it('reports a row whose details were changed with SQL, and only that row', async () => {
    const { adminId } = await world();
    const ids = await writeRows(adminId, 5);
    await sql`update audit_log set details = '{"before": {"store_name": "x"}, "after": {"store_name": "y"}}' where audit_id = ${ids[2]}`.execute(db);
    expect(await verifyAuditChain(db)).toEqual({ ok: false, checked: 5, broken: [{ audit_id: ids[2], reason: 'content_changed' }] });
  });

  it('reports a changed time, user or action as a change', async () => {
    const { adminId, userId } = await world();
    const ids = await writeRows(adminId, 4);
    await sql`update audit_log set at = at - interval '1 day' where audit_id = ${ids[0]}`.execute(db);
    await sql`update audit_log set user_id = ${userId} where audit_id = ${ids[1]}`.execute(db);
    await sql`update audit_log set action = 'store.create' where audit_id = ${ids[3]}`.execute(db);
    expect((await verifyAuditChain(db)).broken).toEqual([
      { audit_id: ids[0], reason: 'content_changed' },
      { audit_id: ids[1], reason: 'content_changed' },
      { audit_id: ids[3], reason: 'content_changed' },
    ]);
  });

  it('reports a deleted row at the row after it, and deleted last rows at the new last row', async () => {
    const { adminId } = await world();
    const ids = await writeRows(adminId, 6);
    await db.deleteFrom('audit_log').where('audit_id', '=', ids[2]).execute();
    expect(await verifyAuditChain(db)).toEqual({ ok: false, checked: 5, broken: [{ audit_id: ids[3], reason: 'rows_deleted_before' }] });
    await db.deleteFrom('audit_log').where('audit_id', '>=', ids[4]).execute();
    expect((await verifyAuditChain(db)).broken).toEqual([
      { audit_id: ids[3], reason: 'rows_deleted_before' },
      { audit_id: ids[3], reason: 'rows_deleted_after' },
    ]);
    await db.deleteFrom('audit_log').where('audit_id', '=', ids[0]).execute();
    expect((await verifyAuditChain(db)).broken[0]).toEqual({ audit_id: ids[1], reason: 'rows_deleted_before' });
  });

  it('reports the deletion of the last rows (the chain head remembers the last one)', async () => {
    const { adminId } = await world();
    const ids = await writeRows(adminId, 4);
    await db.deleteFrom('audit_log').where('audit_id', '=', ids[3]).execute();
    expect(await verifyAuditChain(db)).toEqual({ ok: false, checked: 3, broken: [{ audit_id: ids[2], reason: 'rows_deleted_after' }] });
  });

  it('reports rows inserted with SQL: at the end, and between two rows even with forged hashes', async () => {
    const { adminId } = await world();
    await writeRows(adminId, 2);
    // A rolled-back append leaves a gap in the ids (a sequence is not transactional): room for a forged row.
    await db.transaction().execute(async (trx) => {
      await audit(trx, { userId: adminId, action: 'store.update', targetType: 'store', details: {} });
      await sql`rollback`.execute(trx).catch(() => undefined);
    }).catch(() => undefined);
    const ids = await writeRows(adminId, 1);
    const [first, second, third] = ids;
    const gap = second + 1;
    expect(third).toBeGreaterThan(gap);
    await sql`insert into audit_log (audit_id, at, user_id, action, target_type, details) overriding system value values (${third + 100}, now(), ${adminId}, 'store.update', 'store', '{}')`.execute(db);
    expect((await verifyAuditChain(db)).broken).toEqual([{ audit_id: third + 100, reason: 'row_inserted' }]);
    await sql`delete from audit_log where audit_id = ${third + 100}`.execute(db);
    const [{ row_hash: secondHash }] = await db.selectFrom('audit_log').select('row_hash').where('audit_id', '=', second).execute();
    await sql`
      insert into audit_log (audit_id, at, user_id, user_name, action, target_type, details, prev_hash, row_hash) overriding system value
      values (${gap}, now(), ${adminId}, 'admin', 'store.update', 'store', '{}', ${secondHash},
        audit_row_hash(${gap}, now(), ${adminId}, 'admin', 'store.update', 'store', null, null, '{}', ${secondHash}))`.execute(db);
    expect((await verifyAuditChain(db)).broken).toEqual([{ audit_id: gap, reason: 'row_inserted' }]);
    expect(first).toBeLessThan(second);
  });

  it('reports two rows whose contents were swapped (a reorder)', async () => {
    const { adminId } = await world();
    const ids = await writeRows(adminId, 4);
    await sql`
      update audit_log a set details = b.details, prev_hash = b.prev_hash, row_hash = b.row_hash
      from audit_log b where (a.audit_id, b.audit_id) in ((${ids[1]}, ${ids[2]}), (${ids[2]}, ${ids[1]}))`.execute(db);
    const { ok, broken } = await verifyAuditChain(db);
    expect(ok).toBe(false);
    expect(broken.map((row) => row.audit_id)).toEqual(expect.arrayContaining([ids[1], ids[2]]));
  });

  it('keeps one chain when 20 transactions append at once', async () => {
    const { adminId } = await world();
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        db.transaction().execute(async (trx) => {
          await audit(trx, [
            { userId: adminId, action: 'store.update', targetType: 'store', targetId: 'S001', storeId: 'S001', details: { n: i, part: 1 } },
            { userId: adminId, action: 'store.update', targetType: 'store', targetId: 'S002', storeId: 'S002', details: { n: i, part: 2 } },
          ]);
          await sql`select pg_sleep(0.01)`.execute(trx);
        }),
      ),
    );
    const rows = await db.selectFrom('audit_log').select(['prev_hash', 'row_hash']).orderBy('audit_id').execute();
    expect(rows).toHaveLength(40);
    expect(new Set(rows.map((row) => row.prev_hash)).size).toBe(40);
    expect(await verifyAuditChain(db)).toEqual({ ok: true, checked: 40, broken: [] });
  });

  it('leaves nothing when the transaction that wrote the row rolls back, and the chain goes on', async () => {
    const { adminId } = await world();
    await writeRows(adminId, 1);
    await expect(
      db.transaction().execute(async (trx) => {
        await audit(trx, { userId: adminId, action: 'store.update', targetType: 'store', details: {} });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    await writeRows(adminId, 1);
    expect(await verifyAuditChain(db)).toEqual({ ok: true, checked: 2, broken: [] });
  });
});

describe('the writers record before and after', () => {
  it('a store update keeps the store before and after; a PIN reissue is an event', async () => {
    await world();
    const token = await tokenFor('admin', TEST_PASSWORD);
    const store = await (await call(storesLoader, get('/on-reco/v1/stores?store_id=S001', token))).json();
    const entity = {
      store_id: 'S001', store_no: store.store_no, store_name: '新宿東口店', prefecture_id: store.prefecture_id, address: store.address, tel_no: store.tel_no,
      opening_date: store.opening_date, closing_date: store.closing_date, storegroup_id: store.storegroup_id, usergroup: store.usergroup.map((g: { usergroup_id: number }) => g.usergroup_id), gateway_info: store.gateway_info,
    };
    expect((await call(storesAction, postJson('/on-reco/v1/stores', entity, token))).status).toBe(200);
    expect((await call(pinAction, postJson('/on-reco/v1/stores/pin', { store_id: 'S001' }, token))).status).toBe(200);
    const answer = await (await call(auditLoader, get('/on-reco/v1/audit', token))).json();
    expect(answer.verification).toEqual({ ok: true, checked: 2, broken: [] });
    const [pin, update] = answer.rows;
    expect(pin).toMatchObject({ action: 'gateway_pin.reissue', before: null, user_name: expect.any(String) });
    expect(update).toMatchObject({ action: 'store.update', store_id: 'S001', before: { store_name: '新宿店' }, after: { store_name: '新宿東口店' } });
  });

  it('a notice, a gateway pairing and a measurement comment (saved, changed, removed) are recorded by whom and what (issue 30)', async () => {
    const { adminId } = await world();
    const token = await tokenFor('admin', TEST_PASSWORD);
    expect((await call(noticeAction, postJson('/on-reco/v1/notice', { title: '点検', content: '明日10時に点検します' }, token))).status).toBe(201);
    const pin = await issuePin(db, 'S001');
    const paired = await call(pairAction, postJson('/on-reco/v1/gateway/pair', { gateway_info: 'GW-S001', pin_code: pin }));
    expect(paired.status).toBe(200);
    const gatewayToken = (await paired.json()).gateway_token as string;
    const fridge = await createSensor(db, 'S001', 'AA:BB:CC:DD:EE:01');
    await db.updateTable('sensors').set({ comment_required: 1 }).where('equipment_id', '=', fridge).execute();
    await insertMeasurementRows(db, [{ store_id: 'S001', equipment_id: fridge, measured_at: new Date('2026-11-20T00:59:10Z'), temperature: 5, error: false, battery: 80, receive_sensitivity: -65 }]);
    for (const comment of ['扉開放', '補充', '']) {
      const response = await call(commentAction, postJson('/on-reco/v1/equipments/measurement/comment', { equipment_id: fridge, start_date: '20261120100000', comment }, token));
      expect(response.status).toBe(200);
    }
    const answer = await (await call(auditLoader, get('/on-reco/v1/audit?page_count=20', token))).json();
    expect(answer.verification.ok).toBe(true);
    const rows = [...answer.rows].reverse().filter((row: { action: string }) => row.action !== 'gateway_pin.reissue');
    expect(rows).toMatchObject([
      { action: 'notice.create', user_id: adminId, target_type: 'notice', before: null, after: { title: '点検', content: '明日10時に点検します' } },
      { action: 'gateway.pair', user_id: null, target_type: 'store', target_id: 'S001', store_id: 'S001' },
      { action: 'measurement_comment.save', user_id: adminId, target_type: 'sensor', target_id: String(fridge), store_id: 'S001', before: null, after: { comment: '扉開放' } },
      { action: 'measurement_comment.save', before: { comment: '扉開放' }, after: { comment: '補充' } },
      { action: 'measurement_comment.remove', before: { comment: '補充' }, after: { measured_at: '20261120095910' } }, // the reading, not a comment
    ]);
    // The pairing names the gateway and never the PIN or the token.
    const pairing = await db.selectFrom('audit_log').select('details').where('action', '=', 'gateway.pair').executeTakeFirstOrThrow();
    expect(pairing.details).toMatchObject({ gateway_info: 'GW-S001' });
    expect(JSON.stringify(pairing.details)).not.toContain(pin);
    expect(JSON.stringify(pairing.details)).not.toContain(gatewayToken);
  });
});

describe('GET /v1/audit', () => {
  it('answers administrators the rows, newest first, with the filters and the verification', async () => {
    const { adminId, userId } = await world();
    await writeRows(adminId, 3, 'S001');
    await writeRows(userId, 2, 'S002');
    await db.transaction().execute((trx) => audit(trx, { userId: adminId, action: 'gateway.exchange', targetType: 'store', targetId: 'S002', storeId: 'S002', details: { before: { gateway_info: 'A' }, after: { gateway_info: 'B' } } }));
    await db.updateTable('audit_log').set({ at: new Date('2026-01-10T03:00:00Z') }).where('user_id', '=', userId).execute();
    const token = await tokenFor('admin', TEST_PASSWORD);
    const read = async (search: string) => (await call(auditLoader, get(`/on-reco/v1/audit${search}`, token))).json();
    const all = await read('');
    expect(all.all_count).toBe(6);
    expect(all.rows.map((row: { audit_id: number }) => row.audit_id)).toEqual([...all.rows.map((row: { audit_id: number }) => row.audit_id)].sort((a, b) => b - a));
    expect(all.rows[0]).toMatchObject({ action: 'gateway.exchange', before: { gateway_info: 'A' }, after: { gateway_info: 'B' }, user_id: adminId });
    // The time update above is a change made with SQL: the verification names the two rows.
    expect(all.verification.ok).toBe(false);
    expect(all.verification.broken.map((row: { reason: string }) => row.reason)).toEqual(['content_changed', 'content_changed']);
    expect((await read(`?store_id=S002`)).all_count).toBe(3);
    expect((await read(`?user_id=${userId}`)).all_count).toBe(2);
    expect((await read('?kind=gateway')).all_count).toBe(1);
    expect((await read('?kind=store')).all_count).toBe(6);
    expect((await read('?from=20260110&to=20260110')).all_count).toBe(2);
    expect((await read('?from=20260111')).all_count).toBe(4);
    expect((await read('?page_no=2&page_count=4')).rows).toHaveLength(2);
  });

  it('refuses everyone but administrators (403), no token (401), and bad filters (400)', async () => {
    await world();
    await createUser(db, 'maint', 10);
    await createUser(db, 'case', 20, { storeIds: ['S001'] });
    await createUser(db, 'store1', 101, { storeIds: ['S001'] });
    for (const login of ['maint', 'case', 'area', 'store1']) {
      expect((await call(auditLoader, get('/on-reco/v1/audit', await tokenFor(login, TEST_PASSWORD)))).status, login).toBe(403);
    }
    expect((await call(auditLoader, get('/on-reco/v1/audit'))).status).toBe(401);
    const token = await tokenFor('admin', TEST_PASSWORD);
    for (const search of ['?from=20260231', '?from=20260105&to=20260101', '?kind=nothing', '?user_id=x', '?page_count=1000']) {
      const response = await call(auditLoader, get(`/on-reco/v1/audit${search}`, token));
      expect(response.status, search).toBe(400);
    }
  });
});

describe('the verified checkpoint (decision 132)', () => {
  it('walks only the rows after the checkpoint on a request, and still names a broken new row', async () => {
    const { adminId } = await world();
    await writeRows(adminId, 4);
    expect(await advanceAuditCheckpoint(db, new Date(), 'full')).toEqual({ ok: true, checked: 4, broken: [], full: true });
    const ids = await writeRows(adminId, 3);
    expect(await auditChainVerification(db)).toEqual({ ok: true, checked: 7, broken: [] });
    const checkpoint = await db.selectFrom('audit_checkpoint').selectAll().executeTakeFirstOrThrow();
    expect(Number(checkpoint.last_id)).toBe(ids[3]);
    expect(await advanceAuditCheckpoint(db, new Date(), 'since checkpoint')).toEqual({ ok: true, checked: 7, broken: [], full: false });
    expect(Number((await db.selectFrom('audit_checkpoint').select('last_id').executeTakeFirstOrThrow()).last_id)).toBe(ids[6]);
    // A row written after the checkpoint with a forged link (an insert that bypasses audit_append).
    await sql`insert into audit_log (at, user_id, action, target_type, details, prev_hash, row_hash) values (now(), ${adminId}, 'store.update', 'store', '{}', repeat('1', 64), repeat('2', 64))`.execute(db);
    const found = await auditChainVerification(db);
    expect(found.ok).toBe(false);
    expect(found.checked).toBe(8);
  });

  it('reports a changed old row on the next request (the update counter moved), and keeps it after the walks', async () => {
    const { adminId } = await world();
    const ids = await writeRows(adminId, 5);
    await advanceAuditCheckpoint(db, new Date(), 'full');
    await sql`update audit_log set details = '{"before": {"store_name": "x"}, "after": {"store_name": "y"}}' where audit_id = ${ids[1]}`.execute(db);
    await flushTableStatistics();
    const expected = { ok: false, checked: 5, broken: [{ audit_id: ids[1], reason: 'content_changed' }] };
    expect(await auditChainVerification(db)).toEqual(expected);
    // The worker's next walk (a full one, as the counter moved) keeps it at the checkpoint.
    expect(await advanceAuditCheckpoint(db, new Date(), 'since checkpoint')).toEqual({ ...expected, full: true });
    await writeRows(adminId, 1);
    expect(await auditChainVerification(db)).toEqual({ ...expected, checked: 6 });
  });

  it('reports a changed checkpoint row and a deleted tail from the seam walk alone', async () => {
    const { adminId } = await world();
    const ids = await writeRows(adminId, 4);
    await advanceAuditCheckpoint(db, new Date(), 'full');
    // Changed without the statistics telling (a reset of the counters): the checkpoint row's hash no longer matches.
    await sql`update audit_log set action = 'store.create' where audit_id = ${ids[3]}`.execute(db);
    await db.updateTable('audit_checkpoint').set({ changes: sql`(select n_tup_upd + n_tup_del from pg_stat_user_tables where relid = 'audit_log'::regclass)` }).execute();
    expect((await auditChainVerification(db)).broken).toContainEqual({ audit_id: ids[3], reason: 'content_changed' });
  });
});

describe('the worker\'s audit chain walk', () => {
  it('walks in full once a day after 03:00 Japan time, and from the checkpoint otherwise', async () => {
    const { adminId } = await world();
    await writeRows(adminId, 2);
    // A counter that moves between two runs would (rightly) make the second a full walk.
    await flushTableStatistics();
    const fullAt = async () => new Date((await db.selectFrom('audit_checkpoint').select('full_walk_at').executeTakeFirstOrThrow()).full_walk_at);
    // 2026-11-24 02:00 JST: no checkpoint yet, so a full walk anyway.
    await runExclusive(db, auditChainJob, new Date('2026-11-23T17:00:00Z'));
    expect((await fullAt()).toISOString()).toBe('2026-11-23T17:00:00.000Z');
    const ids = await writeRows(adminId, 1);
    // 02:55 JST: since the checkpoint only.
    await runExclusive(db, auditChainJob, new Date('2026-11-23T17:55:00Z'));
    expect((await fullAt()).toISOString()).toBe('2026-11-23T17:00:00.000Z');
    const checkpoint = await db.selectFrom('audit_checkpoint').selectAll().executeTakeFirstOrThrow();
    expect([Number(checkpoint.last_id), Number(checkpoint.checked)]).toEqual([ids[2], 3]);
    // 03:05 JST: the day's full walk; 03:10: not again.
    await runExclusive(db, auditChainJob, new Date('2026-11-23T18:05:00Z'));
    expect((await fullAt()).toISOString()).toBe('2026-11-23T18:05:00.000Z');
    await runExclusive(db, auditChainJob, new Date('2026-11-23T18:10:00Z'));
    expect((await fullAt()).toISOString()).toBe('2026-11-23T18:05:00.000Z');
  });
});
