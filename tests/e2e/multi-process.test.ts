import { outboxMessageId } from '../../app/services/mail.server';
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Db } from '../../app/db/db.server';
import { migrateToLatest } from '../../app/db/migrate.server';
import { fromJapan, toCompactDateTime } from '../../app/domain/japan-time';
import { AUTHORITY } from '../../app/domain/roles';
import { ensureMeasurementPartitions } from '../../app/models/measurement-partitions.server';
import { insertMeasurementsWithBuckets } from '../../app/models/measurement-buckets.server';
import { createSensor, createStore, createUser, issuePin, TEST_PASSWORD } from '../fixtures/chain';
import { ensureConsoleBuild } from '../support/console-build';
import { prepareTestDatabase, type TestDatabase } from '../support/database';
import { minuteAgo, pairOverApi } from '../support/gateway-api';
import { requestOnOwnConnection } from '../support/connection-request';
import { freePort } from '../support/ports';
import { startWorker, stopProcess, waitUntil } from '../support/processes';
import { startSmtpServer } from '../support/smtp';

// Issue 17 part 4 (docs/decisions/184-several-processes.md): 3 web processes (WEB_CONCURRENCY,
// one port) and 2 workers on one database of their own. Alerts come in through the real ingest
// API over new connections (handed round-robin to the web processes), screens' event streams on
// every web process hear of them, and one worker is killed with -9 while it makes a report and
// sends mail. At the end the SMTP server has every mail once, the report was made once, and each
// periodic tick was run by one worker.

const STORES = 20;
const SENSORS = 6;
const REPORT_STORE = 'MPR01';
const STREAMS = 9;

let database: TestDatabase;
let db: Db;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let web: ChildProcess | undefined;
const workers: ChildProcess[] = [];

/** The database URL naming its client in pg_stat_activity. */
const as = (name: string) => {
  const url = new URL(database.url);
  url.searchParams.set('application_name', name);
  return url.toString();
};

beforeAll(async () => {
  database = await prepareTestDatabase('onreco_multi_process');
  db = createDb(database.url, 4);
  await migrateToLatest(db);
  smtp = await startSmtpServer();
});
afterAll(async () => {
  await Promise.all(workers.map((worker) => stopProcess(worker, 'SIGKILL')));
  if (web) await stopProcess(web);
  await smtp?.close();
  await db?.destroy();
  await database?.release();
});

/** scripts/server.ts with WEB_CONCURRENCY=3 and no SESSION_SECRET: the supervisor makes the one its processes share. */
async function startWebCluster(): Promise<{ base: string; pids: () => number[] }> {
  const build = await ensureConsoleBuild();
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'production', PORT: String(port), DATABASE_URL: as('mp-web'), WEB_CONCURRENCY: '3', LOG_LEVEL: 'warn' };
  delete env.SESSION_SECRET;
  web = spawn(process.execPath, ['--import', 'tsx', path.resolve('scripts/server.ts'), build], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  const supervisor = web;
  const pids = () =>
    execFileSync('ps', ['-o', 'pid=', '--ppid', String(supervisor.pid)], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .filter(Boolean)
      .map(Number);
  const base = `http://localhost:${port}`;
  await waitUntil(async () => (await fetch(`${base}/login`).then((r) => r.ok, () => false)) && pids().length === 3, 90_000, 'three web processes');
  return { base, pids };
}

/** A request on a connection of its own, so that the supervisor hands it to the next web process. */
const request = requestOnOwnConnection;

/** The dashboard's event stream on a connection of its own; `text` grows as events arrive. */
function openStream(base: string, cookie: string): Promise<{ text: () => string; close: () => void }> {
  return new Promise((resolve, reject) => {
    let text = '';
    const req = http.get(`${base}/resources/events`, { headers: { Cookie: cookie }, agent: false }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`event stream: ${res.statusCode}`));
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('error', () => undefined);
      resolve({ text: () => text, close: () => req.destroy() });
    });
    req.on('error', reject);
  });
}

const serial = (store: number, sensor: number) => `AA:BB:0C:${String(store).padStart(2, '0')}:00:${String(sensor + 10)}`;
const storeIdOf = (store: number) => `MPX${String(store).padStart(2, '0')}`;

