import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { bucketRecords, readingRecords, realAt } from '~/db/binary-records.server';
import { testDb } from '../support/db';

// The report queries' binary records (app/db/binary-records.server.ts, decision 219) read back
// from records made by the suite's own PostgreSQL with the same send functions: a server whose
// binary formats changed fails here, by name, and not in a report that prints wrong figures.

const db = testDb();

describe('binary records of PostgreSQL\'s send functions', () => {
  it('are the formats the decoder reads: integer instants (since PostgreSQL 10 the only kind)', async () => {
    const { rows } = await sql<{ integer_datetimes: string }>`show integer_datetimes`.execute(db);
    expect(rows[0].integer_datetimes).toBe('on');
  });

  it('give the readings back: instants before and after 2000, tenths, a missing value and an error', async () => {
    const instants = ['1999-12-31T23:59:59.999Z', '2000-01-01T00:00:00.000Z', '2026-11-28T03:20:00.123Z', '2199-06-30T12:00:00.000Z'];
    const temperatures = [4.1, -30.5, null, 85.3];
    const errors = [false, false, false, true];
    const { rows } = await sql<{ packed: string }>`
      select encode(string_agg(timestamptz_send(r.at) || float4send(coalesce(r.temperature, 'NaN'))
                               || int2send(case when r.error then 1 when r.temperature is null then 2 else 0 end::int2), ''::bytea order by r.n), 'base64') as packed
        from unnest(${instants}::timestamptz[], ${temperatures}::real[], ${errors}::boolean[]) with ordinality as r(at, temperature, error, n)`.execute(db);
    const series = readingRecords(rows[0].packed);
    expect(series.length).toBe(4);
    expect([...series.at].map((ms) => new Date(ms).toISOString())).toEqual(instants);
    expect([...series.temperature.slice(0, 2)]).toEqual([4.1, -30.5]);
    expect(Number.isNaN(series.temperature[2]) && Number.isNaN(series.temperature[3])).toBe(true);
    expect([...series.error]).toEqual([0, 0, 0, 1]);
  });

  it('give a bucket back field by field, and buckets out of order in time order', async () => {
    const record = (bucket: string, gaps: number, count: number, tenths: string, min: number | null, max: number, markError: boolean | null) => sql`
      timestamptz_send(${bucket}::timestamptz) || int4send(${gaps}::int) || int4send(${count}::int) || int8send(${tenths}::bigint)
      || float4send(coalesce(${min}::real, 'NaN')) || timestamptz_send(${bucket}::timestamptz + interval '1 minute')
      || float4send(${max}::real) || timestamptz_send(${bucket}::timestamptz + interval '2 minutes')
      || float4send(coalesce(null::real, 'NaN')) || int2send(coalesce(${markError}::boolean::int::int2, (-1)::int2))`;
    const { rows } = await sql<{ packed: string }>`
      select encode(${record('2026-11-28T00:10:00Z', 1, 9, '370', 3.7, 5.2, true)} || ${record('2026-11-28T00:00:00Z', 0, 10, '-9007199254', null, -0.1, null)}, 'base64') as packed`.execute(db);
    const series = bucketRecords(rows[0].packed);
    expect(series.length).toBe(2);
    expect([...series.bucket].map((ms) => new Date(ms).toISOString())).toEqual(['2026-11-28T00:00:00.000Z', '2026-11-28T00:10:00.000Z']);
    expect([...series.gaps]).toEqual([0, 1]);
    expect([...series.count]).toEqual([10, 9]);
    expect([...series.tenths]).toEqual([-9007199254, 370]);
    expect(Number.isNaN(series.min[0]) && Number.isNaN(series.minAt[0])).toBe(true);
    expect([series.min[1], new Date(series.minAt[1]).toISOString()]).toEqual([3.7, '2026-11-28T00:11:00.000Z']);
    expect([...series.max]).toEqual([-0.1, 5.2]);
    expect(new Date(series.maxAt[1]).toISOString()).toBe('2026-11-28T00:12:00.000Z');
    expect(Number.isNaN(series.markTemperature[0])).toBe(true);
    expect([Number.isNaN(series.markError[0]), series.markError[1]]).toEqual([true, 1]);
  });

  it('read a real as the number its text gives (float4out\'s shortest decimal)', async () => {
    const values = [4.1, -0.1, 0.3, 123456.7, 1e-7, 3.4028234663852886e38];
    const { rows } = await sql<{ packed: string; texts: string[] }>`
      select encode(string_agg(float4send(v), ''::bytea order by n), 'base64') as packed, array_agg(v::text order by n) as texts
        from unnest(${values}::real[]) with ordinality as x(v, n)`.execute(db);
    const bytes = Buffer.from(rows[0].packed, 'base64');
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    expect(values.map((_, i) => realAt(view, i * 4))).toEqual(rows[0].texts.map(Number));
  });
});
