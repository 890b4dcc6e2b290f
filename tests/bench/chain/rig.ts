import os from 'node:os';
import { sql } from 'kysely';
import { createDb, type Db } from '../../../app/db/db.server';
import { migrateToLatest } from '../../../app/db/migrate.server';
import { countRows, issuePin } from '../../fixtures/chain';
import { BENCH_PIN } from '../../support/bench';
import { machine, serveConsole } from '../../support/console';
import { prepareTestDatabase } from '../../support/database';
import { pairOverApi } from '../../support/gateway-api';
import { startWorker, stopProcess, waitUntil } from '../../support/processes';
import { startSmtpServer } from '../../support/smtp';
import { gatewayFleet } from './gateways';
import { parentOf, sampleTree, type TreeSample } from './proc';
import { chartHtml, lagPercentiles, latencySeries, pagePercentiles, percentiles, targets } from './report';
import { type ChainShape, seedChain, seededGatewayToken, storeIdOf } from './seed';
import { chainPages, startUsers } from './users';

// The chain-scale rig (issue 17 part 1, docs/decisions/190-chain-rig.md): a fresh database with
// the chain generated in SQL, the production console and a worker with a local SMTP server, then
// for `durationS` at once: the chain's gateways posting through the HTTP API, alert probes (one
// reading over the limit every few seconds → its mail), and signed-in users loading pages.

export interface RigOptions extends ChainShape {
  /** Readings per second offered by the gateways (each store's gateway posts every stores × sensors / rate seconds). */
  rate: number;
  durationS: number;
  users: number;
  pauseMs: number;
  probeEveryS: number;
  /** Where the web process writes its V8 CPU profile (PROFILE), when wanted. */
  profileDir?: string;
}

const WARM_UP_MS = 5000;
/** Past the outbox's first retry (30 s), so a mail that failed once is measured, late, rather than missed. */
const MAIL_WAIT_MS = 40_000;
const SAMPLE_MS = 5000;

export function rigOptionsFromEnv(env: Record<string, string | undefined>): RigOptions {
  const stores = Number(env.STORES ?? 20_000);
  const number = (name: string, fallback: number) => (env[name] === undefined || env[name] === '' ? fallback : Number(env[name]));
  return {
    stores,
    sensorsPerStore: 20,
    watched: number('WATCHED', Math.max(2, Math.round(stores / 1000))),
    monthDays: number('MONTH_DAYS', 31),
    recentMinutes: number('RECENT_MINUTES', 60),
    rate: number('RATE', Math.round((6700 * stores) / 20_000)),
    durationS: number('DURATION', 300),
    users: number('USERS', 6),
    pauseMs: number('PAUSE_MS', 250),
    probeEveryS: number('PROBE_EVERY', 3),
    profileDir: env.PROFILE || undefined,
  };
}