/** The stores, each with SENSORS sensors (0 to 10 ℃, alerting at once) and two users mailed; one viewer of them all. */
async function seedChain(): Promise<string[]> {
  const storeIds = Array.from({ length: STORES }, (_, i) => storeIdOf(i + 1));
  for (const [i, storeId] of storeIds.entries()) {
    await createStore(db, storeId, { store_name: `${storeId} 店` });
    for (let s = 0; s < SENSORS; s++) await createSensor(db, storeId, serial(i + 1, s), { guard_time: null, lower_limit: 0, upper_limit: 10 });
    for (const who of ['a', 'b']) await createUser(db, `${storeId.toLowerCase()}-${who}`, AUTHORITY.storeUser, { storeIds: [storeId], mail: `${storeId.toLowerCase()}-${who}@mpx.example` });
  }
  await createUser(db, 'mp-viewer', AUTHORITY.areaManager, { storeIds, mail: 'mp-viewer@mpx.example' });
  return storeIds;
}

/**
 * A store with 20 sensors' minute readings over October 2026, and its month report pending (mailed
 * with the file). A reading over the upper limit in every 10 minutes makes the report read every
 * reading (a bucket with a value outside the limits is re-read raw: decisions 149, 192), so that
 * it takes long enough to be caught in the making.
 */
async function seedReport(): Promise<void> {
  await createStore(db, REPORT_STORE, { store_name: 'レポート店' });
  const ids: number[] = [];
  for (let i = 0; i < 20; i++) ids.push(await createSensor(db, REPORT_STORE, `AA:BB:0D:00:00:${String(i + 10)}`, { equipment_name: `冷蔵ケース${i + 1}`, upper_limit: 10, lower_limit: 0 }));
  const from = fromJapan(2026, 10, 1);
  const to = fromJapan(2026, 11, 1);
  await ensureMeasurementPartitions(db, from, to);
  await insertMeasurementsWithBuckets(db, sql`
    insert into measurements (store_id, equipment_id, measured_at, temperature, error)
    select ${REPORT_STORE}, e, t,
           case when extract(minute from t)::int % 10 = 5 then 14.5 else round((4 + 2 * sin(extract(epoch from t) / 3600.0 + e))::numeric, 1) end,
           false
    from unnest(${ids}::int[]) e, generate_series(${from}::timestamptz, ${to}::timestamptz - interval '1 minute', interval '1 minute') t
    returning store_id, equipment_id, measured_at, temperature, error`);
  await db
    .insertInto('report_history')
    .values({
      store_id: REPORT_STORE,
      setting_no: null,
      file_name: '10月 温度記録',
      report_type: 1,
      output_format: 2,
      start_time: from,
      end_time: fromJapan(2026, 10, 31, 23, 50),
      state: 'pending',
      request: JSON.stringify({ settingName: '随時レポート', dataInterval: 10, manualTimes: [], option1: 1, option2: 1, equipmentIds: ids, mailFlg: 1, mailAddresses: ['mp-report@mpx.example'], attachmentFlg: 1, createdByName: null }),
    })
    .execute();
}

/**
 * The worker whose transaction holds the pending report's row (it is making it), from whom a
 * waiting lock request waits for; null when no one holds it.
 */
