// The audit chain's figures (docs/decisions/132-audit-figures.md): a verification of the whole
// chain (ROWS rows, 1,000,000 by default, written through the real writer audit_append in
// batches) p50/p95 over RUNS walks; the same walk after a row is changed with SQL (it must name
// it); and the cost of an append: audit() in its own transaction, alone and with WRITERS
// transactions appending at once (they queue on the chain head).
//   npx tsx tests/bench/audit-verify.ts        (ROWS=100000 RUNS=3 WRITERS=8 to change)
import { loadavg } from 'node:os';
import { sql } from 'kysely';
import { advanceAuditCheckpoint, audit, auditChainVerification, verifyAuditChain } from '../../app/models/audit.server';
import { createStore, createUser } from '../fixtures/chain';
import { machine, percentile } from '../support/console';
import { type BenchDatabase, runBench } from '../support/bench';

const ROWS = Number(process.env.ROWS ?? 1_000_000);
const RUNS = Number(process.env.RUNS ?? 5);
const WRITERS = Number(process.env.WRITERS ?? 8);
const APPENDS = Number(process.env.APPENDS ?? 200);
const BATCH = 20_000;

const figures = (times: number[]) => {
  const sorted = [...times].sort((a, b) => a - b);
  return { p50: Math.round(percentile(sorted, 0.5)), p95: Math.round(percentile(sorted, 0.95)) };
};
const figuresMs = (times: number[]) => {
  const sorted = [...times].sort((a, b) => a - b);
  return { p50: Math.round(percentile(sorted, 0.5) * 100) / 100, p95: Math.round(percentile(sorted, 0.95) * 100) / 100 };
};

