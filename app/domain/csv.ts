/**
 * A free-text cell that a spreadsheet must not run as a formula: one starting with =, +, -, @,
 * tab or CR gets a leading apostrophe (OWASP "CSV injection"). null is an empty cell.
 */
export function csvText(value: string | null): string {
  if (value === null) return '';
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/** RFC 4180 quoting, CRLF line ends (Excel). */
export function csvLine(cells: readonly string[]): string {
  return `${cells.map((cell) => (/[",\r\n]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell)).join(',')}\r\n`;
}

/** The UTF-8 byte order mark that makes Excel read the file as UTF-8. */
export const CSV_BOM = '\uFEFF';

/** The response headers of a CSV download: an attachment named `filename`, never cached. */
export function csvDownloadHeaders(filename: string): Record<string, string> {
  return {
    'Content-Type': 'text/csv; charset=utf-8',
    'Content-Disposition': `attachment; filename="${filename}"`,
    'Cache-Control': 'no-store',
  };
}
