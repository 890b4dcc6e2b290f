// The one CSV writer of every export (the report CSV, the measurement CSV of the graphs, the alert
// history CSV): RFC 4180 quoting, CRLF line ends and a BOM for Excel, and the formula guard on
// every cell, so that no export can forget it (the report CSV once wrote `=1+1` raw).

/** A cell: text, a number, or null for an empty cell. */
export type CsvCell = string | number | null;

/** Text a spreadsheet would run as a formula: starting with =, +, -, @, tab or CR (OWASP "CSV injection"). */
const FORMULA_START = /^[=+\-@\t\r]/;
/** … except a plain number (-3.5, a reading or a limit) and the missing mark --, which no spreadsheet runs. */
const NUMBER_OR_MISSING = /^(?:[-+]?\d+(?:\.\d+)?|--)$/;
const NEEDS_QUOTES = /[",\r\n]/;

/** One cell as written: a formula gets a leading apostrophe; a comma, a quote or a line end gets quotes. */
export function csvCell(value: CsvCell): string {
  if (value === null) return '';
  let text = typeof value === 'number' ? String(value) : value;
  if (FORMULA_START.test(text) && !NUMBER_OR_MISSING.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One line, CRLF-ended (Excel). */
export function csvLine(cells: readonly CsvCell[]): string {
  let line = '';
  for (let i = 0; i < cells.length; i++) line += i === 0 ? csvCell(cells[i]) : `,${csvCell(cells[i])}`;
  return `${line}\r\n`;
}

/** The UTF-8 byte order mark that makes Excel read the file as UTF-8. */
export const CSV_BOM = '\uFEFF';

/** A whole file: the BOM, then a line per row. */
export function csvDocument(rows: readonly (readonly CsvCell[])[]): string {
  let text = CSV_BOM;
  for (const row of rows) text += csvLine(row);
  return text;
}

/** The response headers of a CSV download: an attachment named `filename`, never cached. */
export function csvDownloadHeaders(filename: string): Record<string, string> {
  return {
    'Content-Type': 'text/csv; charset=utf-8',
    'Content-Disposition': `attachment; filename="${filename}"`,
    'Cache-Control': 'no-store',
  };
}
