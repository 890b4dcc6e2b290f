import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { pageHeaderText } from '~/reports/layout';
import { PDF_FONT_LINE } from '~/reports/pdf-fonts.server';
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
  it('prints page one as the summary (title, number, approval block, figures and verdict per sensor, alerts), the charts, the appendix, and page numbers on every page', async () => {
    const doc = sampleReportDocument({ sensors: 4, days: 2, emptyFrom: 3 });
    const { text, pages } = textOf(await renderReportPdf(doc));
    const first = text.split('\f')[0];
    expect(first).toContain('温度管理記録（月次） 0001 渋谷道玄坂店 2026/11/01〜2026/11/02');
    expect(first).toContain('OR-0001-00000042');
    expect(first).toContain('作成者（印）');
    expect(first).toContain('確認者（印）');
    expect(first).toContain('佐藤 一郎');
    expect(first).toContain('センサー別の集計と判定');
    expect(first).toContain('霜取り時間帯とアラート停止時間帯の測定値を除いて');
    expect(first).toContain('逸脱あり');
    expect(first).toContain('データなし');
    expect(first).toContain('上限温度超過');
    expect(text).toContain('付録');
    expect(text).toContain('冷蔵ケース1');
    expect(text).toContain('上限温度超過');
    // The stop comment wraps in its narrower column (the acknowledgement has one beside it).
    expect(first).toContain('扉の閉め忘れ。');
    expect(first).toContain('商品を別ケース');
    // The acknowledgement: who and the corrective action, in a column of its own.
    expect(first).toContain('確認・改善措置');
    expect(first).toContain('確認 2026/11/04');
    expect(first).toContain('10:32 山田 花子:');
    expect(first).toContain('扉を閉めた');
    expect(text).toContain('山田 花子');
    expect(text).toContain('ERROR');
    expect(text).toContain('DEF');
    expect(text).toContain('この期間のデータはありません');
    expect(text).toMatch(/\b1 \/ \d+ ページ/);
    expect(text).toContain(`${pages} / ${pages} ページ`);
    // The store and period on every page.
    expect(text.split('\f').filter((page) => page.trim()).every((page) => page.includes('期間: 2026/11/01 00:00'))).toBe(true);
  });

  it('wraps a store name too long for one header line, on every page', async () => {
    const doc = sampleReportDocument({ sensors: 1, days: 1 });
    doc.store.storeName = `ファミリーマート渋谷道玄坂二丁目駅前通り店 ${'Long Store Name '.repeat(8)}本館`;
    const { text, pages } = textOf(await renderReportPdf(doc));
    const headed = text.split('\f').filter((page) => page.trim());
    expect(headed).toHaveLength(pages);
    const bare = (s: string) => s.replace(/\s+/g, '');
    for (const page of headed) {
      const [first, second] = page.split('\n');
      expect(first).toMatch(/^0001 ファミリーマート渋谷道玄坂二丁目駅前通り店 Long Store Name/);
      expect(first).not.toContain('期間');
      expect(bare(first + second)).toBe(bare(pageHeaderText(doc)));
    }
  });

  it('leaves the raw values out when the setting asks for no appendix', async () => {
    const withAppendix = textOf(await renderReportPdf(sampleReportDocument({ sensors: 4, days: 7 })));
    const without = textOf(await renderReportPdf(sampleReportDocument({ sensors: 4, days: 7, appendix: false })));
    expect(withAppendix.text).toContain('付録');
    expect(without.text).not.toContain('付録');
    expect(without.text).not.toContain('DEF');
    // Page one and two sensors' charts a page.
    expect(without.pages).toBe(3);
    expect(withAppendix.pages).toBeGreaterThan(without.pages);
  });

  it('renders a report without sensors and one without options', async () => {
    const none = sampleReportDocument({ sensors: 0, days: 1 });
    expect(textOf(await renderReportPdf(none)).text).toContain('対象のセンサーがありません');
    const plain = sampleReportDocument({ sensors: 1, days: 1, comments: false, summary: false });
    const { text } = textOf(await renderReportPdf(plain));
    expect(text).not.toContain('サマリー');
    expect(text).toContain('冷蔵ケース1');
  });

  it('lays out the boxes it draws into with the line height of the font itself', () => {
    // The chart's and the table blocks' heights use PDF_FONT_LINE before any document exists.
    const require = createRequire(import.meta.url);
    const PDFDocument = require('pdfkit') as new () => { font(file: string): { _font: { lineHeight(size: number): number } } };
    const file = require.resolve('@expo-google-fonts/noto-sans-jp/400Regular/NotoSansJP_400Regular.ttf');
    expect(new PDFDocument().font(file)._font.lineHeight(1)).toBeCloseTo(PDF_FONT_LINE, 6);
  });
});
