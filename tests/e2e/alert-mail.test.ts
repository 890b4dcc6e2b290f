import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { createDb } from '../../app/db/db.server';
import { createSensor, createStore, createUser, issuePin } from '../fixtures/chain';
import { minuteAgo, pairOverApi, postReading as postGatewayReading } from '../support/gateway-api';
import { startWorker, stopProcess, waitUntil } from '../support/processes';
import { seededRandom, testSeed } from '../support/seed';
import { startSmtpServer } from '../support/smtp';
import { boundNote, loadScaledBound } from '../support/load-bound';

// The whole alert path across processes: the real console (HTTP), the worker, a real SMTP server.
const db = createDb(inject('databaseUrl'), 2);
const base = inject('baseUrl');
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
beforeAll(async () => {
  smtp = await startSmtpServer();
});
afterAll(async () => {
  await smtp.close();
  await db.destroy();
});

async function pairedSensor(storeId: string, serialNo: string) {
  await createStore(db, storeId);
  const equipmentId = await createSensor(db, storeId, serialNo, { guard_time: null, lower_limit: 0, upper_limit: 10 });
  const token = await pairOverApi(base, storeId, await issuePin(db, storeId, '424242'));
  return { equipmentId, token };
}

// A retry makes a store, a sensor and users of its own: the first attempt's are still there.
let attempts = 0;

