import type { Logger } from 'pino';
import type { Db } from '~/db/db.server';
import { getEnv } from '~/env.server';
import { formatDate } from '~/domain/japan-time';
import type { ReportType } from '~/domain/report-document';
import { closedPeriods, QUEUED_REPORTS_MAX, REGULAR_REPORTS_MAX, REPORT_MESSAGES, REPORT_TYPE, removedStoreMayReport, type ReportSave, SEQUENTIAL_SETTING_NAME } from '~/domain/report-form';
import { isAdministrator } from '~/domain/roles';
import { absoluteUrl, reportUrl } from '~/domain/urls';
import { isRemovedStore } from '~/domain/working-state';
import { audit } from '~/models/audit.server';
import { enqueueMails, type QueuedMail } from '~/models/outbox.server';
import { claimNextReportJob, type ClaimedJob, completeReportJob, countQueuedReports, failReportJob, insertRegularReportJobs, insertReportJob, type NewReportJob, type ReportRequest } from '~/models/report-history.server';
import { deleteRegularReport as deleteRegularRow, getRegularReport, insertRegularReport, listDueRegularSettings, lockRegularReports, type RegularReportRow, updateRegularReport } from '~/models/regular-reports.server';
import { getReportStore, sensorIdsOfStore } from '~/models/report-collection.server';
import { canViewStore } from '~/models/stores.server';
import { knownMailAddresses, type Viewer } from '~/models/users.server';
import { collectReport } from '~/reports/collect.server';
import { RENDERED_FORMATS, renderReport } from '~/reports/render.server';
import { logger } from './logger.server';

// Reports: saving a report (a sequential report's job, or a regular setting), deleting a setting,
// making the reports (the worker's durable jobs) and the regular schedule. No HTTP.

export type ReportFailure =
  | { ok: false; reason: 'not_found'; description: string }
  | { ok: false; reason: 'invalid_state'; description: string }
  | { ok: false; reason: 'invalid'; fields: Record<string, string> };

/** A report that failed this many times (not a crash: an error) is shown as failed. */
export const REPORT_MAX_ATTEMPTS = 3;
/** How far back the schedule catches up when the worker was down (docs/decisions/143-regular-reports.md). */
export const CATCH_UP_DAYS = 35;
/**
 * How long a worker's claim on a report may sit idle before PostgreSQL ends it and the report
 * goes to another worker: far above the longest render (a month PDF of 20 sensors takes under
 * a second of CPU; three months of a large store some seconds), far below a night.
 */
export const REPORT_CLAIM_IDLE_MS = 10 * 60_000;

const requestOf = (input: Pick<ReportSave, 'setting_name' | 'data_interval' | 'manual_data_interval' | 'option1' | 'option2' | 'equipment_ids' | 'mail_flg' | 'mail_addresses' | 'attachment_flg' | 'appendix'>, createdByName: string | null): ReportRequest => ({
  settingName: input.setting_name,
  dataInterval: input.data_interval,
  manualTimes: input.manual_data_interval,
  option1: input.option1,
  option2: input.option2,
  equipmentIds: input.equipment_ids,
  mailFlg: input.mail_flg,
  mailAddresses: input.mail_addresses,
  attachmentFlg: input.attachment_flg,
  appendix: input.appendix === 1,
  createdByName,
});

const settingSnapshot = (input: ReportSave | RegularReportRow) =>
  'settingNo' in input
    ? { setting_name: input.settingName, file_name: input.fileName, report_type: input.reportType, output_format: input.outputFormat, data_interval: input.dataInterval, manual_data_interval: input.manualTimes, option1: input.option1, option2: input.option2, equipment_ids: input.equipmentIds, mail_flg: input.mailFlg, mail_addresses: input.mailAddresses, attachment_flg: input.attachmentFlg, appendix: input.appendix }
    : { setting_name: input.setting_name, file_name: input.file_name, report_type: input.report_type, output_format: input.output_format, data_interval: input.data_interval, manual_data_interval: input.manual_data_interval, option1: input.option1, option2: input.option2, equipment_ids: input.equipment_ids, mail_flg: input.mail_flg, mail_addresses: input.mail_addresses, attachment_flg: input.attachment_flg, appendix: input.appendix };

