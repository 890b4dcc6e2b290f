import { type CsvCell, csvDocument } from '~/domain/csv';
import { acknowledgementText, ACKNOWLEDGEMENT_LABELS } from '~/domain/alert-history';
import { formatDateTime } from '~/domain/japan-time';
import { formatTemperature } from '~/domain/format';
import { type ReportDocument, type ReportSensor, ROW_KIND } from '~/domain/report-document';
import { REPORT_MESSAGES } from '~/domain/report-form';
import { inForceAt, timedSettings } from '~/domain/report-rows';

// The CSV of a report (the one CSV writer, ~/domain/csv: UTF-8 with a BOM so Excel in Japan opens
// it, the formula guard on every cell): one table in long format, so a spreadsheet's filter works on
// every column (issue 29): a row per sensor and table time with the store, the sensor, the time,
// the value as a number, what the row is (区分), whether it is outside the limits in force, and those
// limits; the comments (option1) as rows of their own with 区分 コメント, and with the summary (option2)
// the alerts' acknowledgements with 区分 改善措置. The summary and the alerts table
// are the PDF's first page (docs/decisions/287).

export const CSV_CONTENT_TYPE = 'text/csv; charset=utf-8';

export const CSV_HEADER = ['店舗番号', '店舗名', 'センサー', 'シリアル番号', '日時', '温度', '区分', '上下限外', '下限', '上限', 'コメント', '記入者'] as const;

/** 区分: what a row is. */
export const CSV_ROW_LABELS: Record<number, string> = { [ROW_KIND.value]: '測定値', [ROW_KIND.missing]: '欠測', [ROW_KIND.error]: 'ERROR', [ROW_KIND.defrost]: '霜取り' };
export const CSV_COMMENT_LABEL = 'コメント';
/** An alert's acknowledgement and corrective action (decision 237). */
export const CSV_ACKNOWLEDGEMENT_LABEL = ACKNOWLEDGEMENT_LABELS.action;
/** A period beyond retention or without readings says so in a row of its own, as wide as the others. */
export const CSV_NOTICE_LABEL = '注記';
const OUTSIDE_LABEL = '上下限外';

const limit = (value: number | null) => (value === null ? '' : formatTemperature(value));

export async function renderReportCsv(doc: ReportDocument): Promise<Buffer> {
  const rows: CsvCell[][] = [[...CSV_HEADER]];
  const store = [doc.store.storeNo, doc.store.storeName];
  const notice = doc.retention ? doc.retention.text : doc.sensors.every((sensor) => !sensor.hasReadings) ? REPORT_MESSAGES.noData : null;
  if (notice !== null) rows.push([...store, '', '', '', '', CSV_NOTICE_LABEL, '', '', '', notice, '']);
  const times = timeTexts(doc.sensors[0]?.table.at ?? new Float64Array(0));
  for (const sensor of doc.sensors) rows.push(...sensorRows(sensor, store, times));
  return Buffer.from(csvDocument(rows));
}

function sensorRows(sensor: ReportSensor, store: string[], times: string[]): CsvCell[][] {
  const rows: CsvCell[][] = [];
  const { table } = sensor;
  const periods = timedSettings(sensor.settings);
  for (let i = 0; i < table.length; i++) {
    const kind = table.kind[i];
    const value = table.temperature[i];
    const limits = inForceAt(periods, table.at[i]);
    const lower = limits?.lower ?? null;
    const upper = limits?.upper ?? null;
    const outside = kind === ROW_KIND.value && ((upper !== null && value > upper) || (lower !== null && value < lower));
    rows.push([...store, sensor.name, sensor.serialNo, times[i] ?? formatDateTime(new Date(table.at[i])), Number.isNaN(value) ? '' : formatTemperature(value), CSV_ROW_LABELS[kind], outside ? OUTSIDE_LABEL : '', limit(lower), limit(upper), '', '']);
  }
  for (const comment of sensor.comments ?? []) rows.push([...store, sensor.name, sensor.serialNo, formatDateTime(comment.at), '', CSV_COMMENT_LABEL, '', '', '', comment.comment, comment.userName ?? '']);
  // The alerts' acknowledgements (with the summary, option2): 区分 改善措置 at the time it was acknowledged.
  for (const alert of sensor.summary?.alerts ?? []) {
    const acknowledgement = acknowledgementText(alert);
    if (acknowledgement !== null && alert.acknowledgedAt !== null) rows.push([...store, sensor.name, sensor.serialNo, formatDateTime(alert.acknowledgedAt), '', CSV_ACKNOWLEDGEMENT_LABEL, '', '', '', `${alert.label} ${acknowledgement}`, alert.acknowledgedByName ?? '']);
  }
  return rows;
}

/** The last table's times as printed: every store's report of the same period has the same ones, so a night's run formats them once. */
let lastTimes: { at: number[]; texts: string[] } = { at: [], texts: [] };

function timeTexts(at: Float64Array): string[] {
  const same = at.length === lastTimes.at.length && at.every((instant, i) => instant === lastTimes.at[i]);
  if (!same) lastTimes = { at: [...at], texts: Array.from(at, (instant) => formatDateTime(new Date(instant))) };
  return lastTimes.texts;
}
