import { formatDate, fromJapan, japanParts } from './japan-time';

// Retention of readings and of the graphs' 10-minute buckets (issue 17 part 6,
// docs/decisions/188-retention.md). Both tables are partitioned by Japan month, so what is kept is
// counted in months and dropped a whole month at a time: the data of a period is kept from the
// first day of the month `months` before now. The boundary is computed from the configuration, so
// the pages can say a period was beyond retention without asking the database. Pure: no I/O.

/** Defaults of ONRECO_READINGS_RETENTION_MONTHS and ONRECO_BUCKETS_RETENTION_MONTHS (README). */
export const READINGS_RETENTION_MONTHS = 24;
export const BUCKETS_RETENTION_MONTHS = 60;

/** What is kept of one table: for how long, and from which instant at a given time. */
export interface Retention {
  months: number;
  /** Japan midnight of the first day of the oldest month kept: older data is (or is about to be) dropped. */
  keptFrom: Date;
}

export interface RetentionPolicy {
  readings: Retention;
  buckets: Retention;
}

/** The first instant kept `months` months before `now`: the start of that Japan month. */
export function keptFrom(now: Date, months: number): Date {
  const p = japanParts(now);
  return fromJapan(p.year, p.month - months, 1);
}

export function retentionAt(now: Date, months: { readings: number; buckets: number }): RetentionPolicy {
  return {
    readings: { months: months.readings, keptFrom: keptFrom(now, months.readings) },
    buckets: { months: months.buckets, keptFrom: keptFrom(now, months.buckets) },
  };
}

/** "2年", or "18ヶ月" when not whole years (the form's "3ヶ月以内"). */
export function retentionLength(months: number): string {
  return months % 12 === 0 ? `${months / 12}年` : `${months}ヶ月`;
}

/**
 * What a page says of a period [from, to) that starts before the data kept: null when it is all
 * within retention; `whole` when nothing of it can be left.
 */
export function retentionNotice(period: { from: Date; to: Date }, retention: Retention): { whole: boolean; text: string } | null {
  if (period.from >= retention.keptFrom) return null;
  const length = retentionLength(retention.months);
  if (period.to <= retention.keptFrom) return { whole: true, text: `保存期間（${length}）を過ぎたため、この期間の計測データは削除されています` };
  return { whole: false, text: `${formatDate(retention.keptFrom)}より前の計測データは、保存期間（${length}）を過ぎたため削除されています` };
}

/**
 * The graph page's notice: its chart reads the buckets (whole: nothing can be drawn), its CSV and
 * comments the readings, so a period only beyond the readings' retention is still drawn.
 */
export function graphRetentionNotice(period: { from: Date; to: Date }, policy: RetentionPolicy): { whole: boolean; text: string } | null {
  const buckets = retentionNotice(period, policy.buckets);
  if (buckets) return buckets;
  const readings = retentionNotice(period, policy.readings);
  return readings && { whole: false, text: `${readings.text}（グラフは10分ごとの平均値で表示しています）` };
}