export type SaveReportResult = { ok: true; settingNo: number | null; historyNo: number | null; created: boolean } | ReportFailure;

/**
 * Saves the report form (001 §3): a sequential report becomes a history row (作成中) that the worker
 * makes; a regular one creates (at most 10 per store) or updates a setting, audited. A store one
 * may not see is not_found; a removed store takes one-off reports of ended periods only (read-only), no setting change.
 */
export async function saveReport(db: Db, viewer: Viewer, input: ReportSave, now: Date): Promise<SaveReportResult> {
  if (!(await canViewStore(db, viewer, input.store_id))) return { ok: false, reason: 'not_found', description: `Store ${input.store_id} was not found.` };
  return db.transaction().execute(async (trx): Promise<SaveReportResult> => {
    const count = await lockRegularReports(trx, input.store_id);
    const store = await getReportStore(trx, input.store_id);
    if (!store) return { ok: false, reason: 'not_found', description: `Store ${input.store_id} was not found.` };
    if (isRemovedStore(store.workingState) && !removedStoreMayReport({ regular: input.regular_report === 1, period: { from: input.start_time, to: input.end_time } }, now))
      return { ok: false, reason: 'invalid_state', description: 'The store is removed: only one-off reports of periods that have ended can be made; its regular reports can no longer be created or edited.' };
    const known = await sensorIdsOfStore(trx, input.store_id, input.equipment_ids);
    // A sensor of another store "does not exist" here (DESIGN.md: what one may not see is 404).
    if (known.length !== input.equipment_ids.length) return { ok: false, reason: 'not_found', description: 'A sensor of equipment_ids is not a sensor of the store.' };
    const before = input.regular_report === 1 && input.setting_no !== null ? await getRegularReport(trx, viewer, input.store_id, input.setting_no) : null;
    if (!(await recipientsAllowed(trx, viewer, input.mail_addresses, before?.mailAddresses ?? []))) return { ok: false, reason: 'invalid', fields: { mail_addresses: REPORT_MESSAGES.mailUnknown } };

    if (input.regular_report === 0) {
      // The store row is locked above, so two saves of one store count one after the other.
      const queued = await countQueuedReports(trx, input.store_id, viewer.userId);
      if (queued.user >= QUEUED_REPORTS_MAX.perUser) return { ok: false, reason: 'invalid', fields: { regular_report: REPORT_MESSAGES.queuedPerUser } };
      if (queued.store >= QUEUED_REPORTS_MAX.perStore) return { ok: false, reason: 'invalid', fields: { regular_report: REPORT_MESSAGES.queuedPerStore } };
      const historyNo = await insertReportJob(trx, {
        storeId: input.store_id,
        settingNo: null,
        fileName: input.file_name,
        reportType: input.report_type,
        outputFormat: input.output_format,
        startTime: input.start_time,
        endTime: input.end_time,
        createdBy: viewer.userId,
        request: requestOf({ ...input, setting_name: SEQUENTIAL_SETTING_NAME }, viewer.userName),
        createdAt: now,
      });
      await audit(trx, { userId: viewer.userId, action: 'report.create', targetType: 'report', targetId: historyNo, storeId: input.store_id, details: { after: settingSnapshot(input) }, at: now });
      return { ok: true, settingNo: null, historyNo, created: true };
    }

    if (input.setting_no === null) {
      if (count >= REGULAR_REPORTS_MAX) return { ok: false, reason: 'invalid', fields: { setting_no: REPORT_MESSAGES.regularLimit } };
      const settingNo = await insertRegularReport(trx, input, viewer.userId, now);
      await audit(trx, { userId: viewer.userId, action: 'regular_report.create', targetType: 'regular_report', targetId: settingNo, storeId: input.store_id, details: { before: null, after: settingSnapshot(input) }, at: now });
      return { ok: true, settingNo, historyNo: null, created: true };
    }
    if (!before) return { ok: false, reason: 'not_found', description: `Regular report ${input.setting_no} of store ${input.store_id} was not found.` };
    await updateRegularReport(trx, { ...input, setting_no: input.setting_no }, now);
    await audit(trx, { userId: viewer.userId, action: 'regular_report.update', targetType: 'regular_report', targetId: input.setting_no, storeId: input.store_id, details: { before: settingSnapshot(before), after: settingSnapshot(input) }, at: now });
    return { ok: true, settingNo: input.setting_no, historyNo: null, created: false };
  });
}

