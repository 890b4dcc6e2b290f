// Alert latency across processes: the real console (HTTP ingest), the worker, a real SMTP server,
// on a fresh database.
//   (a) accepted reading -> mail: one reading over the upper limit for each of HIGH sensors
//       without guard time (null: the column allows 1-360 or none), one every 1.5 s; from the
//       POST's 200 to the mail at the SMTP server.
//       Target p95 <= 5 s.
//   (b) no communication: SILENT sensors whose last reading is just under the 60-minute threshold,
//       passing it at moments spread over two minutes; from the threshold to the OE00000005 row
//       (seen by polling) and to its mail. The worker checks every 15 s. Target <= 60 s.
//   npx tsx tests/bench/alert-latency.ts            (HIGH=40 SILENT=20 to change)
import os from 'node:os';
import { DEFAULT_NO_COMMUNICATION_MINUTES } from '../../app/domain/alert-engine';
import { bleAddress, createUser } from '../fixtures/chain';
import { BENCH_PIN, createBenchStore, startBenchConsole, type BenchConsole } from '../support/bench';
import { machine, percentile } from '../support/console';
import { pairOverApi, postReading } from '../support/gateway-api';
import { startWorker, stopProcess } from '../support/processes';
import { startSmtpServer } from '../support/smtp';

const HIGH = Number(process.env.HIGH ?? 40);
const SILENT = Number(process.env.SILENT ?? 20);
const READING_SPACING_MS = 1500;
const THRESHOLD_SPACING_MS = 6000;
const FIRST_THRESHOLD_MS = 20_000;
const THRESHOLD_MS = DEFAULT_NO_COMMUNICATION_MINUTES * 60_000;

const pad = (i: number) => String(i).padStart(2, '0');
const serials = (tag: string, n: number) => Array.from({ length: n }, (_, i) => bleAddress(tag, i));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
const seconds = (ms: number) => Math.round(ms / 100) / 10;

function summary(latenciesMs: number[], targetS: number, expected: number) {
  const sorted = [...latenciesMs].sort((a, b) => a - b);
  const p95 = seconds(percentile(sorted, 0.95));
  return { measured: sorted.length, of: expected, p50_s: seconds(percentile(sorted, 0.5)), p95_s: p95, max_s: seconds(sorted[sorted.length - 1]), target_s: targetS, met: sorted.length === expected && p95 <= targetS };
}

async function accepted(answer: Promise<{ accepted: number }>): Promise<void> {
  if ((await answer).accepted !== 1) throw new Error('a reading was not accepted');
}

async function main() {
  const started = Date.now();
  const smtp = await startSmtpServer();
  const mailFor = (name: string) => smtp.received.findIndex((mail) => mail.subject.includes(` ${name} `));
  const bench: BenchConsole = await startBenchConsole('onreco_bench_alert_latency', new Date(Date.now() - 2 * 86400_000));
  const { db, base } = bench;
  const worker = startWorker({ DATABASE_URL: bench.databaseUrl, SMTP_URL: smtp.url, ONRECO_PUBLIC_URL: base, ONRECO_NO_COMMUNICATION_MINUTES: String(DEFAULT_NO_COMMUNICATION_MINUTES) });
  try {
    const high = serials('A1', HIGH);
    const silent = serials('A2', SILENT);
    await createBenchStore(db, 'LATHI', high, (i) => ({ equipment_name: `HI-${pad(i)}`, guard_time: null, lower_limit: 0, upper_limit: 10 }));
    const silentIds = await createBenchStore(db, 'LATNC', silent, (i) => ({ equipment_name: `NC-${pad(i)}` }));
    await createUser(db, 'latency', 30, { storeIds: ['LATHI', 'LATNC'], mail: 'latency@example.com' });
    const [highToken, silentToken] = [await pairOverApi(base, 'LATHI', BENCH_PIN), await pairOverApi(base, 'LATNC', BENCH_PIN)];
    await sleep(5000); // the worker's start-up (tsx)

    // (b) Last readings 60 minutes before the moments the thresholds are to pass.
    const t0 = Math.ceil(Date.now() / 1000) * 1000;
    const thresholds = silent.map((_, i) => t0 + FIRST_THRESHOLD_MS + i * THRESHOLD_SPACING_MS);
    for (const [i, serial] of silent.entries()) await accepted(postReading(base, silentToken, serial, new Date(thresholds[i] - THRESHOLD_MS), 4));
    const rowSeenAt = new Map<number, number>();
    const watchRows = (async () => {
      const deadline = thresholds[thresholds.length - 1] + 120_000;
      while (rowSeenAt.size < SILENT && Date.now() < deadline) {
        const rows = await db.selectFrom('alert_history').select('equipment_id').where('store_id', '=', 'LATNC').where('alert_id', '=', 'OE00000005').execute();
        const now = Date.now();
        for (const { equipment_id } of rows) if (equipment_id !== null && !rowSeenAt.has(equipment_id)) rowSeenAt.set(equipment_id, now);
        await sleep(100);
      }
    })();

    // (a) Meanwhile, one reading over the limit per sensor, spaced out.
    const acknowledgedAt: number[] = [];
    const firstSlot = Date.now();
    for (const [i, serial] of high.entries()) {
      const slot = firstSlot + i * READING_SPACING_MS;
      await sleep(slot - Date.now());
      await accepted(postReading(base, highToken, serial, new Date(Math.floor(Date.now() / 1000) * 1000), 14.2));
      acknowledgedAt.push(Date.now());
    }
    await watchRows;
    const mailDeadline = Date.now() + 30_000;
    while (smtp.received.length < HIGH + SILENT && Date.now() < mailDeadline) await sleep(100);

    const arrival = (name: string) => {
      const index = mailFor(name);
      return index < 0 ? null : smtp.received[index].receivedAt;
    };
    const overLimit = acknowledgedAt.flatMap((ack, i) => {
      const at = arrival(`HI-${pad(i)}`);
      return at === null ? [] : [at - ack];
    });
    const toRow = silentIds.flatMap((id, i) => (rowSeenAt.has(id) ? [rowSeenAt.get(id)! - thresholds[i]] : []));
    const toMail = silent.flatMap((_, i) => {
      const at = arrival(`NC-${pad(i)}`);
      return at === null ? [] : [at - thresholds[i]];
    });
    console.log(
      JSON.stringify(
        {
          machine: machine(),
          load_average: os.loadavg().map((l) => Math.round(l * 10) / 10),
          reading_to_mail: { sensors: HIGH, one_reading_every_s: READING_SPACING_MS / 1000, ...summary(overLimit, 5, HIGH) },
          no_communication: {
            sensors: SILENT,
            threshold_minutes: DEFAULT_NO_COMMUNICATION_MINUTES,
            thresholds_pass_over_s: ((SILENT - 1) * THRESHOLD_SPACING_MS) / 1000,
            worker_check: 'every 15 s',
            to_alert_row: summary(toRow, 60, SILENT),
            to_mail: summary(toMail, 60, SILENT),
          },
          mails_received: smtp.received.length,
          run_seconds: seconds(Date.now() - started),
        },
        null,
        2,
      ),
    );
  } finally {
    await stopProcess(worker);
    await bench.stop();
    await smtp.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