async function main({ db }: BenchDatabase) {
  await createStore(db, 'S001');
  const userId = await createUser(db, 'auditor', 1);
  const filling = performance.now();
  for (let done = 0; done < ROWS; done += BATCH) {
    const size = Math.min(BATCH, ROWS - done);
    // One batch of store updates with before / after, written by the real writer.
    await sql`
      select audit_append(jsonb_agg(jsonb_build_object(
        'at', to_char(now() - make_interval(secs => ${ROWS} - i), 'YYYY-MM-DD"T"HH24:MI:SS.MSOF'), 'user_id', ${userId}::integer,
        'action', 'store.update', 'target_type', 'store', 'target_id', 'S' || lpad((i % 500)::text, 3, '0'), 'store_id', 'S' || lpad((i % 500)::text, 3, '0'),
        'details', jsonb_build_object('before', jsonb_build_object('store_name', 'テスト店 ' || i, 'tel_no', '0312345678'), 'after', jsonb_build_object('store_name', 'テスト店 ' || (i + 1), 'tel_no', '0312345678'))
      ) order by i)) from generate_series(${done + 1}::integer, ${done + size}::integer) i`.execute(db);
  }
  await sql`vacuum analyze audit_log`.execute(db);
  const fillSeconds = Math.round((performance.now() - filling) / 100) / 10;
  const { rows: size } = await sql<{ size: string }>`select pg_size_pretty(pg_total_relation_size('audit_log')) as size`.execute(db);

  const walk = async () => {
    const started = performance.now();
    const result = await verifyAuditChain(db);
    return { ms: performance.now() - started, result };
  };
  await walk(); // warm-up
  const times: number[] = [];
  let checked = 0;
  for (let i = 0; i < RUNS; i += 1) {
    const { ms, result } = await walk();
    if (!result.ok) throw new Error(`the untouched chain did not verify: ${JSON.stringify(result.broken)}`);
    checked = result.checked;
    times.push(ms);
  }

  const target = Math.floor(ROWS / 2);
  await sql`update audit_log set details = jsonb_set(details::jsonb, '{after,store_name}', '"書き換え"')::json where audit_id = ${target}`.execute(db);
  const tampered = await walk();
  if (tampered.result.broken[0]?.audit_id !== target) throw new Error(`the changed row ${target} was not named: ${JSON.stringify(tampered.result.broken)}`);
  await sql`update audit_log set details = jsonb_set(details::jsonb, '{after,store_name}', ${JSON.stringify(`テスト店 ${target + 1}`)}::jsonb)::json where audit_id = ${target}`.execute(db);

  // The page's verification with the worker's checkpoint (decision 132): the full walk stores
  // the checkpoint, a day's rows are written after it, and each request walks only those.
  // (The restore above is an UPDATE: let its session's statistics reach pg_stat_user_tables, as
  // they do within about a second, so the checkpoint records the counter with it.)
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const fullStarted = performance.now();
  await advanceAuditCheckpoint(db, new Date(), 'full');
  const fullWalkMs = performance.now() - fullStarted;
  for (let i = 0; i < 10; i += 1) {
    await sql`select audit_append(jsonb_agg(jsonb_build_object('at', to_char(now(), 'YYYY-MM-DD"T"HH24:MI:SS.MSOF'), 'user_id', ${userId}::integer, 'action', 'store.update', 'target_type', 'store', 'target_id', 'S001', 'store_id', 'S001', 'details', jsonb_build_object('i', i)) order by i)) from generate_series(1, 100) i`.execute(db);
  }
  const request: number[] = [];
  for (let i = 0; i < 55; i += 1) {
    const started = performance.now();
    const seen = await auditChainVerification(db);
    if (!seen.ok) throw new Error(`the checkpointed verification failed: ${JSON.stringify(seen.broken)}`);
    if (i >= 5) request.push(performance.now() - started);
  }

  // Appends: audit() in its own transaction, as an alert stop or a store save does.
  const append = async () => {
    const started = performance.now();
    await db.transaction().execute((trx) => audit(trx, { userId, action: 'alert_history.stop', targetType: 'alert_history', targetId: 1, storeId: 'S001', details: { comment: '閉めました' } }));
    return performance.now() - started;
  };
  for (let i = 0; i < 20; i += 1) await append();
  const alone: number[] = [];
  for (let i = 0; i < APPENDS; i += 1) alone.push(await append());
  const together: number[] = [];
  const startedTogether = performance.now();
  await Promise.all(Array.from({ length: WRITERS }, async () => {
    for (let i = 0; i < APPENDS / WRITERS; i += 1) together.push(await append());
  }));
  const togetherSeconds = (performance.now() - startedTogether) / 1000;
  const after = await verifyAuditChain(db);
  if (!after.ok) throw new Error(`the chain broke under concurrent appends: ${JSON.stringify(after.broken)}`);

  console.log(`audit chain bench on ${machine()}`);
  console.log(`  rows ${checked.toLocaleString('en')} (audit_log ${size[0].size}), written by audit_append in ${fillSeconds} s`);
  console.log(`  load average at the end: ${loadavg().map((n) => n.toFixed(1)).join(' ')}`);
  console.log(`  verify whole chain: p50 ${figures(times).p50} ms, p95 ${figures(times).p95} ms over ${RUNS} walks (limit 10,000 ms)`);
  console.log(`  verify after a SQL update of row ${target}: ${Math.round(tampered.ms)} ms, broken ${JSON.stringify(tampered.result.broken)}`);
  console.log(`  worker's full walk storing the checkpoint: ${Math.round(fullWalkMs)} ms; a request with 1,000 rows after the checkpoint: p50 ${figuresMs(request).p50} ms, p95 ${figuresMs(request).p95} ms over 50 (load ${loadavg().map((n) => n.toFixed(1)).join(' ')})`);
  console.log(`  append (one row, own transaction), alone: p50 ${figuresMs(alone).p50} ms, p95 ${figuresMs(alone).p95} ms over ${APPENDS}`);
  console.log(`  append with ${WRITERS} writers at once: p50 ${figuresMs(together).p50} ms, p95 ${figuresMs(together).p95} ms, ${Math.round(together.length / togetherSeconds)} appends/s; chain still verifies (${after.checked.toLocaleString('en')} rows)`);
}

runBench('onreco_bench_audit_verify', main, { pool: WRITERS + 2 });
