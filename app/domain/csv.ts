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