describe('alert mail', () => {
  it('mails an alert and its recovery within seconds of the accepted reading, in the user\'s language', async () => {
    attempts += 1;
    const tag = attempts === 1 ? '' : String(attempts);
    const storeId = `MAIL1${tag}`;
    const serialNo = `AA:BB:CC:DD:E${attempts}:51`;
    const { token } = await pairedSensor(storeId, serialNo);
    await createUser(db, `mail-jp${tag}`, 30, { storeIds: [storeId], mail: `mail-jp${tag}@example.com` });
    const usUser = await createUser(db, `mail-us${tag}`, 30, { storeIds: [storeId], mail: `mail-us${tag}@example.com`, language: 'US' });
    await db.updateTable('users').set({ alert_filter: 0, mailaddress2: `mail-us${tag}-2@example.com` }).where('user_id', '=', usUser).execute();
    // Both readings' minutes fixed up front: a minute boundary crossed while the mails are awaited
    // would otherwise put them two minutes apart.
    const openedAt = minuteAgo(3);
    const recoveredAt = new Date(openedAt.getTime() + 60_000);
    const postReading = async (at: Date, temperature: number) => expect((await postGatewayReading(base, token, serialNo, at, temperature)).accepted).toBe(1);
    const ours = new RegExp(`^mail-(jp|us)${tag}(-2)?@`);
    const worker = startWorker({ DATABASE_URL: inject('databaseUrl'), SMTP_URL: smtp.url, ONRECO_PUBLIC_URL: base }, 'alerts');
    try {
      await worker.started;
      const sent = Date.now();
      await postReading(openedAt, 14.2);
      const mine = () => smtp.received.filter((mail) => mail.to.some((to) => ours.test(to)));
      await waitUntil(async () => mine().length >= 3, 20_000, 'the alert mails');
      const mailedMs = Date.now() - sent;
      // Within seconds even beside the rest of the suite on 2 cores; the figure itself (p95 <= 5 s)
      // is measured on a quiet machine by tests/bench/alert-latency.ts.
      const bound = loadScaledBound(10_000);
      expect(mailedMs, `the alert mails came ${mailedMs} ms after the reading ${boundNote(bound)}`).toBeLessThan(bound);
      const jp = mine().find((mail) => mail.to.includes(`mail-jp${tag}@example.com`))!;
      expect(jp.subject).toContain('温度異常（上限超過）');
      expect(jp.text).toContain('14.2℃');
      expect(jp.text).toContain('0.0℃ 〜 10.0℃');
      expect(jp.text).toContain(`${base}/stores/${storeId}/temp_graphs?equipment_id=`);
      const us = mine().filter((mail) => mail.to[0].startsWith(`mail-us${tag}`));
      expect(us.map((mail) => mail.to[0]).sort()).toEqual([`mail-us${tag}-2@example.com`, `mail-us${tag}@example.com`]);
      expect(us[0].subject).toContain('Temperature abnormal');
      // Nobody wrote it, so auto-responders must not answer it (RFC 3834).
      expect(jp.raw).toMatch(/^Auto-Submitted: auto-generated\r?$/m);
      // Recovery: only the user with alert_filter 0 (occurrence and recovery) hears of it.
      await postReading(recoveredAt, 4.0);
      await waitUntil(async () => mine().length >= 5, 10_000, 'the recovery mails');
      const recovery = mine().slice(3);
      expect(recovery.every((mail) => mail.to[0].startsWith(`mail-us${tag}`))).toBe(true);
      expect(recovery[0].subject).toContain('Recovered');
      // A recovery says when the alert opened and how long it lasted (the readings were a minute apart).
      expect(recovery[0].text).toMatch(/^Opened: +\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}/m);
      expect(recovery[0].text).toMatch(/^Lasted: +1 min\r?$/m);
    } finally {
      await stopProcess(worker);
    }
  }, 120_000);

  it('never loses a queued mail when the worker is killed with SIGKILL again and again', async () => {
    // A retry starts clean: its own store again, and no mail of the first attempt left queued.
    await db.deleteFrom('mail_outbox').where('store_id', '=', 'MAIL2').execute();
    await db.deleteFrom('stores').where('store_id', '=', 'MAIL2').execute();
    smtp.received.splice(0, smtp.received.length, ...smtp.received.filter((mail) => !mail.to[0].startsWith('crash-')));
    await createStore(db, 'MAIL2');
    const rows = Array.from({ length: 40 }, (_, i) => ({ to_address: `crash-${i}@example.com`, subject: `crash ${i}`, body: `body ${i}`, store_id: 'MAIL2' }));
    await db.insertInto('mail_outbox').values(rows).execute();
    const pending = async () => Number((await db.selectFrom('mail_outbox').select(db.fn.countAll().as('n')).where('store_id', '=', 'MAIL2').where('sent_at', 'is', null).executeTakeFirstOrThrow()).n);
    let kills = 0;
    const random = seededRandom(testSeed('mail worker kill -9', 1500));
    while ((await pending()) > 0) {
      const before = await pending();
      const worker = startWorker({ DATABASE_URL: inject('databaseUrl'), SMTP_URL: smtp.url, ONRECO_PUBLIC_URL: 'https://chain-a.on-reco.example/' }, 'alerts');
      // Killed at a random moment once it is sending (its start-up takes seconds when the machine is busy).
      await waitUntil(async () => (await pending()) < before, 30_000, 'the worker to send');
      await new Promise((resolve) => setTimeout(resolve, random() * 500));
      await stopProcess(worker, 'SIGKILL');
      kills += 1;
      if (kills > 30) throw new Error('the outbox did not drain');
    }
    const received = smtp.received.filter((mail) => mail.to[0].startsWith('crash-'));
    const distinct = new Set(received.map((mail) => mail.to[0]));
    expect(distinct.size).toBe(40);
    // A mail resent after a kill between the SMTP server's answer and the commit carries the same Message-ID.
    const ids = new Map<string, string>();
    for (const mail of received) {
      const id = /^Message-ID:\s*(.*)$/im.exec(mail.raw)?.[1];
      // Unique per installation: the right-hand side is the installation's public host.
      expect(id).toMatch(/^<outbox-\d+@chain-a\.on-reco\.example>$/);
      if (ids.has(mail.to[0])) expect(ids.get(mail.to[0])).toBe(id);
      ids.set(mail.to[0], id!);
    }
    expect(kills).toBeGreaterThan(1);
    // Each worker start takes seconds on a loaded machine, and up to 30 of them may be needed.
  }, 480_000);
});
