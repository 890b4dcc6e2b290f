import { parseString } from 'fast-csv';
import { describe, expect, it } from 'vitest';
import { csvDocument } from '~/domain/csv';
import { formatDateTime } from '~/domain/japan-time';
import { CSV_HEADER, renderReportCsv } from '~/reports/csv.server';
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
  it('writes one long table (store, sensor, time, value, 区分, outside, limits) that reads back through another parser, quoted names and comments included', async () => {
    const doc = sampleReportDocument({ sensors: 3, days: 6 });
    doc.sensors[0].name = 'ケース,"A"';
    doc.sensors[1].comments = [{ at: doc.period.from, comment: '一行目\n二行目, "引用"', userName: '山田' }];
    const csv = await renderReportCsv(doc);
    expect(csv.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const rows = await parse(csv);
    expect(rows[0]).toEqual([...CSV_HEADER]);
    // Every row has every column: a spreadsheet filters it.
    expect(rows.every((row) => row.length === CSV_HEADER.length)).toBe(true);
    const data = rows.slice(1).filter((row) => row[6] !== 'コメント' && row[6] !== '改善措置');
    expect(data).toHaveLength(3 * 6 * 144);
    expect(data.every((row) => row[0] === '0001' && row[1] === '渋谷道玄坂店')).toBe(true);
    expect(data.every((row) => /^(-?\d+\.\d)?$/.test(row[5]))).toBe(true);
    expect(new Set(data.map((row) => row[6]))).toEqual(new Set(['測定値', '欠測', 'ERROR', '霜取り']));
    expect(data.filter((row) => row[6] === '欠測' || row[6] === 'ERROR').every((row) => row[5] === '')).toBe(true);
    expect(data.filter((row) => row[2] === 'ケース,"A"')).toHaveLength(6 * 144);
    // 上下限外 marks a value outside the limits in force, and only those.
    const outside = data.filter((row) => row[7] === '上下限外');
    expect(outside.length).toBeGreaterThan(0);
    expect(outside.every((row) => Number(row[5]) > Number(row[9]) || Number(row[5]) < Number(row[8]))).toBe(true);
    expect(data.filter((row) => row[6] === '測定値' && row[7] === '').every((row) => Number(row[5]) <= Number(row[9]) && Number(row[5]) >= Number(row[8]))).toBe(true);
    expect(rows).toContainEqual(['0001', '渋谷道玄坂店', doc.sensors[1].name, doc.sensors[1].serialNo, '2026/11/01 00:00', '', 'コメント', '', '', '', '一行目\n二行目, "引用"', '山田']);
    expect(csv.toString('utf8')).toBe(csvDocument(rows));
  });

  it('writes each acknowledged alert as a row of 区分 改善措置: when, the alert, who acknowledged and the corrective action', async () => {
    const doc = sampleReportDocument({ sensors: 2, days: 1 });
    const alert = doc.sensors[1].summary!.alerts[0];
    alert.acknowledgeNote = '商品は別ケースへ';
    doc.sensors[0].summary!.alerts[0].acknowledgedAt = null;
    const rows = await parse(await renderReportCsv(doc));
    const actions = rows.filter((row) => row[6] === '改善措置');
    expect(actions).toEqual([
      ['0001', '渋谷道玄坂店', doc.sensors[1].name, doc.sensors[1].serialNo, formatDateTime(alert.acknowledgedAt!), '', '改善措置', '', '', '', `上限温度超過 確認 ${formatDateTime(alert.acknowledgedAt!)} 山田 花子: 扉を閉めた（メモ: 商品は別ケースへ）`, '山田 花子'],
    ]);
  });

  it('guards a sensor name, a comment and its author that a spreadsheet would run as a formula', async () => {
    const doc = sampleReportDocument({ sensors: 2, days: 1 });
    doc.sensors[0].name = '=1+1';
    doc.sensors[1].comments = [{ at: doc.period.from, comment: '@SUM(A1)', userName: '+cmd|x' }];
    const rows = await parse(await renderReportCsv(doc));
    expect(rows[1][2]).toBe("'=1+1");
    expect(rows.flat()).toEqual(expect.arrayContaining(["'@SUM(A1)", "'+cmd|x"]));
    expect(rows.flat().filter((cell) => /^[=+@\t\r]/.test(cell) || /^-(?!\d+(\.\d+)?$|-$)/.test(cell))).toEqual([]);
  });

  it('prints the same times for a second report of the same period, and its own for another period', async () => {
    const first = (await renderReportCsv(sampleReportDocument({ sensors: 1, days: 1 }))).toString('utf8');
    expect(first).toContain(',2026/11/01 23:50,');
    expect((await renderReportCsv(sampleReportDocument({ sensors: 1, days: 1 }))).toString('utf8')).toBe(first);
    const other = (await renderReportCsv(sampleReportDocument({ sensors: 1, days: 1, day: 2 }))).toString('utf8');
    expect(other).toContain(',2026/11/02 23:50,');
    expect(other).not.toContain('2026/11/01 23:50');
  });
});
