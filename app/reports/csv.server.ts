import { writeToBuffer } from 'fast-csv';
import { formatDateTime } from '~/domain/japan-time';
import { formatTemperature, MISSING_TEXT } from '~/domain/format';
import type { ReportDocument, ReportRow } from '~/domain/report-document';
import { REPORT_MESSAGES } from '~/domain/report-form';

// The CSV of a report (fast-csv, UTF-8 with a BOM so Excel in Japan opens it): the data table,
// one row per table time, a column per sensor, cells as the PDF's table prints them
// (docs/decisions/142-report-csv.md). A period without readings says so under the header.

export const CSV_CONTENT_TYPE = 'text/csv; charset=utf-8';

export function cellOf(row: ReportRow | undefined): string {
  if (!row) return MISSING_TEXT;
  switch (row.kind) {
    case 'value':
      return formatTemperature(row.temperature);
    case 'missing':
      return MISSING_TEXT;
    case 'error':
      return 'ERROR';
    case 'defrost':
      return 'DEF';
  }
}

export async function renderReportCsv(doc: ReportDocument): Promise<Buffer> {
  const header = ['日時', ...doc.sensors.map((sensor) => sensor.name)];
  const times = doc.sensors[0]?.rows.map((row) => row.at) ?? [];
  const rows: string[][] = [header];
  if (doc.sensors.every((sensor) => sensor.points.length === 0)) rows.push([REPORT_MESSAGES.noData, ...doc.sensors.map(() => '')]);
  times.forEach((at, index) => rows.push([formatDateTime(at), ...doc.sensors.map((sensor) => cellOf(sensor.rows[index]))]));
  return writeToBuffer(rows, { writeBOM: true, rowDelimiter: '\r\n' });
}