export async function runChainRig(options: RigOptions) {
  const started = Date.now();
  const loadAtStart = os.loadavg();
  const smtp = await startSmtpServer();
  const database = await prepareTestDatabase('onreco_chain_rig');
  const db = createDb(database.url, 4);
  const stops: (() => Promise<unknown>)[] = [() => database.release(), () => db.destroy(), () => smtp.close()];
  try {
    await migrateToLatest(db);
    const now = new Date();
    const chain = await seedChain(db, options, now);
    const seedDone = Date.now();
    // PROFILE=dir: the web process's V8 CPU profile, written there when it stops.
    const server = await serveConsole(database.url, {}, undefined, options.profileDir ? ['--cpu-prof', `--cpu-prof-dir=${options.profileDir}`] : []);
    stops.unshift(() => server.stop());
    const worker = startWorker({ DATABASE_URL: database.url, SMTP_URL: smtp.url, ONRECO_PUBLIC_URL: server.base });
    stops.unshift(() => stopProcess(worker));
    const tokens = await gatewayTokens(db, server.base, options, chain.watchedStores.length);
    const pages = chainPages(chain, options.stores, now);

    const postmaster = await postmasterPid(db);
    const roots = { web: server.process.pid!, worker: worker.pid!, rig: process.pid, ...(postmaster ? { postgresql: postmaster } : {}) };
    const before = sampleAll(roots);
    const memory: Record<string, number[]> = Object.fromEntries(Object.keys(roots).map((name) => [name, []]));
    const loads: number[][] = [];
    const sampler = setInterval(() => {
      for (const [name, sample] of Object.entries(sampleAll(roots))) memory[name].push(sample.rssMiB);
      loads.push(os.loadavg());
    }, SAMPLE_MS);

    const intervalMs = Math.round(((options.stores * options.sensorsPerStore) / options.rate) * 1000);
    const fleet = gatewayFleet(server.base, tokens, options.sensorsPerStore, intervalMs);
    const probeMail = (probe: { store: number; sensor: number }) => mailIndex(smtp.received, chain.watchedStores[probe.store].storeName, probe.sensor);
    // Ready when a first alert's mail has come through the worker (its start-up takes seconds).
    const warmUpProbe = { store: chain.watchedStores.length - 1, sensor: options.sensorsPerStore };
    await fleet.probe(warmUpProbe.store, warmUpProbe.sensor);
    await waitUntil(async () => probeMail(warmUpProbe) >= 0, 90_000, 'the first alert mail');
    const acceptedBefore = fleet.stats.accepted;
    const runStart = Date.now();
    fleet.start();
    const users = await startUsers(server.base, pages, options.users, options.pauseMs);
    const { probes, sent: probesSent } = await runProbes(fleet, chain.watchedStores.length, options, runStart + options.durationS * 1000);
    await users.stop();
    await fleet.stop();
    const runEnd = Date.now();
    clearInterval(sampler);
    const after = sampleAll(roots);
    const mailDeadline = Date.now() + MAIL_WAIT_MS;
    while (probes.some((p) => probeMail(p) < 0) && Date.now() < mailDeadline) await new Promise((resolve) => setTimeout(resolve, 100));
    const mails = probes.flatMap((probe) => {
      const index = probeMail(probe);
      if (index < 0) return [];
      const { receivedAt } = smtp.received[index];
      return [{ at: receivedAt, ms: receivedAt - probe.takenAt }];
    });

    const measured = users.timings.filter((t) => t.at >= runStart + WARM_UP_MS);
    const pageFigures = pagePercentiles(measured);
    const lag = lagPercentiles(fleet.stats.lags.filter((l) => l.at >= runStart + WARM_UP_MS));
    const mail = percentiles(mails.map((m) => m.ms / 1000), 2);
    const storedInRun = await countStoredSince(db, new Date(runStart));
    const seconds = (runEnd - runStart) / 1000;
    const result = {
      machine: machine(),
      load_average: { at_start: loadAtStart.map((n) => round(n)), during_run_max: [0, 1, 2].map((i) => round(Math.max(...loads.map((l) => l[i]), 0))), at_end: os.loadavg().map((n) => round(n)) },
      chain: {
        stores: options.stores,
        sensors: options.stores * options.sensorsPerStore,
        month_of_minute_readings_for_stores: chain.watchedStores.length,
        month_days: options.monthDays,
        latest_minutes_for_every_sensor: options.recentMinutes,
        measurements_rows: await countRows(db, 'measurements'),
        database_size_mb: await databaseSizeMb(db),
        seed_seconds: chain.seconds,
      },
      load: {
        seconds: round(seconds),
        offered_readings_per_s: options.rate,
        gateway_upload_every_s: intervalMs / 1000,
        accepted_readings_per_s: Math.round((fleet.stats.accepted - acceptedBefore) / seconds),
        readings_accepted: fleet.stats.accepted - acceptedBefore,
        readings_stored_in_run: storedInRun,
        readings_taken_not_answered_at_end: fleet.stats.unsent,
        duplicates: fleet.stats.duplicates,
        rejected: fleet.stats.rejected,
        batches: fleet.stats.batches,
        retried: fleet.stats.retried,
        users: options.users,
        page_loads: users.timings.length,
        page_loads_tried_again: users.retried(),
        page_loads_not_200: users.timings.filter((t) => t.status !== 200).map((t) => `${t.page}: ${t.status}`),
        alert_probes: probesSent,
        alert_probes_stored_by_end: probes.length,
        mails_received: smtp.received.length,
      },
      pages_ms: pageFigures,
      ingest_lag_s: lag,
      reading_to_alert_mail_s: { ...mail, probes: probes.length, mailed: mails.length, not_mailed: probes.filter((p) => probeMail(p) < 0).map((p) => `${storeIdOf(p.store)} センサ${p.sensor}`) },
      processes: processFigures(before, after, memory, seconds),
      warm_up_left_out_s: WARM_UP_MS / 1000,
      run_seconds_total: round((Date.now() - started) / 1000),
      seed_to_load_seconds: round((runStart - seedDone) / 1000),
      targets: targets(pageFigures, measured, lag.p95, mail.p95, mails.length === probesSent && probesSent > 0),
    };
    const chart = chartHtml(
      `Chain rig: ${options.stores.toLocaleString('en')} stores × ${options.sensorsPerStore} sensors, ${options.rate.toLocaleString('en')} readings/s offered, ${options.users} users`,
      `${result.machine}. Accepted ${result.load.accepted_readings_per_s} readings/s; ingest lag p95 ${lag.p95} s; mail p95 ${mail.p95} s.`,
      latencySeries(runStart, users.timings, fleet.stats.lags, mails),
      seconds,
    );
    return { result, chart };
  } finally {
    for (const stop of stops) await stop();
  }
}

