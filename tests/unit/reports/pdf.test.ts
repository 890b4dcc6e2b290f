import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderReportPdf } from '~/reports/pdf.server';
import { sampleReportDocument } from '../../support/report-sample';

// The report PDF rendered for real and read back with poppler's pdftotext: the Japanese text is
// there as text (the font is embedded, no tofu), with the page numbers and the summary.
function textOf(pdf: Buffer): { text: string; pages: number } {
  const dir = mkdtempSync(path.join(tmpdir(), 'report-pdf-'));
  const file = path.join(dir, 'report.pdf');
  writeFileSync(file, pdf);
  const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const info = execFileSync('pdfinfo', [file], { encoding: 'utf8' });
  const fonts = execFileSync('pdffonts', [file], { encoding: 'utf8' });
  expect(fonts).toContain('NotoSansJP');
  expect(fonts).not.toMatch(/\bno\s+no\b.*\n?.*Helvetica/); // no standard font stands in for Japanese text
  return { text, pages: Number(/Pages:\s+(\d+)/.exec(info)![1]) };
}

describe('renderReportPdf', () => {
  it('prints the cover, each sensor with its summary and comments, the table, and page numbers on every page', async () => {
    const doc = sampleReportDocument({ sensors: 4, days: 2, emptyFrom: 3 });
    const { text, pages } = textOf(await renderReportPdf(doc));
    expect(text).toContain('月次レポート 2026年11月');
    expect(text).toContain('0001 渋谷道玄坂店');
    expect(text).toContain('佐藤 一郎');
    expect(text).toContain('冷蔵ケース1');
    expect(text).toContain('サマリー');
    expect(text).toContain('上限温度超過');
    expect(text).toContain('扉の閉め忘れ。商品を別ケースへ移動した。');
    expect(text).toContain('山田 花子');
    expect(text).toContain('ERROR');
    expect(text).toContain('DEF');
    expect(text).toContain('この期間のデータはありません');
    expect(text).toMatch(/\b1 \/ \d+ ページ/);
    expect(text).toContain(`${pages} / ${pages} ページ`);
    // The store and period on every page.
    expect(text.split('\f').filter((page) => page.trim()).every((page) => page.includes('期間: 2026/11/01 00:00'))).toBe(true);
  });

  it('renders a report without sensors and one without options', async () => {
    const none = sampleReportDocument({ sensors: 0, days: 1 });
    expect(textOf(await renderReportPdf(none)).text).toContain('対象のセンサーがありません');
    const plain = sampleReportDocument({ sensors: 1, days: 1, comments: false, summary: false });
    const { text } = textOf(await renderReportPdf(plain));
    expect(text).not.toContain('サマリー');
    expect(text).toContain('冷蔵ケース1');
  });
});
