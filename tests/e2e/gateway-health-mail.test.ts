import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDb } from '../../app/db/db.server';
import type { Reading } from '../../gateway/aggregator';
import { ReadingBuffer } from '../../gateway/buffer';
import { Credentials } from '../../gateway/credentials';
import { collectHealth } from '../../gateway/health/collector';
import { NO_MODEM } from '../../gateway/health/modem';
import { HealthReporter } from '../../gateway/health/reporter';
import { createLogger } from '../../gateway/log';
import { DataDir } from '../../gateway/state';
import { formatMeasuredAt } from '../../gateway/time';
import { createStore, createUser, issuePin } from '../fixtures/chain';
import { pairOverApi } from '../support/gateway-api';
import { startWorker, stopProcess } from '../support/processes';
import { startSmtpServer } from '../support/smtp';

// Alarms before loss, across processes: a simulated gateway (the real buffer and health reporter,
// in this process) whose uploads do not keep up fills its buffer; past 80 % it tells the real
// console at once, which raises OE00000006, and the worker mails it to a real SMTP server, all
// before the buffer drops a single reading. Then it overflows: OE00000007 with how many were lost.
const db = createDb(inject('databaseUrl'), 2);
const base = inject('baseUrl');
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
beforeAll(async () => {
  smtp = await startSmtpServer();
});
afterAll(async () => {
  await smtp.close();
  await db.deleteFrom('stores').where('store_id', '=', 'GWHM1').execute();
  await db.destroy();
});

const MAX_ROWS = 200;

describe('gateway buffer alarm mail', () => {
  it('mails the buffer-past-80 % alert before any reading is dropped, then the loss with its count', async () => {
    await db.deleteFrom('stores').where('store_id', '=', 'GWHM1').execute();
    await createStore(db, 'GWHM1', { store_name: 'バッファ試験店' });
    // Its own user each attempt: a retry must not meet the first attempt's login.
    const login = `health-mail-${Date.now().toString(36)}`;
    await createUser(db, login, 30, { storeIds: ['GWHM1'], mail: `${login}@example.com` });
    const token = await pairOverApi(base, 'GWHM1', await issuePin(db, 'GWHM1', '818181'));
    const dir = mkdtempSync(path.join(tmpdir(), 'onreco-health-mail-'));
    const dataDir = new DataDir(dir);
    dataDir.writePairing({ server: base, gateway_info: 'GW-GWHM1', gateway_token: token, store_id: 'GWHM1', paired_at: new Date().toISOString() });
    const logger = createLogger('silent');
    const buffer = new ReadingBuffer({ file: path.join(dir, 'buffer.db'), maxRows: MAX_ROWS, warnRatio: 0.8, logger });
    await buffer.start();
    const credentials = new Credentials(dataDir, undefined, logger);
    const reporter = new HealthReporter({
      collect: () => collectHealth({ version: '0.2.0', startedAtMs: Date.now() - 60_000, buffer, dataDir: dir, source: () => null, sensorsLastSeen: () => [], heardWindowMs: 120_000, modem: NO_MODEM, now: () => Date.now() }),
      credentials,
      logger,
      requestTimeoutMs: 10_000,
      lastUploadAt: () => Date.now(), // uploads "happen" but cannot keep up: only urgent reports go alone
      checkMs: 3_600_000,
    });
    const worker = startWorker({ DATABASE_URL: inject('databaseUrl'), SMTP_URL: smtp.url, ONRECO_PUBLIC_URL: base }, 'alerts');
    const mine = () => smtp.received.filter((mail) => mail.to.includes(`${login}@example.com`));
    let minute = Date.parse('2026-11-24T00:00:00Z');
    const fill = (count: number) => {
      const readings: Reading[] = Array.from({ length: count }, () => {
        minute += 60_000;
        return { serialNo: 'AA:BB:CC:DD:EE:77', measuredAt: formatMeasuredAt(minute), temperature: 4, error: false, battery: 90, rssi: -60 };
      });
      buffer.insert(readings);
    };
    try {
      await reporter.tick(); // the first report (nothing to say yet)
      // 20 readings at a time, a report after each, as the daemon's check does.
      let alarmedAt: number | null = null;
      while (buffer.depth < MAX_ROWS - 20) {
        fill(20);
        await reporter.tick();
        if (alarmedAt === null && buffer.depth >= MAX_ROWS * 0.8) alarmedAt = buffer.depth;
      }
      expect(alarmedAt).toBe(160);
      // Counted from the worker's start (itself slow on a loaded machine), and long enough for the
      // mails that earlier files of this project left queued to go out first (send_after order).
      await worker.started;
      const deadline = Date.now() + 60_000;
      while (mine().length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
      expect(mine().length, 'the alert mail reached the SMTP server').toBeGreaterThan(0);
      // Nothing was lost before the mail arrived.
      expect(buffer.droppedTotal()).toBe(0);
      expect(buffer.depth).toBeLessThan(MAX_ROWS);
      expect(mine()[0].subject).toContain('ゲートウェイのバッファ残量低下');
      expect(mine()[0].text).toContain('バッファ試験店');
      // Now it overflows: 35 readings lost, reported at once, mailed with the count.
      fill(55);
      expect(buffer.droppedTotal()).toBe(35);
      await reporter.tick();
      const lossDeadline = Date.now() + 60_000;
      while (mine().length < 2 && Date.now() < lossDeadline) await new Promise((resolve) => setTimeout(resolve, 200));
      const loss = mine().find((mail) => mail.subject.includes('バッファあふれ'));
      expect(loss?.text).toContain('欠損件数: 35件');
      const rows = await db.selectFrom('alert_history').select(['alert_id', 'alert_data1']).where('store_id', '=', 'GWHM1').orderBy('alert_history_id').execute();
      expect(rows).toEqual([{ alert_id: 'OE00000006', alert_data1: null }, { alert_id: 'OE00000007', alert_data1: '35' }]);
    } finally {
      await reporter.stop();
      await buffer.stop();
      await stopProcess(worker);
    }
  }, 180_000);
});
