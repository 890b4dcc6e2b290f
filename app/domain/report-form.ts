import { z } from 'zod';
import { bodyNumber, dbText, INT4_MAX, nameText } from './input-schemas';
import { fromJapan, japanParts, parseCompact, parseHourMinute, toCompactDateTime } from './japan-time';
import type { ReportFormat, ReportInterval, ReportType } from './report-document';

// Reports (001 §2 Reports page / Report create / Regular report edit, §3, §4, §5, §9): the codes,
// the periods, and the one schema of the report payload that POST /v1/store_report and the
// create and edit forms share. Pure: the clock is passed in.

export const REPORT_TYPE = { month: 1, week: 2, day: 3, free: 4 } as const;
export const REPORT_TYPE_LABELS: Record<ReportType, string> = { 1: '月', 2: '週', 3: '日', 4: '任意期間' };
/** The kind as a report document names it (its title, its first page). */
export const REPORT_TYPE_DOCUMENT_LABELS: Record<ReportType, string> = { 1: '月次', 2: '週次', 3: '日次', 4: '期間指定' };
export const OUTPUT_FORMAT = { pdf: 1, csv: 2 } as const;
export const OUTPUT_FORMAT_LABELS: Record<ReportFormat, string> = { 1: 'PDF', 2: 'CSV' };
/** The PDF's raw values after the summary and the charts (the setting `appendix`). */
export const REPORT_APPENDIX_LABEL = '付録（測定値一覧）';

export const REGULAR_REPORTS_MAX = 10;
/** One-off reports waiting to be made, at most, per user and per store (decision 244). */
export const QUEUED_REPORTS_MAX = { perUser: 5, perStore: 20 } as const;
export const INTERVAL_MIN = 10;
export const INTERVAL_MAX = 720;
export const INTERVAL_STEP = 10;
export const SPECIFIED_TIMES_MAX = 48;
export const FREE_PERIOD_MONTHS = 3;
export const HISTORY_PAGE_SIZE = 10;
export const SETTING_NAME_MAX = 50;
export const FILE_NAME_MAX = 100;
export const MAIL_ADDRESS_MAX = 255;
export const MAIL_ADDRESSES_MAX = 20;
/** The fixed label a sequential report's setting_name carries (001 §3). */
export const SEQUENTIAL_SETTING_NAME = '随時レポート';

/** The report rows' last time of a day: 00:00 to 23:50 (001 §4, §9). */
export const DAY_END_MINUTE = 23 * 60 + 50;

export const REPORT_MESSAGES = {
  required: '入力してください',
  choose: '選択してください',
  digits: '半角数値を入力してください',
  intervalRange: `${INTERVAL_MIN}〜${INTERVAL_MAX}の範囲で入力してください`,
  intervalStep: '10単位で指定してください',
  period: '期間の指定が違います',
  freePeriod: '期間は3ヶ月以内で指定してください',
  sensors: 'センサーを選択してください',
  mailRequired: 'メールアドレスを入力してください',
  mailFormat: 'メールアドレスの形式が違います',
  queuedPerUser: `作成中のレポートが${QUEUED_REPORTS_MAX.perUser}件あります。作成が終わってから依頼してください`,
  queuedPerStore: `この店舗の作成中のレポートが${QUEUED_REPORTS_MAX.perStore}件あります。作成が終わってから依頼してください`,
  mailUnknown: '登録ユーザーのメールアドレスのみ指定できます（それ以外の宛先は管理者が設定します）',
  timeFormat: '時刻の形式が違います',
  timesRequired: '時刻を指定してください',
  timesMax: `指定時刻は${SPECIFIED_TIMES_MAX}件までです`,
  freeRegular: '定期レポートでは任意期間を選択できません',
  fileName: 'ファイル名に使用できない文字が含まれています',
  regularLimit: `定期レポートは${REGULAR_REPORTS_MAX}件までです。不要な項目を削除してください`,
  banner: '入力に誤りがあります',
  createdSequential: 'レポートを作成しました。作成とメール配信には数分かかる場合があります。',
  createdRegular: 'レポートを作成しました。定期レポート一覧から編集できます。',
  deleteConfirm: '本当に削除してもよろしいですか？',
  deleteFailed: '削除に失敗しました。',
  regularNote: `定期レポートは最大${REGULAR_REPORTS_MAX}件まで設定できます`,
  generating: '作成中',
  failed: '作成失敗',
  noData: 'この期間のデータはありません',
} as const;

