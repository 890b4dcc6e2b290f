import { writeToBuffer } from 'fast-csv';
import { formatDateTime } from '~/domain/japan-time';
import { MISSING_TEXT } from '~/domain/format';
import type { ReportDocument, ReportSensor, ReportTable } from '~/domain/report-document';
import { REPORT_MESSAGES } from '~/domain/report-form';
import { alertCells, commentCells, rowValue, SECTION_TEXTS, summaryCells } from './layout';

const SENSOR_LABEL = 'センサー';

// The CSV of a report (fast-csv, UTF-8 with a BOM so Excel in Japan opens it): the data table,
// one row per table time, a column per sensor, cells as the PDF's table prints them
// (docs/decisions/142-report-csv.md). A period without readings, or beyond retention, says so under the header. The
// summary and comments follow the table when the report asks for them (docs/decisions/155).

export const CSV_CONTENT_TYPE = 'text/csv; charset=utf-8';

/** A table cell as the PDF prints it; a time the sensor has no row for is missing. */
export function cellOf(table: ReportTable, row: number): string {
  return row < table.length ? rowValue(table, row) : MISSING_TEXT;
}

const ROW_DELIMITER = '\r\n';

export async function renderReportCsv(doc: ReportDocument): Promise<Buffer> {
  const head: string[][] = [['日時', ...doc.sensors.map((sensor) => sensor.name)]];
  if (doc.retention) head.push([doc.retention.text, ...doc.sensors.map(() => '')]);
  else if (doc.sensors.every((sensor) => !sensor.hasReadings)) head.push([REPORT_MESSAGES.noData, ...doc.sensors.map(() => '')]);
  const parts = [await writeToBuffer(head, { writeBOM: true, rowDelimiter: ROW_DELIMITER })];
  const lines = tableLines(doc);
  if (lines.length > 0) parts.push(Buffer.from(ROW_DELIMITER + lines.join(ROW_DELIMITER)));
  const tail = sections(doc);
  if (tail.length > 0) parts.push(Buffer.from(ROW_DELIMITER), await writeToBuffer(tail, { rowDelimiter: ROW_DELIMITER }));
  return Buffer.concat(parts);
}

/**
 * The data table's lines, written here rather than through fast-csv (docs/decisions/192): every cell
 * is a time, a reading, --, ERROR or DEF, none of which CSV quotes, and fast-csv would check each of
 * a month's ~90,000 cells. Names and comments, which may need quoting, stay with fast-csv.
 */
function tableLines(doc: ReportDocument): string[] {
  const times = timeTexts(doc.sensors[0]?.table.at ?? new Float64Array(0));
  return times.map((time, index) => {
    let line = time;
    for (const sensor of doc.sensors) line += `,${cellOf(sensor.table, index)}`;
    return line;
  });
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
