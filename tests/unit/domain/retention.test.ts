import { describe, expect, it } from 'vitest';
import { fromJapan } from '~/domain/japan-time';
import { graphRetentionNotice, keptFrom, retentionAt, retentionLength, retentionNotice } from '~/domain/retention';
import { parseEnv } from '~/env.server';

// What is kept (docs/decisions/188-retention.md): whole Japan months, counted back from now.
describe('the retention boundary', () => {
  it('is the first day (Japan time) of the month N months back', () => {
    // 2026-11-24 10:00 JST: 24 months back is November 2024, kept from its first day.
    expect(keptFrom(fromJapan(2026, 11, 24, 10), 24)).toEqual(fromJapan(2024, 11, 1));
    // The first minutes of a Japan month are still that month (UTC is the month before).
    expect(keptFrom(fromJapan(2026, 12, 1, 0, 5), 24)).toEqual(fromJapan(2024, 12, 1));
    expect(keptFrom(fromJapan(2026, 1, 31, 23, 59), 60)).toEqual(fromJapan(2021, 1, 1));
  });

  it('is configured in months, 24 and 60 by default, and buckets never shorter than readings', () => {
    const env = parseEnv({});
    expect([env.ONRECO_READINGS_RETENTION_MONTHS, env.ONRECO_BUCKETS_RETENTION_MONTHS]).toEqual([24, 60]);
    expect(parseEnv({ ONRECO_READINGS_RETENTION_MONTHS: '36', ONRECO_BUCKETS_RETENTION_MONTHS: '36' }).ONRECO_READINGS_RETENTION_MONTHS).toBe(36);
    expect(() => parseEnv({ ONRECO_READINGS_RETENTION_MONTHS: '72' })).toThrow(/ONRECO_BUCKETS_RETENTION_MONTHS: must be at least/);
    expect(() => parseEnv({ ONRECO_READINGS_RETENTION_MONTHS: '2' })).toThrow(/ONRECO_READINGS_RETENTION_MONTHS/);
  });

  it('is said in years when whole, else in months', () => {
    expect(retentionLength(24)).toBe('2年');
    expect(retentionLength(60)).toBe('5年');
    expect(retentionLength(18)).toBe('18ヶ月');
  });
});

describe('the notice of a period beyond retention', () => {
  const policy = retentionAt(fromJapan(2026, 11, 24, 10), { readings: 24, buckets: 60 });
  const month = (year: number, m: number) => ({ from: fromJapan(year, m, 1), to: fromJapan(year, m + 1, 1) });

  it('is none within retention, whole before it, and names the first day kept when the period straddles it', () => {
    expect(retentionNotice(month(2024, 11), policy.readings)).toBeNull();
    expect(retentionNotice(month(2024, 10), policy.readings)).toEqual({ whole: true, text: '保存期間（2年）を過ぎたため、この期間の計測データは削除されています' });
    const week = { from: fromJapan(2024, 10, 27), to: fromJapan(2024, 11, 3) };
    expect(retentionNotice(week, policy.readings)).toEqual({ whole: false, text: '2024/11/01より前の計測データは、保存期間（2年）を過ぎたため削除されています' });
  });

  it('on the graph: nothing to draw only beyond the buckets; beyond the readings it is drawn from the buckets', () => {
    expect(graphRetentionNotice(month(2024, 11), policy)).toBeNull();
    expect(graphRetentionNotice(month(2024, 10), policy)).toEqual({ whole: false, text: '保存期間（2年）を過ぎたため、この期間の計測データは削除されています（グラフは10分ごとの平均値で表示しています）' });
    expect(graphRetentionNotice(month(2021, 10), policy)).toEqual({ whole: true, text: '保存期間（5年）を過ぎたため、この期間の計測データは削除されています' });
  });
});
