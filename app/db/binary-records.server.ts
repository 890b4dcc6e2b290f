// The fixed-size binary records the report queries pack (app/models/report-collection.server.ts):
// fields in PostgreSQL's binary send formats (timestamptz_send, float4send, int2send, int4send,
// int8send: big-endian, instants as microseconds since 2000-01-01 UTC), concatenated per sensor by
// string_agg and sent as base64, so that no number or instant is printed as text and parsed back
// (docs/decisions/192, 201, 202). node-postgres's own binary mode is not usable for this: it reads
// binary fields through a utf8 string and corrupts them (brianc/node-postgres#3495, open; binary
// results are not supported, #3317). The send formats are PostgreSQL's documented binary I/O,
// unchanged since 8.x; tests/api/binary-records.test.ts checks them against the suite's server
// (decision 219).
import { type BucketSeries, emptyBuckets } from '~/domain/report-buckets';
import type { ReadingSeries } from '~/domain/report-rows';

/** A base64 text of packed records as bytes to read. */
function viewOf(base64: string): DataView {
  const packed = Buffer.from(base64, 'base64');
  return new DataView(packed.buffer, packed.byteOffset, packed.byteLength);
}

/** One sensor's readings from their packed records (the query sends them in time order). */
export function readingRecords(base64: string): ReadingSeries {
  const view = viewOf(base64);
  const n = view.byteLength / READING_RECORD_BYTES;
  const series: ReadingSeries = { length: n, at: new Float64Array(n), temperature: new Float64Array(n), error: new Uint8Array(n) };
  for (let i = 0; i < n; i++) readReadingRecord(view, i * READING_RECORD_BYTES, series, i);
  return series;
}

/** One sensor's buckets from their packed records, in time order whatever order they came in. */
export function bucketRecords(base64: string): BucketSeries {
  const view = viewOf(base64);
  const series = emptyBuckets(view.byteLength / BUCKET_RECORD_BYTES);
  const order = recordsInTimeOrder(view, series.length);
  for (let i = 0; i < series.length; i++) readBucketRecord(view, order[i] * BUCKET_RECORD_BYTES, series, i);
  return series;
}

/** A reading's record: its instant, its temperature (NaN when none), and 1 for an error, 2 for an empty reading. */
export const READING_RECORD_BYTES = 14;

function readReadingRecord(view: DataView, at: number, series: ReadingSeries, i: number): void {
  series.at[i] = instantAt(view, at);
  series.error[i] = view.getInt16(at + 12) === 1 ? 1 : 0;
  series.temperature[i] = series.error[i] === 1 ? NaN : realAt(view, at + 8);
}

export const BUCKET_RECORD_BYTES = 54;

/** PostgreSQL's timestamp epoch (2000-01-01 UTC) in Unix ms. */
const PG_EPOCH_MS = 946_684_800_000;

export const int64At = (view: DataView, at: number) => view.getInt32(at) * 4_294_967_296 + view.getUint32(at + 4);
export const instantAt = (view: DataView, at: number) => PG_EPOCH_MS + Math.round(int64At(view, at) / 1000);

/** The records' indexes in bucket order: as they came when already in order (the index scan's), sorted otherwise. */
export function recordsInTimeOrder(view: DataView, count: number): Int32Array {
  const order = new Int32Array(count);
  const instants = new Float64Array(count);
  let sorted = true;
  for (let i = 0; i < count; i++) {
    order[i] = i;
    instants[i] = int64At(view, i * BUCKET_RECORD_BYTES);
    if (i > 0 && instants[i] < instants[i - 1]) sorted = false;
  }
  return sorted ? order : order.sort((a, b) => instants[a] - instants[b]);
}

/**
 * A real as the number its text would give (float4out prints the shortest decimal that reads back
 * as the same real, so 4.1 is 4.1 and not the real's 4.099999904…): temperatures are tenths, so
 * that decimal is the nearest tenth whenever the tenth reads back as the same real.
 */
export function realAt(view: DataView, at: number): number {
  const real = view.getFloat32(at);
  if (Number.isNaN(real)) return NaN;
  const tenth = Math.round(real * 10) / 10;
  if (Math.abs(real) < 100_000 && Math.fround(tenth) === real) return tenth;
  for (let digits = 1; ; digits++) {
    const shortest = Number(real.toPrecision(digits));
    if (Math.fround(shortest) === real) return shortest;
  }
}

function readBucketRecord(view: DataView, at: number, series: BucketSeries, i: number): void {
  series.bucket[i] = instantAt(view, at);
  series.gaps[i] = view.getInt32(at + 8);
  series.count[i] = view.getInt32(at + 12);
  series.tenths[i] = int64At(view, at + 16);
  series.min[i] = realAt(view, at + 24);
  series.minAt[i] = Number.isNaN(series.min[i]) ? NaN : instantAt(view, at + 28);
  series.max[i] = realAt(view, at + 36);
  series.maxAt[i] = Number.isNaN(series.max[i]) ? NaN : instantAt(view, at + 40);
  series.markTemperature[i] = realAt(view, at + 48);
  const markError = view.getInt16(at + 52);
  series.markError[i] = markError < 0 ? NaN : markError;
}