/**
 * Report mail goes only to the chain's own users (any of their addresses), so a store account
 * cannot turn the worker into a mailer for outside addresses (decision 243). An administrator
 * may add others; addresses an administrator already put on a setting stay when others edit it.
 */
async function recipientsAllowed(trx: Db, viewer: Viewer, addresses: readonly string[], kept: readonly string[]): Promise<boolean> {
  if (isAdministrator(viewer.authority) || addresses.length === 0) return true;
  const allowed = new Set([...(await knownMailAddresses(trx, addresses)), ...kept.map((address) => address.toLowerCase())]);
  return addresses.every((address) => allowed.has(address.toLowerCase()));
}

/** Deletes a regular setting (audited); the reports it produced stay in the history. */
export async function deleteRegularReport(db: Db, viewer: Viewer, storeId: string, settingNo: number, now: Date): Promise<{ ok: true } | ReportFailure> {
  return db.transaction().execute(async (trx): Promise<{ ok: true } | ReportFailure> => {
    const before = await getRegularReport(trx, viewer, storeId, settingNo);
    if (!before) return { ok: false, reason: 'not_found', description: `Regular report ${settingNo} of store ${storeId} was not found.` };
    const store = await getReportStore(trx, storeId);
    if (isRemovedStore(store?.workingState ?? null)) return { ok: false, reason: 'invalid_state', description: 'The store is removed: its regular reports can no longer be deleted.' };
    await deleteRegularRow(trx, storeId, settingNo);
    await audit(trx, { userId: viewer.userId, action: 'regular_report.delete', targetType: 'regular_report', targetId: settingNo, storeId, details: { before: settingSnapshot(before), after: null }, at: now });
    return { ok: true };
  });
}

// ---- the worker's side ------------------------------------------------------------------------

function reportMails(job: ClaimedJob, storeName: string): QueuedMail[] {
  const { request } = job;
  if (request.mailFlg !== 1 || request.mailAddresses.length === 0) return [];
  const attach = job.reportType === REPORT_TYPE.month && request.attachmentFlg === 1;
  const period = `${formatDate(job.startTime)} 〜 ${formatDate(job.endTime)}`;
  const link = absoluteUrl(getEnv().ONRECO_PUBLIC_URL, reportUrl.file(job.storeId, job.historyNo));
  const body = [
    `${storeName} のレポート「${request.settingName}」を作成しました。`,
    '',
    `店舗:     ${storeName}`,
    `期間:     ${period}`,
    `ファイル: ${job.fileName}`,
    attach ? 'レポートを添付しています。' : `ダウンロード: ${link}`,
    '',
    'このメールは On-Reco から自動送信されています。',
  ].join('\n');
  return request.mailAddresses.map((address) => ({
    toAddress: address,
    subject: `[On-Reco] レポート作成: ${storeName} ${request.settingName}`,
    body,
    storeId: job.storeId,
    alertHistoryId: null,
    attachment: attach ? { storeId: job.storeId, historyNo: job.historyNo } : null,
  }));
}