export const maxLength = (max: number) => `${max}文字以内で入力してください`;

/** A loose address form (001 §5: "each in valid format"): something@something.tld, no spaces. */
/** A file name without the characters Windows and paths refuse (control characters are checked apart). */
const FILE_NAME_OK = /^[^\\/:*?"<>|]+$/;

export const MAIL_ADDRESS = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

// ---- periods ------------------------------------------------------------------------------

export interface JapanDay {
  year: number;
  month: number;
  day: number;
}

export interface ReportPeriod {
  /** 00:00 of the first day. */
  from: Date;
  /** 23:50 of the last day (the last row, 001 §4). */
  to: Date;
}

const dayOf = (at: Date): JapanDay => {
  const p = japanParts(at);
  return { year: p.year, month: p.month, day: p.day };
};

const periodOfDays = (first: JapanDay, last: JapanDay): ReportPeriod => ({
  from: fromJapan(first.year, first.month, first.day),
  to: fromJapan(last.year, last.month, last.day, 23, 50),
});

/**
 * The period of a month, week or day report whose start date is `start` (dates re-derive from the
 * start, 001 §4): the month of the start (1st to last day), the Sunday-to-Saturday week containing
 * it, or that day.
 */
export function periodOf(type: Exclude<ReportType, 4>, start: Date): ReportPeriod {
  const d = dayOf(start);
  if (type === REPORT_TYPE.month) return periodOfDays({ ...d, day: 1 }, dayOf(fromJapan(d.year, d.month + 1, 0)));
  if (type === REPORT_TYPE.week) {
    const weekday = japanParts(start).weekday;
    const sunday = dayOf(fromJapan(d.year, d.month, d.day - weekday));
    return periodOfDays(sunday, dayOf(fromJapan(sunday.year, sunday.month, sunday.day + 6)));
  }
  return periodOfDays(d, d);
}

/** The end of a period as an exclusive instant: midnight after its last day. */
export const periodEnd = (period: ReportPeriod): Date => new Date(period.to.getTime() + 10 * 60_000);

/** A removed (撤去) store stays reportable read-only: a one-off report of a period that has ended; no regular setting is made or changed, and its regular reports stop. */
export const removedStoreMayReport = (input: { regular: boolean; period: ReportPeriod }, now: Date): boolean => !input.regular && periodEnd(input.period) <= now;

/** The free period's last allowed day: the day before the same date three months later. */
export function freePeriodLastDay(start: Date): Date {
  const d = dayOf(start);
  return fromJapan(d.year, d.month + FREE_PERIOD_MONTHS, d.day - 1);
}

/**
 * The periods of a regular report (month, week or day) that closed after `since` and at or before
 * `now`, oldest first: what the schedule produces, and catches up after the worker was down.
 */
export function closedPeriods(type: Exclude<ReportType, 4>, since: Date, now: Date): ReportPeriod[] {
  const periods: ReportPeriod[] = [];
  let period = periodOf(type, now);
  // Walk back from the period containing now: its predecessors are closed.
  for (;;) {
    period = periodOf(type, new Date(period.from.getTime() - 60_000));
    if (periodEnd(period) <= since) break;
    periods.push(period);
    if (periods.length > 400) break;
  }
  return periods.reverse();
}

// ---- the data interval ----------------------------------------------------------------------

export type IntervalMode = 'every10' | 'interval' | 'times';

/** The edit page's mode from a setting (001 §4): given times when present, else every 10 minutes when 10, else a given interval. */
export function intervalModeOf(dataInterval: number | null, manualTimes: readonly string[]): IntervalMode {
  if (manualTimes.length > 0) return 'times';
  return dataInterval === null || dataInterval === 10 ? 'every10' : 'interval';
}

export function reportIntervalOf(dataInterval: number | null, manualTimes: readonly string[]): ReportInterval {
  if (manualTimes.length > 0) return { kind: 'times', times: [...manualTimes] };
  return { kind: 'every', minutes: dataInterval ?? 10 };
}

/** Given times in order with duplicates dropped (001 §5: duplicates ignored). */
export function uniqueTimes(times: readonly string[]): string[] {
  return [...new Set(times.map((time) => time.trim()).filter((time) => time !== ''))].sort();
}

// ---- the payload --------------------------------------------------------------------------

const flag = bodyNumber(z.coerce.number({ invalid_type_error: REPORT_MESSAGES.choose }).int().min(0, REPORT_MESSAGES.choose).max(1, REPORT_MESSAGES.choose));
const compactStamp = z
  .string({ required_error: REPORT_MESSAGES.required, invalid_type_error: REPORT_MESSAGES.period })
  .regex(/^\d{14}$/, REPORT_MESSAGES.period)
  .transform((value, ctx) => {
    const at = parseCompact(value);
    if (!at) {
      ctx.addIssue({ code: 'custom', message: REPORT_MESSAGES.period });
      return z.NEVER;
    }
    return at;
  });
const blankToNull = (value: unknown) => (value === '' || value === undefined ? null : value);

/** The report create payload of 001 §3, as POST /v1/store_report takes it (the forms map theirs to it). */
export const ReportSaveSchema = z
  .object({
    store_id: dbText().trim().min(1).max(20),
    setting_no: z.preprocess(blankToNull, bodyNumber(z.coerce.number().int().positive().max(INT4_MAX)).nullable()).default(null),
    setting_name: nameText().trim().max(SETTING_NAME_MAX, maxLength(SETTING_NAME_MAX)).default(''),
    file_name: nameText({ required_error: REPORT_MESSAGES.required })
      .trim()
      .min(1, REPORT_MESSAGES.required)
      .max(FILE_NAME_MAX, maxLength(FILE_NAME_MAX))
      .refine((name) => FILE_NAME_OK.test(name) && ![...name].some((char) => char.charCodeAt(0) < 0x20), REPORT_MESSAGES.fileName),
    report_type: bodyNumber(z.coerce.number({ invalid_type_error: REPORT_MESSAGES.choose }).int(REPORT_MESSAGES.choose).min(1, REPORT_MESSAGES.choose).max(4, REPORT_MESSAGES.choose)),
    regular_report: flag,
    data_interval: z.preprocess(
      blankToNull,
      z
        .union([z.number(), z.string()], { invalid_type_error: REPORT_MESSAGES.digits })
        .transform((value, ctx) => {
          const text = String(value).trim();
          if (!/^\d+$/.test(text)) {
            ctx.addIssue({ code: 'custom', message: REPORT_MESSAGES.digits });
            return z.NEVER;
          }
          return Number(text);
        })
        .pipe(z.number().min(INTERVAL_MIN, REPORT_MESSAGES.intervalRange).max(INTERVAL_MAX, REPORT_MESSAGES.intervalRange).multipleOf(INTERVAL_STEP, REPORT_MESSAGES.intervalStep))
        .nullable(),
    ),
    manual_data_interval: z
      .array(dbText({ invalid_type_error: REPORT_MESSAGES.timeFormat }).max(5, REPORT_MESSAGES.timeFormat), { invalid_type_error: REPORT_MESSAGES.timeFormat })
      .max(1000)
      .default([])
      .transform((times, ctx) => {
        const unique = uniqueTimes(times);
        if (unique.some((time) => parseHourMinute(time) === null || time === '24:00')) ctx.addIssue({ code: 'custom', message: REPORT_MESSAGES.timeFormat });
        else if (unique.length > SPECIFIED_TIMES_MAX) ctx.addIssue({ code: 'custom', message: REPORT_MESSAGES.timesMax });
        return unique;
      }),
    start_time: compactStamp,
    end_time: compactStamp,
    output_format: bodyNumber(z.coerce.number({ invalid_type_error: REPORT_MESSAGES.choose }).int(REPORT_MESSAGES.choose).min(1, REPORT_MESSAGES.choose).max(2, REPORT_MESSAGES.choose)),
    mail_flg: flag,
    option1: flag.default(0),
    option2: flag.default(0),
    option3: flag.default(0),
    option4: flag.default(0),
    option5: flag.default(0),
    equipment_ids: z
      .array(bodyNumber(z.coerce.number().int().positive().max(INT4_MAX)), { required_error: REPORT_MESSAGES.sensors, invalid_type_error: REPORT_MESSAGES.sensors })
      .max(1000)
      .transform((ids) => [...new Set(ids)]),
    mail_addresses: z
      .array(dbText({ invalid_type_error: REPORT_MESSAGES.mailFormat }).trim().max(MAIL_ADDRESS_MAX, REPORT_MESSAGES.mailFormat), { invalid_type_error: REPORT_MESSAGES.mailFormat })
      .max(MAIL_ADDRESSES_MAX)
      .default([])
      .transform((addresses) => addresses.filter((address) => address !== '')),
    attachment_flg: flag.default(0),
    /** The raw values after the summary and the charts in a PDF (付録); absent = yes, as before the field. */
    appendix: flag.default(1),
  })
  .superRefine((input, ctx) => {
    const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    if (input.regular_report === 1 && input.setting_name === '') issue('setting_name', REPORT_MESSAGES.required);
    if (input.regular_report === 1 && input.report_type === REPORT_TYPE.free) issue('report_type', REPORT_MESSAGES.freeRegular);
    if (input.equipment_ids.length === 0) issue('equipment_ids', REPORT_MESSAGES.sensors);
    if (input.manual_data_interval.length === 0 && input.data_interval === null) issue('manual_data_interval', REPORT_MESSAGES.timesRequired);
    if (input.mail_flg === 1) {
      if (input.mail_addresses.length === 0) issue('mail_addresses', REPORT_MESSAGES.mailRequired);
      else if (input.mail_addresses.some((address) => !MAIL_ADDRESS.test(address))) issue('mail_addresses', REPORT_MESSAGES.mailFormat);
    }
    const start = japanParts(input.start_time);
    const end = japanParts(input.end_time);
    // Times are fixed (001 §4): the first day from 00:00, the last day to 23:50.
    if (start.hour !== 0 || start.minute !== 0 || start.second !== 0) issue('start_time', REPORT_MESSAGES.period);
    if (end.hour !== 23 || end.minute !== 50 || end.second !== 0) issue('end_time', REPORT_MESSAGES.period);
    else if (input.regular_report === 0 && input.start_time >= input.end_time) issue('end_time', REPORT_MESSAGES.period);
    else if (input.report_type === REPORT_TYPE.free && input.end_time.getTime() > freePeriodLastDay(input.start_time).getTime() + DAY_END_MINUTE * 60_000) issue('end_time', REPORT_MESSAGES.freePeriod);
  })
  .transform((input) => {
    const period: ReportPeriod =
      input.report_type === REPORT_TYPE.free ? { from: input.start_time, to: input.end_time } : periodOf(input.report_type as Exclude<ReportType, 4>, input.start_time);
    const mailOn = input.mail_flg === 1;
    return {
      ...input,
      report_type: input.report_type as ReportType,
      output_format: input.output_format as ReportFormat,
      setting_name: input.regular_report === 1 ? input.setting_name : SEQUENTIAL_SETTING_NAME,
      // Given times win; every 10 minutes and a given interval keep the number.
      data_interval: input.manual_data_interval.length > 0 ? null : input.data_interval,
      start_time: period.from,
      end_time: period.to,
      mail_addresses: mailOn ? input.mail_addresses : [],
      option3: 0,
      option4: 0,
      option5: 0,
      // Only for a month report with mail on (001 §4).
      attachment_flg: input.report_type === REPORT_TYPE.month && mailOn && input.attachment_flg === 1 ? 1 : 0,
    };
  });

export type ReportSave = z.output<typeof ReportSaveSchema>;

// ---- the calls' other inputs and answers --------------------------------------------------------

const storeId = dbText().trim().min(1).max(20);
const monthStamp = z.string().regex(/^\d{14}$/, 'YYYYMMDDHHmmss').refine((value) => parseCompact(value) !== null, 'YYYYMMDDHHmmss');

export const ReportHistoryQuerySchema = z
  .object({ store_id: storeId, since: monthStamp.optional(), until: monthStamp.optional(), page_no: z.coerce.number().int().min(1).max(100_000).default(1) })
  .refine((query) => !query.since || !query.until || query.since <= query.until, { path: ['until'], message: 'until is before since' });

export const ReportDownloadQuerySchema = z.object({ history_no: z.coerce.number().int().positive().max(INT4_MAX) });
export const RegularReportsQuerySchema = z.object({ store_id: storeId });
export const RegularReportDeleteSchema = z.object({ store_id: dbText().trim().min(1).max(20), setting_no: bodyNumber(z.coerce.number().int().positive().max(INT4_MAX)) });

const stamp = z.string().regex(/^\d{14}$/);

export const ReportHistoryItemSchema = z.strictObject({
  history_no: z.number().int(),
  create_datetime: stamp,
  file_name: z.string(),
  report_type: z.number().int(),
  start_time: stamp,
  end_time: stamp,
  output_format: z.number().int(),
  url: z.string().nullable(),
  /** Ours: 'pending' while the worker makes it (作成中), 'done', or 'failed'. */
  state: z.enum(['pending', 'done', 'failed']),
  setting_no: z.number().int().nullable(),
});

export const ReportHistoryAnswerSchema = z.strictObject({ all_count: z.number().int(), histories: z.array(ReportHistoryItemSchema) });

export const RegularReportItemSchema = z.strictObject({
  setting_no: z.number().int(),
  setting_name: z.string(),
  file_name: z.string(),
  report_type: z.number().int(),
  regular_report: z.number().int(),
  data_interval: z.number().int().nullable(),
  manual_data_interval: z.array(z.string()),
  start_time: stamp,
  end_time: stamp,
  output_format: z.number().int(),
  mail_flg: z.number().int(),
  option1: z.number().int(),
  option2: z.number().int(),
  option3: z.number().int(),
  option4: z.number().int(),
  option5: z.number().int(),
  equipment_ids: z.array(z.number().int()),
  mail_addresses: z.array(z.string()),
  attachment_flg: z.number().int(),
  appendix: z.number().int(),
  store_id: z.string(),
  create_date: stamp,
  create_user_name: z.string().nullable(),
});

export const RegularReportsAnswerSchema = z.array(RegularReportItemSchema);
export const ReportSaveAnswerSchema = z.strictObject({
  store_id: z.string(),
  regular_report: z.number().int(),
  setting_no: z.number().int().nullable(),
  history_no: z.number().int().nullable(),
});

export const compactOf = toCompactDateTime;

/** The file name a report downloads and attaches under: the given name with its format's extension. */
export function downloadName(fileName: string, format: number): string {
  const extension = format === OUTPUT_FORMAT.pdf ? '.pdf' : '.csv';
  return fileName.toLowerCase().endsWith(extension) ? fileName : `${fileName}${extension}`;
}

/** The month (Japan time) containing `at`, as the history tab's since and until. */
export function monthRange(at: Date): { since: Date; until: Date } {
  const p = japanParts(at);
  return { since: fromJapan(p.year, p.month, 1), until: new Date(fromJapan(p.year, p.month + 1, 1).getTime() - 1000) };
}

// ---- the create and edit forms --------------------------------------------------------------

/** What the report form shows and posts (HTML field values). */
export interface ReportFormValues {
  regular_report: '0' | '1';
  setting_name: string;
  file_name: string;
  report_type: '1' | '2' | '3' | '4';
  /** YYYY-MM-DD (the date input). */
  start_date: string;
  end_date: string;
  interval_mode: IntervalMode;
  data_interval: string;
  /** HH:mm separated by commas, spaces or lines. */
  manual_times: string;
  output_format: '1' | '2';
  option1: boolean;
  option2: boolean;
  mail_flg: '0' | '1';
  /** One address a line. */
  mail_addresses: string;
  attachment_flg: boolean;
  appendix: boolean;
  equipment_ids: number[];
}

const isoDay = (at: Date) => {
  const p = japanParts(at);
  return `${p.year}-${String(p.month).padStart(2, '0')}-${String(p.day).padStart(2, '0')}`;
};

/**
 * The form's defaults (001 §4): sequential on create, regular on the edit page; month; every 10
 * minutes; PDF; mail on with the attachment, addressed to the creating user; a user without an
 * address starts with mail off, so a first save does not fail on an address nobody entered
 * (decision 272).
 */
export function defaultFormValues(now: Date, regular: boolean, ownAddress: string | null = null): ReportFormValues {
  return {
    regular_report: regular ? '1' : '0',
    setting_name: '',
    file_name: '',
    report_type: '1',
    start_date: isoDay(now),
    end_date: isoDay(now),
    interval_mode: 'every10',
    data_interval: '',
    manual_times: '',
    output_format: '1',
    option1: false,
    option2: false,
    mail_flg: ownAddress ? '1' : '0',
    mail_addresses: ownAddress ?? '',
    attachment_flg: true,
    appendix: true,
    equipment_ids: [],
  };
}

/** A saved setting as the edit form's values (the interval mode from its data, 001 §4). */
export function formValuesOf(setting: {
  settingName: string; fileName: string; reportType: number; startTime: Date; endTime: Date; dataInterval: number | null; manualTimes: string[];
  outputFormat: number; option1: number; option2: number; mailFlg: number; mailAddresses: string[]; attachmentFlg: number; appendix: number; equipmentIds: number[];
}): ReportFormValues {
  const mode = intervalModeOf(setting.dataInterval, setting.manualTimes);
  return {
    regular_report: '1',
    setting_name: setting.settingName,
    file_name: setting.fileName,
    report_type: String(setting.reportType) as ReportFormValues['report_type'],
    start_date: isoDay(setting.startTime),
    end_date: isoDay(setting.endTime),
    interval_mode: mode,
    data_interval: mode === 'interval' ? String(setting.dataInterval) : '',
    manual_times: setting.manualTimes.join(', '),
    output_format: String(setting.outputFormat) as ReportFormValues['output_format'],
    option1: setting.option1 === 1,
    option2: setting.option2 === 1,
    mail_flg: setting.mailFlg === 1 ? '1' : '0',
    mail_addresses: setting.mailAddresses.join('\n'),
    attachment_flg: setting.attachmentFlg === 1,
    appendix: setting.appendix === 1,
    equipment_ids: setting.equipmentIds,
  };
}

/** Reads the posted form (FormData entries) back into form values. */
export function formValuesFrom(get: (name: string) => string | null, getAll: (name: string) => string[]): ReportFormValues {
  const text = (name: string) => get(name) ?? '';
  const pick = <T extends string>(name: string, allowed: readonly T[], fallback: T): T => (allowed.includes(text(name) as T) ? (text(name) as T) : fallback);
  return {
    regular_report: pick('regular_report', ['0', '1'], '0'),
    setting_name: text('setting_name'),
    file_name: text('file_name'),
    report_type: pick('report_type', ['1', '2', '3', '4'], '1'),
    start_date: text('start_date'),
    end_date: text('end_date'),
    interval_mode: pick('interval_mode', ['every10', 'interval', 'times'], 'every10'),
    data_interval: text('data_interval'),
    manual_times: text('manual_times'),
    output_format: pick('output_format', ['1', '2'], '1'),
    option1: get('option1') === '1',
    option2: get('option2') === '1',
    mail_flg: pick('mail_flg', ['0', '1'], '0'),
    mail_addresses: text('mail_addresses'),
    attachment_flg: get('attachment_flg') === '1',
    appendix: get('appendix') === '1',
    equipment_ids: getAll('equipment_ids').map(Number).filter((id) => Number.isInteger(id) && id > 0),
  };
}

const compactDay = (isoDate: string) => (/^\d{4}-\d{2}-\d{2}$/.test(isoDate) ? isoDate.replaceAll('-', '') : '');

/** The form's values as the report payload (the same schema the API takes). */
export function payloadOf(values: ReportFormValues, storeId: string, settingNo: number | null) {
  const start = compactDay(values.start_date);
  const end = values.report_type === '4' ? compactDay(values.end_date) : start;
  return {
    store_id: storeId,
    setting_no: settingNo,
    setting_name: values.setting_name,
    file_name: values.file_name,
    report_type: Number(values.report_type),
    regular_report: Number(values.regular_report),
    data_interval: values.interval_mode === 'every10' ? 10 : values.interval_mode === 'interval' ? values.data_interval : null,
    manual_data_interval: values.interval_mode === 'times' ? values.manual_times.split(/[\s,、]+/).filter(Boolean) : [],
    start_time: start ? `${start}000000` : '',
    end_time: end ? `${end}235000` : '',
    output_format: Number(values.output_format),
    mail_flg: Number(values.mail_flg),
    option1: values.option1 ? 1 : 0,
    option2: values.option2 ? 1 : 0,
    option3: 0,
    option4: 0,
    option5: 0,
    equipment_ids: values.equipment_ids,
    mail_addresses: values.mail_flg === '1' ? values.mail_addresses.split(/[\s,]+/).filter(Boolean) : [],
    attachment_flg: values.attachment_flg ? 1 : 0,
    appendix: values.appendix ? 1 : 0,
  };
}

/** The period the form shows for its type and dates (re-derived when the start changes). */
export function formPeriod(values: Pick<ReportFormValues, 'report_type' | 'start_date' | 'end_date'>): ReportPeriod | null {
  const start = parseCompact(`${compactDay(values.start_date)}000000`);
  if (!start) return null;
  if (values.report_type === '4') {
    const end = parseCompact(`${compactDay(values.end_date)}235000`);
    return end ? { from: start, to: end } : null;
  }
  return periodOf(Number(values.report_type) as Exclude<ReportType, 4>, start);
}

/** Form fields for the schema's field errors (the payload's names → the form's). */
export const FORM_FIELD_OF: Record<string, string> = {
  start_time: 'start_date',
  end_time: 'end_date',
  manual_data_interval: 'manual_times',
};
