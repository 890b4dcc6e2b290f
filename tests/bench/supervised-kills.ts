// kill -9 of each process kind under `npm start` (the web server, the alerts worker, the reports
// worker), ROUNDS times each, while simulated gateways (the daemon's own buffer and uploader) post,
// mails go out to a real SMTP server and reports are being made: how long until the killed kind
// is back (the web server answering /healthz from a new pid; a worker's new process beating in
// worker_heartbeats), that the other processes kept theirs, and at the end that no reading, mail
// or report was lost or doubled. Wall-clock figures: the load average is printed beside each
// (docs/decisions/210-supervision.md).
//   npx tsx tests/bench/supervised-kills.ts        (ROUNDS=5 to change)
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { hostname, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import type { Db } from '../../app/db/db.server';
import { enqueueMails } from '../../app/models/outbox.server';
import { type BenchDatabase, runBench } from '../support/bench';
import { machine } from '../support/console';
import { freePort } from '../support/ports';
import { type ConsoleProcessKind, consoleProcesses, killAndTimeBack, waitUntil } from '../support/processes';
import { type SimulatedGateways, startSimulatedGateways } from '../support/simulated-gateways';
import { startSmtpServer } from '../support/smtp';

const ROUNDS = Number(process.env.ROUNDS ?? 5);
const MAILS_PER_KILL = 40;
const REPORTS_PER_KILL = 2;
const DOMAIN = '@kills.example';

/** Mails and reports queued just before a kill, each to an address of its own: what arrives twice or never shows by its address. */
async function queueWork(db: Db, gateways: SimulatedGateways, tag: string): Promise<string[]> {
  const addresses = Array.from({ length: MAILS_PER_KILL }, (_, i) => `${tag}-mail-${i}${DOMAIN}`);
  await enqueueMails(db, addresses.map((toAddress) => ({ toAddress, subject: `kill ${tag}`, body: 'supervised kills', storeId: null, alertHistoryId: null })));
  const { storeId, equipmentIds } = gateways.stores[0];
  const end = new Date(Math.floor(Date.now() / 600_000) * 600_000);
  for (let r = 0; r < REPORTS_PER_KILL; r++) {
    const to = `${tag}-report-${r}${DOMAIN}`;
    addresses.push(to);
    await db
      .insertInto('report_history')
      .values({
        store_id: storeId, setting_no: null, file_name: `kill ${tag} ${r}`, report_type: 1, output_format: 2,
        start_time: new Date(end.getTime() - 2 * 86400_000), end_time: end, state: 'pending',
        request: JSON.stringify({ settingName: '随時レポート', dataInterval: 10, manualTimes: [], option1: 1, option2: 1, equipmentIds, mailFlg: 1, mailAddresses: [to], attachmentFlg: 1, createdByName: null }),
      })
      .execute();
  }
  return addresses;
}

async function main({ db, url }: BenchDatabase) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const smtp = await startSmtpServer();
  const start = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts'], {
    env: { ...process.env, DATABASE_URL: url, PORT: String(port), SMTP_URL: smtp.url, ONRECO_DEMO: '1', ONRECO_DEMO_DAYS: '0', ONRECO_DATA_DIR: mkdtempSync(path.join(tmpdir(), 'onreco-kills-')), LOG_LEVEL: 'warn', NODE_ENV: 'production' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    await waitUntil(() => fetch(`${base}/readyz`).then((r) => r.ok, () => false), 300_000, 'npm start ready');
    const gateways = await startSimulatedGateways(db, base, { count: 4, prefix: 'SKILL' });
    gateways.startFeed(50);
    const queued: string[] = [];
    const back: Record<ConsoleProcessKind, (pid: number) => Promise<boolean>> = {
      web: async (pid) => ((await (await fetch(`${base}/healthz`)).json()) as { pid: number }).pid === pid,
      alerts: async (pid) => (await db.selectFrom('worker_heartbeats').select('worker').where('worker', '=', `${hostname()}:${pid}:alerts`).executeTakeFirst()) !== undefined,
      reports: async (pid) => (await db.selectFrom('worker_heartbeats').select('worker').where('worker', '=', `${hostname()}:${pid}:reports`).executeTakeFirst()) !== undefined,
    };
    const rows: { round: number; kind: ConsoleProcessKind; backMs: number; othersKept: boolean; loadAverage: number }[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      for (const kind of ['web', 'alerts', 'reports'] as const) {
        const before = consoleProcesses(start.pid!);
        const others = (Object.keys(before) as ConsoleProcessKind[]).filter((other) => other !== kind).flatMap((other) => before[other]);
        const load = loadavg()[0];
        queued.push(...(await queueWork(db, gateways, `r${round}-${kind}`)));
        // Mails going out and a report in the making when the kill comes.
        await new Promise((resolve) => setTimeout(resolve, 300));
        const { backMs } = await killAndTimeBack(start.pid!, kind, back[kind], 120_000);
        const after = Object.values(consoleProcesses(start.pid!)).flat();
        rows.push({ round, kind, backMs: Math.round(backMs), othersKept: others.every((pid) => after.includes(pid)), loadAverage: Number(load.toFixed(1)) });
        console.error(JSON.stringify(rows.at(-1)));
        await waitUntil(() => fetch(`${base}/readyz`).then((r) => r.ok, () => false), 120_000, 'ready again');
      }
    }
    // Everything through: the gateways drained, every queued mail sent, every report made.
    gateways.stopFeed();
    await gateways.drained();
    const readings = await gateways.finish();
    await waitUntil(async () => (await db.selectFrom('report_history').select('state').where('file_name', 'like', 'kill %').where('state', '!=', 'done').execute()).length === 0, 300_000, 'every report made');
    await waitUntil(async () => (await db.selectFrom('mail_outbox').select('mail_id').where('to_address', 'like', `%${DOMAIN}`).where('sent_at', 'is', null).execute()).length === 0, 300_000, 'every mail sent');
    const received = new Map<string, number>();
    for (const mail of smtp.received) for (const to of mail.to) received.set(to, (received.get(to) ?? 0) + 1);
    const mails = {
      queued: queued.length,
      received: queued.filter((to) => received.has(to)).length,
      lost: queued.filter((to) => !received.has(to)).length,
      // At-least-once is the outbox's promise (decision 184): a kill between the server's acceptance and the commit sends that one again.
      receivedTwice: queued.filter((to) => (received.get(to) ?? 0) > 1).length,
    };
    const reports = await db.selectFrom('report_history').select(['state', 'attempts']).where('file_name', 'like', 'kill %').execute();
    const work = {
      readings: { generated: readings.readingsGenerated, stored: readings.rowsStored, lost: readings.lost, doubled: readings.doubled, answeredMissing: readings.answeredMissing, failedUploads: readings.failedUploads },
      mails,
      reports: { queued: ROUNDS * 3 * REPORTS_PER_KILL, made: reports.filter((report) => report.state === 'done').length, retried: reports.filter((report) => report.attempts > 1).length },
    };
    const summary = Object.fromEntries(
      (['web', 'alerts', 'reports'] as const).map((kind) => {
        const times = rows.filter((row) => row.kind === kind).map((row) => row.backMs).sort((a, b) => a - b);
        return [kind, { minMs: times[0], medianMs: times[Math.floor(times.length / 2)], maxMs: times.at(-1) }];
      }),
    );
    console.log(JSON.stringify({ machine: machine(), rounds: ROUNDS, summary, allOthersKept: rows.every((row) => row.othersKept), ...work, rows }, null, 2));
  } finally {
    // npm start stops its children itself (SIGKILL for one still there after 10 s): wait for it.
    const exited = new Promise((resolve) => start.once('exit', resolve));
    start.kill('SIGTERM');
    await exited;
    await smtp.close();
  }
}

runBench('onreco_bench_supervised_kills', main);