/**
 * Makes the oldest pending report, in one transaction: the row is claimed FOR UPDATE SKIP LOCKED,
 * collected, rendered, stored and its mails queued before the commit, so a worker killed midway
 * leaves the row pending (made again by the next run) and a report is never made twice. An error
 * is recorded outside the rolled-back work; after REPORT_MAX_ATTEMPTS the row shows as failed.
 * Returns whether a job was found.
 */
export async function makeNextReport(db: Db, log: Logger = logger.child({ module: 'reports' }), claimIdleMs = REPORT_CLAIM_IDLE_MS): Promise<boolean> {
  let claimed: ClaimedJob | null = null;
  let failed: { job: ClaimedJob; error: string } | null = null;
  let found: boolean;
  try {
    found = await db.transaction().execute(async (trx) => {
      const job = await claimNextReportJob(trx, RENDERED_FORMATS, claimIdleMs);
      if (!job) return false;
      claimed = job;
      try {
        const doc = await collectReport(trx, job);
        const file = await renderReport(doc);
        await completeReportJob(trx, job, { ...file, at: new Date() });
        await enqueueMails(trx, reportMails(job, doc.store.storeName));
        log.info({ storeId: job.storeId, historyNo: job.historyNo, bytes: file.content.length }, 'report made');
      } catch (error) {
        failed = { job, error: messageOf(error) };
      }
      return true;
    });
  } catch (error) {
    if (!claimed) throw error;
    // The claim's transaction ended under the work (its idle limit, a database restart): an
    // attempt all the same, so a report that always outlasts the limit ends as failed.
    failed = { job: claimed, error: messageOf(error) };
    found = true;
  }
  if (failed) {
    const { job, error } = failed as { job: ClaimedJob; error: string };
    log.error({ storeId: job.storeId, historyNo: job.historyNo, err: error }, 'report failed');
    await failReportJob(db, job, error, REPORT_MAX_ATTEMPTS);
  }
  return found;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Makes pending reports until none is left or `max` were made. */
export async function makePendingReports(db: Db, log?: Logger, max = 100): Promise<number> {
  let made = 0;
  while (made < max && (await makeNextReport(db, log))) made += 1;
  return made;
}

/**
 * The regular schedule: for each setting of a store that is not removed, a job for every period
 * (day, week, month, Japan time) that closed since the setting was created (at most CATCH_UP_DAYS
 * back) and has none yet; the unique key makes a period's report once whatever runs it.
 */
export async function scheduleRegularReports(db: Db, now: Date): Promise<number> {
  const settings = await listDueRegularSettings(db);
  const horizon = new Date(now.getTime() - CATCH_UP_DAYS * 86_400_000);
  const jobs: NewReportJob[] = [];
  for (const setting of settings) {
    if (setting.reportType === REPORT_TYPE.free) continue;
    const since = setting.createdAt > horizon ? setting.createdAt : horizon;
    for (const period of closedPeriods(setting.reportType as Exclude<ReportType, 4>, since, now)) {
      jobs.push({
        storeId: setting.storeId,
        settingNo: setting.settingNo,
        fileName: setting.fileName,
        reportType: setting.reportType,
        outputFormat: setting.outputFormat,
        startTime: period.from,
        endTime: period.to,
        createdBy: setting.createdBy,
        createdAt: now,
        request: requestOf(
          {
            setting_name: setting.settingName,
            data_interval: setting.dataInterval,
            manual_data_interval: setting.manualTimes,
            option1: setting.option1,
            option2: setting.option2,
            equipment_ids: setting.equipmentIds,
            mail_flg: setting.mailFlg,
            mail_addresses: setting.mailAddresses,
            attachment_flg: setting.attachmentFlg,
            appendix: setting.appendix,
          },
          setting.createdByName,
        ),
      });
    }
  }
  let created = 0;
  for (let i = 0; i < jobs.length; i += 500) created += await insertRegularReportJobs(db, jobs.slice(i, i + 500));
  return created;
}
