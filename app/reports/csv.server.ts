import { type CsvCell, csvDocument } from '~/domain/csv';
import { formatDateTime } from '~/domain/japan-time';
import { MISSING_TEXT } from '~/domain/format';
import type { ReportDocument, ReportSensor, ReportTable } from '~/domain/report-document';
import { REPORT_MESSAGES } from '~/domain/report-form';
import { alertCells, commentCells, rowValue, SECTION_TEXTS, summaryCells } from './layout';

const SENSOR_LABEL = 'センサー';

// The CSV of a report (the one CSV writer, ~/domain/csv: UTF-8 with a BOM so Excel in Japan opens it, the formula guard on every cell): the data table,
// one row per table time, a column per sensor, cells as the PDF's table prints them
// (docs/decisions/142-report-csv.md). A period without readings, or beyond retention, says so under the header. The
// summary and comments follow the table when the report asks for them (docs/decisions/155).

export const CSV_CONTENT_TYPE = 'text/csv; charset=utf-8';

/** A table cell as the PDF prints it; a time the sensor has no row for is missing. */
export function cellOf(table: ReportTable, row: number): string {
  return row < table.length ? rowValue(table, row) : MISSING_TEXT;
}

export async function renderReportCsv(doc: ReportDocument): Promise<Buffer> {
  const rows: CsvCell[][] = [['日時', ...doc.sensors.map((sensor) => sensor.name)]];
  if (doc.retention) rows.push([doc.retention.text, ...doc.sensors.map(() => '')]);
  else if (doc.sensors.every((sensor) => !sensor.hasReadings)) rows.push([REPORT_MESSAGES.noData, ...doc.sensors.map(() => '')]);
  const times = timeTexts(doc.sensors[0]?.table.at ?? new Float64Array(0));
  for (let index = 0; index < times.length; index++) rows.push([times[index], ...doc.sensors.map((sensor) => cellOf(sensor.table, index))]);
  rows.push(...sections(doc));
  return Buffer.from(csvDocument(rows));
}

/** The last table's times as printed: every store's report of the same period has the same ones, so a night's run formats them once. */
let lastTimes: { at: number[]; texts: string[] } = { at: [], texts: [] };

function timeTexts(at: Float64Array): string[] {
  const same = at.length === lastTimes.at.length && at.every((instant, i) => instant === lastTimes.at[i]);
  if (!same) lastTimes = { at: [...at], texts: Array.from(at, (instant) => formatDateTime(new Date(instant))) };
  return lastTimes.texts;
}

/**
 * The summary (option2) and the comments (option1) under the table, as the PDF prints them, each
 * after an empty line with its heading, then a sensor column in front of the PDF's columns.
 */
function sections(doc: ReportDocument): string[][] {
  const rows: string[][] = [];
  const bySensor = <T>(list: (sensor: ReportSensor) => T[] | null, cells: (item: T) => string[]) => doc.sensors.flatMap((sensor) => (list(sensor) ?? []).map((item) => [sensor.name, ...cells(item)]));
  if (doc.sensors.some((sensor) => sensor.summary !== null)) {
    rows.push([], [SECTION_TEXTS.summary], [SENSOR_LABEL, ...SECTION_TEXTS.summaryHeader]);
    rows.push(...bySensor((sensor) => (sensor.summary ? [sensor.summary] : null), (summary) => summaryCells(summary, false)));
    const alerts = bySensor((sensor) => sensor.summary?.alerts ?? null, alertCells);
    rows.push([], [SENSOR_LABEL, ...SECTION_TEXTS.alertHeader], ...(alerts.length === 0 ? [[SECTION_TEXTS.noAlerts]] : alerts));
  }
  if (doc.sensors.some((sensor) => sensor.comments !== null)) {
    const comments = bySensor((sensor) => sensor.comments, commentCells);
    rows.push([], [SECTION_TEXTS.comments], [SENSOR_LABEL, ...SECTION_TEXTS.commentHeader], ...(comments.length === 0 ? [[SECTION_TEXTS.noComments]] : comments));
  }
  return rows;
}