const round = (value: number) => Math.round(value * 10) / 10;

/** The watched stores pair over the API (the real path: PIN, token); the others use the token the seed stored. */
async function gatewayTokens(db: Db, base: string, options: RigOptions, watched: number): Promise<string[]> {
  const tokens = Array.from({ length: options.stores }, (_, i) => seededGatewayToken(storeIdOf(i)));
  for (let i = 0; i < watched; i += 1) {
    await issuePin(db, storeIdOf(i), BENCH_PIN);
    tokens[i] = await pairOverApi(base, storeIdOf(i), BENCH_PIN);
  }
  return tokens;
}

/**
 * Every probeEveryS, one reading over the limit on the next (watched store, sensor) not probed
 * yet; until `until`. A probe still queued behind its gateway's retries then is not waited for
 * (a server far behind would hold the run for minutes): it counts as not stored.
 */
async function runProbes(fleet: ReturnType<typeof gatewayFleet>, watched: number, options: RigOptions, until: number) {
  const probes: { store: number; sensor: number; takenAt: number }[] = [];
  const sent: Promise<void>[] = [];
  for (let n = 0; Date.now() + options.probeEveryS * 1000 <= until && n < watched * options.sensorsPerStore - 1; n += 1) {
    await new Promise((resolve) => setTimeout(resolve, options.probeEveryS * 1000));
    const probe = { store: n % watched, sensor: 1 + Math.floor(n / watched) };
    sent.push(fleet.probe(probe.store, probe.sensor).then((takenAt) => void (takenAt !== null && probes.push({ ...probe, takenAt }))));
  }
  await Promise.race([Promise.all(sent), new Promise((resolve) => setTimeout(resolve, Math.max(0, until - Date.now())))]);
  return { probes, sent: sent.length };
}

/** The first mail about the sensor (its alert's opening: the probes never repeat a sensor). */
function mailIndex(received: { subject: string }[], storeName: string, sensor: number): number {
  return received.findIndex((mail) => mail.subject.includes(` ${storeName} センサ${sensor} `));
}

/**
 * Each process tree, and the rig's own process (its gateways and users run in it) from Node's own
 * counters: subtracting the trees it started from its tree came out negative (decision 191).
 */
function sampleAll(roots: { rig: number } & Record<string, number>): Record<string, TreeSample> {
  const { rig: _rig, ...others } = roots;
  const samples = Object.fromEntries(Object.entries(others).map(([name, pid]) => [name, sampleTree(pid)]));
  const cpu = process.cpuUsage();
  return { ...samples, rig: { cpuSeconds: (cpu.user + cpu.system) / 1e6, rssMiB: Math.round(process.memoryUsage().rss / 2 ** 20), processes: 1 } };
}

function processFigures(before: Record<string, TreeSample>, after: Record<string, TreeSample>, memory: Record<string, number[]>, seconds: number) {
  return Object.fromEntries(
    Object.keys(before).map((name) => {
      const cpu = after[name].cpuSeconds - before[name].cpuSeconds;
      return [name, { cpu_seconds: round(cpu), cpu_cores: Math.round((cpu / seconds) * 100) / 100, rss_mib_max: Math.max(0, ...memory[name], after[name].rssMiB), processes: after[name].processes }];
    }),
  );
}

/** PostgreSQL's postmaster (the parent of our backend), or null when the server is not on this machine. */
export async function postmasterPid(db: Db): Promise<number | null> {
  const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(db);
  try {
    return parentOf(rows[0].pid);
  } catch {
    return null;
  }
}

async function countStoredSince(db: Db, since: Date): Promise<number> {
  const { rows } = await sql<{ n: string }>`select count(*) as n from measurements where received_at >= ${since}`.execute(db);
  return Number(rows[0].n);
}

async function databaseSizeMb(db: Db): Promise<number> {
  const { rows } = await sql<{ bytes: string }>`select pg_database_size(current_database()) as bytes`.execute(db);
  return Math.round(Number(rows[0].bytes) / 2 ** 20);
}