async function reportMaker(): Promise<string | null> {
  const probe = new pg.Client({ connectionString: as('mp-probe') });
  await probe.connect();
  probe.on('error', () => undefined);
  try {
    await probe.query('begin');
    await probe.query("set local lock_timeout = '2s'");
    let settled = false;
    const lock = probe.query(`select 1 from report_history where store_id = $1 and state = 'pending' for update`, [REPORT_STORE]).then(
      () => (settled = true),
      () => (settled = true),
    );
    while (!settled) {
      const { rows } = await sql<{ name: string }>`
        select holder.application_name as name
        from pg_stat_activity waiter
        cross join lateral unnest(pg_blocking_pids(waiter.pid)) as blocking(pid)
        join pg_stat_activity holder on holder.pid = blocking.pid
        where waiter.application_name = 'mp-probe'`.execute(db);
      if (rows[0]) return rows[0].name;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    await lock;
    return null;
  } finally {
    await probe.end().catch(() => undefined);
  }
}

const outbox = () => db.selectFrom('mail_outbox').select(['mail_id', 'to_address', 'sent_at']).where('to_address', 'like', '%@mpx.example').orderBy('mail_id').execute();
const messageIdOf = (raw: string) => /^Message-ID:\s*(\S+)/im.exec(raw)?.[1] ?? '';
const mine = () => smtp.received.filter((mail) => mail.to.some((to) => to.endsWith('@mpx.example')));

describe('several web processes and workers on one database', () => {
  it('3 web processes and 2 workers, one killed with -9 mid-run: every mail once, the report once, each tick once', async () => {
    const { base, pids } = await startWebCluster();
    const webPids = pids();
    const storeIds = await seedChain();
    await seedReport();

    // Pairing and sign-in on whichever process takes the connection: the session is good at all three.
    const tokens = await Promise.all(storeIds.map(async (storeId, i) => pairOverApi(base, storeId, await issuePin(db, storeId, String(300000 + i)))));
    const login = await request(`${base}/login`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ username: 'mp-viewer', password: TEST_PASSWORD }).toString() });
    expect(login.headers['set-cookie'], `sign-in answered ${login.status}`).toBeDefined();
    const cookie = String(login.headers['set-cookie']).split(';')[0];
    const streams: Awaited<ReturnType<typeof openStream>>[] = [];
    for (let i = 0; i < STREAMS; i++) streams.push(await openStream(base, cookie));
    // One LISTEN connection per web process: the streams are spread over all three.
    await waitUntil(
      async () => {
        const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity where application_name = 'mp-web' and query ilike 'listen %'`.execute(db);
        return rows[0].n === 3;
      },
      30_000,
      'a LISTEN connection in each web process',
    );

    // Every sensor of every store above its limit, each store's batch on a connection of its own.
    const at = toCompactDateTime(minuteAgo(1));
    const answers = await Promise.all(
      storeIds.map((storeId, i) =>
        request(`${base}/on-reco/v1/gateway/readings`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${tokens[i]}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ readings: Array.from({ length: SENSORS }, (_, s) => ({ serial_no: serial(i + 1, s), measured_at: at, temperature: 14.5, error: false, battery: 90, receive_sensitivity: -60 })) }),
        }),
      ),
    );
    expect(answers.map((answer) => [answer.status, JSON.parse(answer.body).accepted])).toEqual(storeIds.map(() => [200, SENSORS]));
    await waitUntil(async () => streams.every((stream) => stream.text().includes('event: change')), 30_000, 'the change on every stream');
    streams.forEach((stream) => stream.close());
    const queued = await outbox();
    // Each sensor's alert mailed to the store's two users and the viewer.
    expect(queued).toHaveLength(STORES * SENSORS * 3);

    // Two workers of every job; the one making the report is killed while mails are going out.
    const started = new Date();
    for (const name of ['mp-worker-a', 'mp-worker-b']) workers.push(startWorker({ DATABASE_URL: as(name), SMTP_URL: smtp.url }));
    // Both workers start (seconds each under load), one claims the report and both send mails: the
    // kill comes once a mail is through and the report is still being made.
    let victim: string | null = null;
    let reportState = 'pending';
    await waitUntil(
      async () => {
        victim = await reportMaker();
        if (victim === null) reportState = (await db.selectFrom('report_history').select('state').where('store_id', '=', REPORT_STORE).executeTakeFirstOrThrow()).state;
        return victim !== null && mine().length >= 1;
      },
      180_000,
      'a worker making the report while the mails go out',
    ).catch((error: Error) => {
      throw new Error(`${error.message} (report ${victim === null ? reportState : `made by ${victim}`}, ${mine().length} mails received)`);
    });
    const unsentAtKill = (await outbox()).filter((mail) => mail.sent_at === null).length;
    const killed = workers[victim === 'mp-worker-a' ? 0 : 1];
    await stopProcess(killed, 'SIGKILL');
    const killedAt = new Date();
    const survivor = workers.find((worker) => worker !== killed)!;
    expect(unsentAtKill, 'mails were still to send when the worker was killed').toBeGreaterThan(0);

    await waitUntil(async () => (await db.selectFrom('report_history').select('state').where('store_id', '=', REPORT_STORE).executeTakeFirstOrThrow()).state === 'done', 120_000, 'the report, made by the survivor');
    await waitUntil(async () => (await outbox()).every((mail) => mail.sent_at !== null), 120_000, 'every mail sent');
    // The survivor runs on alone through two no-communication ticks; a mail sent twice would be here by now.
    const survivorId = `:${survivor.pid}`;
    await waitUntil(
      async () => {
        const alone = await db.selectFrom('job_runs').select('tick').where('job', '=', 'no-communication check').where('tick', '>', killedAt).where('worker', 'like', `%${survivorId}`).where('finished_at', 'is not', null).execute();
        return alone.length >= 2;
      },
      90_000,
      'two ticks of the survivor alone',
    );
    await stopProcess(survivor);

    // Every mail at the SMTP server, by its Message-ID. At-least-once is the outbox's promise: a
    // kill between the server's acceptance and the commit would resend that one mail with its
    // Message-ID (decision 184); nothing else may come twice.
    const sent = await outbox();
    expect(sent).toHaveLength(STORES * SENSORS * 3 + 1);
    const ids = mine().map((mail) => messageIdOf(mail.raw));
    // The workers have no ONRECO_PUBLIC_URL: the Message-ID's host is the default's (localhost).
    expect(new Set(ids)).toEqual(new Set(sent.map((mail) => outboxMessageId(mail.mail_id, 'http://localhost'))));
    expect(ids.length - new Set(ids).size, 'mails received twice').toBeLessThanOrEqual(1);
    expect(mine().filter((mail) => mail.to.includes('mp-report@mpx.example'))).toHaveLength(1);
    // The report: one row, made once, its CSV whole.
    const reports = await db.selectFrom('report_history').select(['state', 'attempts', 'content']).where('store_id', '=', REPORT_STORE).execute();
    expect(reports).toHaveLength(1);
    expect(reports[0].state).toBe('done');
    // One long table (docs/decisions/287): the header and a row per sensor and 10 minutes of October, whole.
    const lines = reports[0].content!.toString('utf8').split('\r\n');
    expect(lines.indexOf('')).toBe(1 + 20 * 31 * 144);
    expect(lines).toHaveLength(1 + 20 * 31 * 144 + 1);
    // One alert per sensor (an alert raised twice would have mailed twice too).
    const alerts = await db.selectFrom('alert_history').select(db.fn.countAll<number>().as('n')).where('store_id', 'in', storeIds).executeTakeFirstOrThrow();
    expect(Number(alerts.n)).toBe(STORES * SENSORS);

    // The periodic ticks: one row each (the key), at the schedule's moments (every 15 s for the
    // no-communication check, whichever worker's clock fired), from the workers' start to the end
    // with at most the one around the kill missing; only a run the kill cut is unfinished.
    const runs = await db.selectFrom('job_runs').select(['job', 'tick', 'worker', 'finished_at']).orderBy('job').orderBy('tick').execute();
    expect(new Set(runs.map((run) => `${run.job} ${run.tick.toISOString()}`)).size).toBe(runs.length);
    const ticks = runs.filter((run) => run.job === 'no-communication check' && run.tick > started).map((run) => run.tick.getTime());
    expect(ticks.every((tick) => tick % 15_000 === 0)).toBe(true);
    const scheduled = (ticks.at(-1)! - ticks[0]) / 15_000 + 1;
    expect(ticks.length, `${ticks.length} of the ${scheduled} ticks`).toBeGreaterThanOrEqual(scheduled - 1);
    const workerPids = workers.map((worker) => worker.pid);
    expect(runs.every((run) => workerPids.includes(Number(run.worker.split(':').at(-1))))).toBe(true);
    const unfinished = runs.filter((run) => run.finished_at === null);
    expect(unfinished.every((run) => run.worker.endsWith(`:${killed.pid}`))).toBe(true);

    console.log(JSON.stringify({ killed: victim, unsentAtKill, mails: sent.length, received: ids.length, noCommunicationTicks: ticks.length, ticksRun: runs.length, loadavg: os.loadavg() }));
    // The web processes served throughout: none died and was replaced.
    expect(pids().sort()).toEqual(webPids.sort());
  }, 600_000);
});
