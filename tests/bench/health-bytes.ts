// What the health report adds to a gateway's upload bytes per day (issue 16: at most 1 %). Bytes on
// the wire as the gateway's ApiClient sends them (request line, headers with a 43-character token,
// gzip body), for a store of 20 sensors uploading one batch a minute, with the reporting policy of
// gateway/health/reporter.ts: a report beside an upload once an hour, plus N urgent reports alone.
//   npx tsx tests/bench/health-bytes.ts
import { gzipSync } from 'node:zlib';
import { HEALTH_PIGGYBACK_SECONDS, type HealthReport, type WireReading } from '../../gateway/protocol';
import { formatMeasuredAt } from '../../gateway/time';

const SENSORS = Number(process.env.SENSORS ?? 20);
const TOKEN = 'x'.repeat(43);
const headers = (route: string, bodyBytes: number, gzip: boolean) =>
  `POST /on-reco/v1/gateway/${route} HTTP/1.1\r\naccept: application/json\r\nauthorization: Bearer ${TOKEN}\r\ncontent-type: application/json\r\n` +
  `${gzip ? 'content-encoding: gzip\r\n' : ''}content-length: ${bodyBytes}\r\nHost: console.example.jp\r\nConnection: keep-alive\r\n\r\n`;

const start = Date.parse('2026-11-24T00:00:00+09:00');
const health = (at: number): HealthReport => ({
  reported_at: formatMeasuredAt(at), version: '0.2.0', uptime_seconds: 1_234_567, buffer_depth: SENSORS, buffer_capacity: 2_000_000,
  oldest_unsent_at: formatMeasuredAt(at - 60_000), disk_free_bytes: 12_345_678_901, disk_total_bytes: 31_234_567_890, ble_adapter: 'on',
  sensors_heard: SENSORS, lte_rssi: -81, dropped_total: 0,
});
let plain = 0;
let withHealth = 0;
for (let minute = 0; minute < 1440; minute += 1) {
  const at = start + minute * 60_000;
  const readings: WireReading[] = Array.from({ length: SENSORS }, (_, i) => ({
    serial_no: `A4:C1:38:00:00:${i.toString(16).padStart(2, '0').toUpperCase()}`, measured_at: formatMeasuredAt(at), temperature: Math.round((3 + Math.sin(minute / 30 + i) * 2) * 10) / 10,
    error: false, battery: 80 - (i % 7), receive_sensitivity: -60 - (i % 25),
  }));
  const body = gzipSync(JSON.stringify({ readings })).length;
  plain += headers('readings', body, true).length + body;
  const carries = minute % (HEALTH_PIGGYBACK_SECONDS / 60) === 0;
  const bodyWith = carries ? gzipSync(JSON.stringify({ readings, health: health(at) })).length : body;
  withHealth += headers('readings', bodyWith, true).length + bodyWith;
}
const alone = JSON.stringify(health(start)).length;
const aloneBytes = headers('health', alone, false).length + alone;
const urgentPerDay = Number(process.env.URGENT ?? 4);
const added = withHealth - plain + urgentPerDay * aloneBytes;
console.log(JSON.stringify({
  sensors: SENSORS, uploads_per_day: 1440, upload_bytes_per_day: plain, piggybacked_reports_per_day: 1440 / (HEALTH_PIGGYBACK_SECONDS / 60),
  piggyback_bytes_per_day: withHealth - plain, report_alone_bytes: aloneBytes, urgent_reports_per_day: urgentPerDay, added_bytes_per_day: added,
  added_percent: Number(((added / plain) * 100).toFixed(2)),
  if_every_upload_carried_it_percent: Number((((gzipSync(JSON.stringify({ readings: [], health: health(start) })).length - gzipSync(JSON.stringify({ readings: [] })).length) * 1440) / plain * 100).toFixed(1)),
}, null, 2));
