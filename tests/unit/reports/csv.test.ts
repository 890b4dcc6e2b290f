import { parseString } from 'fast-csv';
import { describe, expect, it } from 'vitest';
import { csvDocument } from '~/domain/csv';
import { renderReportCsv } from '~/reports/csv.server';
import { sampleReportDocument } from '../../support/report-sample';

// The report CSV goes through the one CSV writer (~/domain/csv): an independent parser (fast-csv's)
// reads back the cells it wrote, and no cell is a formula.

const parse = (csv: Buffer) =>
  new Promise<string[][]>((resolve, reject) => {
    const rows: string[][] = [];
    parseString<string[], string[]>(csv.toString('utf8').slice(1), { delimiter: ',' })
      .on('data', (row: string[]) => rows.push(row))
      .on('error', reject)
      .on('end', () => resolve(rows));
  });

describe('renderReportCsv', () => {
  it('reads back as its cells through another parser, names and comments that need quoting included', async () => {
    const doc = sampleReportDocument({ sensors: 3, days: 6 });
    doc.sensors[0].name = 'ケース,"A"';
    doc.sensors[1].comments = [{ at: doc.period.from, comment: '一行目\n二行目, "引用"', userName: '山田' }];
    const csv = await renderReportCsv(doc);
    expect(csv.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const rows = await parse(csv);
    const cells = rows.slice(1, 1 + 6 * 144).flatMap((row) => row.slice(1));
    expect(cells.every((cell) => /^(-?\d+\.\d|--|ERROR|DEF)$/.test(cell))).toBe(true);
    expect(['--', 'ERROR', 'DEF'].every((text) => cells.includes(text))).toBe(true);
    expect(rows[0][1]).toBe('ケース,"A"');
    expect(csv.toString('utf8')).toBe(csvDocument(rows));
  });

  it('guards a sensor name, a comment and its author that a spreadsheet would run as a formula', async () => {
    const doc = sampleReportDocument({ sensors: 2, days: 1 });
    doc.sensors[0].name = '=1+1';
    doc.sensors[1].comments = [{ at: doc.period.from, comment: '@SUM(A1)', userName: '+cmd|x' }];
    const rows = await parse(await renderReportCsv(doc));
    expect(rows[0][1]).toBe("'=1+1");
    expect(rows.flat()).toEqual(expect.arrayContaining(["'@SUM(A1)", "'+cmd|x"]));
    expect(rows.flat().filter((cell) => /^[=+@\t\r]/.test(cell) || /^-(?!\d+(\.\d+)?$|-$)/.test(cell))).toEqual([]);
  });

  it('prints the same times for a second report of the same period, and its own for another period', async () => {
    const first = (await renderReportCsv(sampleReportDocument({ sensors: 1, days: 1 }))).toString('utf8');
    expect(first).toContain('\r\n2026/11/01 23:50,');
    expect((await renderReportCsv(sampleReportDocument({ sensors: 1, days: 1 }))).toString('utf8')).toBe(first);
    const other = (await renderReportCsv(sampleReportDocument({ sensors: 1, days: 1, day: 2 }))).toString('utf8');
    expect(other).toContain('\r\n2026/11/02 23:50,');
    expect(other).not.toContain('2026/11/01 23:50');
  });
});
