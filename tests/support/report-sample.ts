// A generated ReportDocument for the PDF tests and the bench: realistic fridge and freezer curves
// with defrost bumps, a missing stretch, an ERROR row, a change of limits mid-period, alert-stop
// windows, comments and a summary. Deterministic (no Math.random).
import { fromJapan } from '../../app/domain/japan-time';
import { roundTenth } from '../../app/domain/format';
import { seriesOf } from '../../app/domain/report-rows';
import { reportTitle } from '../../app/domain/report-title';
import { type ReportDocument, type ReportPoints, type ReportSensor, type ReportTable, type ReportWindow, ROW_KIND } from '../../app/domain/report-document';

export interface SampleOptions {
  sensors?: number;
  /** First day (Japan time) and number of days. */
  year?: number;
  month?: number;
  day?: number;
  days?: number;
  /** Table interval and reading spacing, in minutes. */
  intervalMinutes?: number;
  pointMinutes?: number;
  comments?: boolean;
  summary?: boolean;
  /** Sensors from this index on have no reading at all. */
  emptyFrom?: number;
  /** The raw values as an appendix (the default, as before the setting). */
  appendix?: boolean;
}

export function sampleReportDocument(options: SampleOptions = {}): ReportDocument {
  const { sensors = 3, year = 2026, month = 11, day = 1, days = 30, intervalMinutes = 10, pointMinutes = 10, comments = true, summary = true, emptyFrom = Infinity, appendix = true } = options;
  const from = fromJapan(year, month, day);
  const end = fromJapan(year, month, day + days);
  const to = new Date(end.getTime() - intervalMinutes * 60_000);
  const midway = fromJapan(year, month, day + Math.floor(days / 2));
  const list: ReportSensor[] = [];
  for (let i = 0; i < sensors; i++) {
    const freezer = i % 3 === 2;
    const base = freezer ? -20 : 4;
    const defrostHours = freezer ? [2, 8, 14, 20] : [];
    const defrostWindows: ReportWindow[] = [];
    for (let d = 0; d < days; d++) for (const h of defrostHours) defrostWindows.push({ from: fromJapan(year, month, day + d, h), to: fromJapan(year, month, day + d, h, 30) });
    const stopWindows: ReportWindow[] = [];
    for (let d = 0; d < days; d += 7) stopWindows.push({ from: fromJapan(year, month, day + d, 9), to: fromJapan(year, month, day + d, 11) });
    const empty = i >= emptyFrom;
    const points = { at: [] as number[], temperature: [] as number[] };
    const rows = { at: [] as number[], kind: [] as number[], temperature: [] as number[] };
    const row = (t: number, kind: number, temperature = NaN) => {
      rows.at.push(t);
      rows.kind.push(kind);
      rows.temperature.push(temperature);
    };
    const inDefrost = (t: number) => defrostWindows.some((w) => t >= w.from.getTime() && t < w.to.getTime());
    const valueAt = (t: number) => {
      const minutes = (t - from.getTime()) / 60_000;
      const wave = Math.sin((minutes / 1440) * 2 * Math.PI + i) * 1.5 + Math.sin(minutes / 37 + i) * 0.4;
      const bump = inDefrost(t) ? 9 : 0;
      const excursion = minutes > 1440 * 3 + 600 && minutes < 1440 * 3 + 690 ? 6 : 0;
      return base + wave + bump + excursion;
    };
    const gap = (t: number) => {
      const minutes = (t - from.getTime()) / 60_000;
      return minutes > 1440 * 5 + 300 && minutes < 1440 * 5 + 420;
    };
    if (!empty) {
      for (let t = from.getTime(); t < end.getTime(); t += pointMinutes * 60_000) {
        points.at.push(t);
        points.temperature.push(gap(t) ? NaN : roundTenth(valueAt(t)));
      }
    }
    let n = 0;
    for (let t = from.getTime(); t < end.getTime(); t += intervalMinutes * 60_000, n++) {
      if (empty || gap(t)) row(t, ROW_KIND.missing);
      else if (n === 50 + i) row(t, ROW_KIND.error);
      else if (inDefrost(t)) row(t, ROW_KIND.defrost, roundTenth(valueAt(t)));
      else row(t, ROW_KIND.value, roundTenth(valueAt(t)));
    }
    const values = points.temperature.filter((value) => !Number.isNaN(value));
    list.push({
      equipmentId: 1000 + i,
      name: freezer ? `冷凍ケース${i + 1}` : `冷蔵ケース${i + 1}`,
      serialNo: `SN-${String(100000 + i)}`,
      iconKind: freezer ? 2 : 1,
      settings: [
        { from: fromJapan(year, month - 1, 1), to: midway, lowerLimit: freezer ? -25 : 0, upperLimit: freezer ? -15 : 8, defrost: defrostHours.map((h) => ({ start: `${String(h).padStart(2, '0')}:00`, end: `${String(h).padStart(2, '0')}:30` })) },
        { from: midway, to: null, lowerLimit: freezer ? -24 : 1, upperLimit: freezer ? -16 : 7, defrost: defrostHours.map((h) => ({ start: `${String(h).padStart(2, '0')}:00`, end: `${String(h).padStart(2, '0')}:30` })) },
      ],
      points: { length: points.at.length, at: Float64Array.from(points.at), temperature: Float64Array.from(points.temperature) },
      hasReadings: points.at.length > 0,
      table: { length: rows.at.length, at: Float64Array.from(rows.at), kind: Uint8Array.from(rows.kind), temperature: Float64Array.from(rows.temperature) },
      defrostWindows,
      stopWindows,
      comments: comments ? (empty ? [] : [{ at: fromJapan(year, month, day + 3, 10, 40), comment: '扉の閉め忘れ。商品を移動し扉を閉めた。', userName: '山田 花子' }]) : null,
      summary: summary
        ? {
            min: values.length ? Math.min(...values) : null,
            max: values.length ? Math.max(...values) : null,
            mean: values.length ? roundTenth(values.reduce((a, b) => a + b, 0) / values.length) : null,
            count: values.length,
            minutesOutside: empty ? 0 : 90,
            all: null,
            coverage: { slots: rows.at.length, withReadings: empty ? 0 : rows.at.length - 3 },
            alerts: empty
              ? []
              : [
                  {
                    alertId: `A-${i}`,
                    label: '上限温度超過',
                    startedAt: fromJapan(year, month, day + 3, 10, 20),
                    recoveredAt: fromJapan(year, month, day + 3, 11, 30),
                    stoppedAt: fromJapan(year, month, day + 3, 10, 35),
                    stoppedBy: '山田 花子',
                    stopComment: '扉の閉め忘れ。商品を別ケースへ移動した。',
                    acknowledgedAt: fromJapan(year, month, day + 3, 10, 32),
                    acknowledgedByName: '山田 花子',
                    correctiveAction: '扉を閉めた',
                    acknowledgeNote: null,
                  },
                ],
          }
        : null,
    });
  }
  return {
    title: reportTitle({ reportType: 1, store: { storeNo: '0001', storeName: '渋谷道玄坂店' }, period: { from, to } }),
    documentNumber: 'OR-0001-00000042',
    settingName: '月次レポート',
    appendix,
    fileName: 'report.pdf',
    reportType: 1,
    format: 1,
    store: { storeId: 'S0001', storeNo: '0001', storeName: '渋谷道玄坂店' },
    period: { from, to },
    createdAt: fromJapan(year, month, day + days, 0, 5),
    createdBy: '佐藤 一郎',
    interval: { kind: 'every', minutes: intervalMinutes },
    sensors: list,
  };
}

/** Chart points from readings written as objects (null breaks the line), as collection hands them over. */
export function pointsOf(points: readonly { at: Date; temperature: number | null }[]): ReportPoints {
  return seriesOf(points.map((point) => ({ ...point, error: false })));
}

/** A data table's rows as objects, to read in a test. */
export function rowsOf(table: ReportTable): { at: Date; kind: keyof typeof ROW_KIND; temperature: number | null }[] {
  const kinds = Object.keys(ROW_KIND) as (keyof typeof ROW_KIND)[];
  return Array.from({ length: table.length }, (_, i) => ({ at: new Date(table.at[i]), kind: kinds[table.kind[i]], temperature: Number.isNaN(table.temperature[i]) ? null : table.temperature[i] }));
}

/** A one-row table, for the printing of a single value. */
export const oneRow = (kind: keyof typeof ROW_KIND, temperature = NaN): ReportTable => ({ length: 1, at: new Float64Array(1), kind: Uint8Array.of(ROW_KIND[kind]), temperature: Float64Array.of(temperature) });
