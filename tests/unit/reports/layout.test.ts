import { describe, expect, it } from 'vitest';
import { fromJapan } from '~/domain/japan-time';
import { chartGeometry, decimate, lineWords, niceStep, pageHeaderText, rowTime, rowValue, settingsText, tableBlocks, wrapLine } from '~/reports/layout';
import { oneRow, pointsOf } from '../../support/report-sample';

const day = (h: number, m = 0) => fromJapan(2026, 11, 1, h, m);
const period = { from: day(0), to: day(23, 50) };

describe('report page texts', () => {
  it('prints the store and the period on every page, in Japan time', () => {
    expect(pageHeaderText({ store: { storeId: 'S1', storeNo: '0001', storeName: '渋谷店' }, period })).toBe('0001 渋谷店\u3000期間: 2026/11/01 00:00 〜 2026/11/01 23:50');
  });

  it('splits a line as pdfmake does: words with their spaces, each Japanese character alone', () => {
    expect(lineWords('0001 渋谷店\u3000期間: 11/01')).toEqual(['0001 ', '渋', '谷', '店\u3000', '期', '間', ': ', '11/01']);
    expect(lineWords('1 / 12 ページ')).toEqual(['1 ', '/ ', '12 ', 'ペ', 'ー', 'ジ']);
  });

  it('wraps a long page header between pieces, never inside a word', () => {
    const width = (text: string) => text.length; // one unit a character
    expect(wrapLine('Family Mart 渋谷店', 100, width)).toEqual(['Family Mart 渋谷店']);
    expect(wrapLine('Family Mart 渋谷店', 13, width)).toEqual(['Family Mart 渋', '谷店']);
    expect(wrapLine('Family Mart', 6, width)).toEqual(['Family ', 'Mart']);
    expect(wrapLine('Supercalifragilistic', 6, width)).toEqual(['Supercalifragilistic']);
    expect(wrapLine('', 6, width)).toEqual(['']);
  });

  it('prints rows with one decimal, -- for missing, ERROR and DEF', () => {
    expect({ time: rowTime(day(1, 10)), value: rowValue(oneRow('value', -18.25), 0) }).toEqual({ time: '11/01 01:10', value: '-18.3' });
    expect(rowValue(oneRow('value', 4), 0)).toBe('4.0');
    expect(rowValue(oneRow('missing'), 0)).toBe('--');
    expect(rowValue(oneRow('error'), 0)).toBe('ERROR');
    expect(rowValue(oneRow('defrost', 3), 0)).toBe('DEF');
  });

  it('clips a settings period to the report period', () => {
    const text = settingsText({ from: fromJapan(2026, 10, 1), to: null, lowerLimit: 0, upperLimit: 8, defrost: [{ start: '02:00', end: '02:30' }] }, period);
    expect(text).toBe('2026/11/01 00:00 〜 2026/11/01 23:50\u3000下限 0.0℃\u3000上限 8.0℃\u3000霜取り 02:00-02:30');
  });
});

describe('the data table in page blocks', () => {
  it('fills columns top to bottom, then the next block', () => {
    const blocks = tableBlocks(23, 5, 2);
    expect(blocks).toEqual([
      [{ from: 0, to: 5 }, { from: 5, to: 10 }],
      [{ from: 10, to: 15 }, { from: 15, to: 20 }],
      [{ from: 20, to: 23 }],
    ]);
    expect(tableBlocks(0, 5, 2)).toEqual([]);
  });
});

describe('chart geometry', () => {
  const box = { width: 400, height: 100 };
  it('draws the line across the box, breaks it at missing readings, and steps the limits at a settings change', () => {
    const points = [
      { at: day(0), temperature: 4 },
      { at: day(6), temperature: 5 },
      { at: day(12), temperature: null },
      { at: day(18), temperature: 6 },
      { at: day(23, 50), temperature: 7 },
    ];
    const g = chartGeometry(
      {
        points: pointsOf(points),
        settings: [
          { from: day(0), to: day(12), lowerLimit: 0, upperLimit: 8, defrost: [] },
          { from: day(12), to: null, lowerLimit: 1, upperLimit: 10, defrost: [] },
        ],
        defrostWindows: [{ from: day(2), to: day(2, 30) }],
        stopWindows: [{ from: day(9), to: day(11) }],
      },
      period,
      box,
    );
    expect(g.empty).toBe(false);
    expect(g.line).toHaveLength(2);
    expect(g.line[0][0].x).toBe(0);
    expect(g.line[1][1].x).toBe(400);
    // One upper line with a vertical step at noon (x = 200.x), rising.
    expect(g.upper).toHaveLength(1);
    expect(g.upper[0]).toHaveLength(4);
    expect(g.upper[0][1].x).toBeCloseTo(g.upper[0][2].x, 1);
    expect(g.upper[0][2].y).toBeLessThan(g.upper[0][1].y);
    expect(g.defrost).toHaveLength(1);
    expect(g.defrost[0].width).toBeGreaterThan(0);
    expect(g.stops[0].x).toBeCloseTo((9 * 60 / (23 * 60 + 50)) * 400, 0);
    // The y axis covers the data and the limits.
    const labels = g.yTicks.map((t) => Number(t.label));
    expect(Math.min(...labels)).toBeLessThanOrEqual(0);
    expect(Math.max(...labels)).toBeGreaterThanOrEqual(10);
    expect(g.xTicks.map((t) => t.label)).toContain('12:00');
  });

  it('says when there is nothing to draw', () => {
    const g = chartGeometry({ points: pointsOf([]), settings: [], defrostWindows: [], stopWindows: [] }, period, box);
    expect(g.empty).toBe(true);
    expect(g.line).toEqual([]);
  });

  it('keeps the extremes when it thins a long series', () => {
    const points = pointsOf(Array.from({ length: 44_640 }, (_, i) => ({ at: new Date(day(0).getTime() + i * 60_000), temperature: i === 20_000 ? 30 : i === 30_000 ? -30 : Math.sin(i / 100) })));
    const thin = decimate(points, points.at[0], points.at[points.length - 1], 500);
    expect(thin.length).toBeLessThanOrEqual(2_004);
    const values = [...thin.temperature];
    expect(Math.max(...values)).toBe(30);
    expect(Math.min(...values)).toBe(-30);
  });

  it('picks round tick steps', () => {
    expect(niceStep(10, 5)).toBe(2);
    expect(niceStep(37, 5)).toBe(10);
    expect(niceStep(0.8, 5)).toBe(0.2);
  });
});
