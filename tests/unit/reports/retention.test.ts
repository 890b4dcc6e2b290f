import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderReportCsv } from '~/reports/csv.server';
import { RETENTION_CHART_TEXT, renderReportPdf } from '~/reports/pdf.server';
import { sampleReportDocument } from '../../support/report-sample';

// A report whose period is beyond the readings' retention says so (docs/decisions/188-retention.md):
// on the cover and each sensor's page of the PDF, under the CSV's header.
const WHOLE = { whole: true, text: '保存期間（2年）を過ぎたため、この期間の計測データは削除されています' };
const PART = { whole: false, text: '2024/11/01より前の計測データは、保存期間（2年）を過ぎたため削除されています' };

function pdfText(pdf: Buffer): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'report-retention-')), 'report.pdf');
  writeFileSync(file, pdf);
  return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
}

describe('a report beyond retention', () => {
  it('PDF: the notice on the cover and on the sensor page instead of "no data", and in the empty chart', async () => {
    const doc = { ...sampleReportDocument({ sensors: 1, days: 1, emptyFrom: 0 }), retention: WHOLE };
    const pages = pdfText(await renderReportPdf(doc)).split('\f');
    expect(pages[0]).toContain(WHOLE.text);
    expect(pages[1]).toContain(WHOLE.text);
    expect(pages[1]).toContain(RETENTION_CHART_TEXT);
    expect(pages.join('')).not.toContain('この期間のデータはありません');
  });

  it('PDF: a period that straddles the boundary names the first day kept and still prints its data', async () => {
    const doc = { ...sampleReportDocument({ sensors: 1, days: 1 }), retention: PART };
    const text = pdfText(await renderReportPdf(doc));
    expect(text).toContain(PART.text);
    expect(text).toContain('冷蔵ケース1');
    expect(text).not.toContain(RETENTION_CHART_TEXT);
  });

  it('CSV: the notice under the header, then the table', async () => {
    const doc = { ...sampleReportDocument({ sensors: 2, days: 1, emptyFrom: 0 }), retention: WHOLE };
    const lines = (await renderReportCsv(doc)).toString('utf8').slice(1).split('\r\n');
    expect(lines[1]).toBe(`0001,渋谷道玄坂店,,,,,注記,,,,${WHOLE.text},`);
    expect(lines[2]).toMatch(/^0001,渋谷道玄坂店,冷蔵ケース1,SN-100000,2026\/11\/01 00:00,,欠測,/);
    expect(lines.some((line) => line.includes('この期間のデータはありません'))).toBe(false);
  });
});
