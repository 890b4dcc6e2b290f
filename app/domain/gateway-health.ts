// Gateway health on the console (issue 16, docs/decisions/160-162): the alarms before loss as a
// pure decision, the list's query, and the view shapes the card and the list share.
import { z } from 'zod';
import {
  HEALTH_BUFFER_ALARM_RATIO,
  HEALTH_DISK_LOW_BYTES,
  HEALTH_DISK_LOW_RATIO,
  HealthReportSchema,
} from '../../gateway/protocol';
import { ALERT_CODES } from './alert-codes';
import { SIGNAL_BARS, lteLevel } from './levels';

export { lteLevel };

export { HEALTH_BUFFER_ALARM_RATIO, HealthReportSchema };
export type CheckedHealthReport = z.output<typeof HealthReportSchema>;

/** The buffer alarm recovers once the fill is back under this (hysteresis: a buffer hovering at 80 % does not flap). */
export const HEALTH_BUFFER_RECOVER_RATIO = 0.7;
/** History kept, in days (jobs/gateway-health-purge.server.ts). */
export const HEALTH_HISTORY_DAYS = 30;

export interface HealthAlarmState {
  bufferAlarm: boolean;
  lossAlarm: boolean;
  droppedTotal: number;
}

export type HealthTransition =
  | { type: 'open' | 'recover'; code: typeof ALERT_CODES.gatewayBufferFilling }
  | { type: 'open'; code: typeof ALERT_CODES.gatewayReadingsLost; lost: number }
  | { type: 'recover'; code: typeof ALERT_CODES.gatewayReadingsLost };

export function isDiskLow(free: number | null, total: number | null): boolean {
  if (free === null) return false;
  return free < HEALTH_DISK_LOW_BYTES || (total !== null && total > 0 && free / total < HEALTH_DISK_LOW_RATIO);
}

export const bufferFill = (depth: number, capacity: number) => (capacity > 0 ? depth / capacity : 0);

/**
 * The two store-level alarms from the previous state and a new report:
 *  - OE00000006 opens when the buffer is at 80 % or more, or the disk is nearly full; it recovers
 *    when the buffer is back under 70 % and the disk is not nearly full.
 *  - OE00000007 opens when dropped_total grew (how many: the growth; a gateway whose count went
 *    down was reinstalled, and its whole count is new); it recovers once a report shows no new
 *    loss and the buffer under 80 %. Further losses while it is open stay on that alert.
 */
export function evaluateHealthAlarms(previous: HealthAlarmState | null, report: Pick<CheckedHealthReport, 'buffer_depth' | 'buffer_capacity' | 'disk_free_bytes' | 'disk_total_bytes' | 'dropped_total'>): HealthAlarmState & { transitions: HealthTransition[] } {
  const prev = previous ?? { bufferAlarm: false, lossAlarm: false, droppedTotal: 0 };
  const fill = bufferFill(report.buffer_depth, report.buffer_capacity);
  const diskLow = isDiskLow(report.disk_free_bytes, report.disk_total_bytes);
  const transitions: HealthTransition[] = [];
  let bufferAlarm = prev.bufferAlarm;
  if (!bufferAlarm && (fill >= HEALTH_BUFFER_ALARM_RATIO || diskLow)) {
    bufferAlarm = true;
    transitions.push({ type: 'open', code: ALERT_CODES.gatewayBufferFilling });
  } else if (bufferAlarm && fill < HEALTH_BUFFER_RECOVER_RATIO && !diskLow) {
    bufferAlarm = false;
    transitions.push({ type: 'recover', code: ALERT_CODES.gatewayBufferFilling });
  }
  const lost = report.dropped_total >= prev.droppedTotal ? report.dropped_total - prev.droppedTotal : report.dropped_total;
  let lossAlarm = prev.lossAlarm;
  if (lost > 0 && !lossAlarm) {
    lossAlarm = true;
    transitions.push({ type: 'open', code: ALERT_CODES.gatewayReadingsLost, lost });
  } else if (lost === 0 && lossAlarm && fill < HEALTH_BUFFER_ALARM_RATIO) {
    lossAlarm = false;
    transitions.push({ type: 'recover', code: ALERT_CODES.gatewayReadingsLost });
  }
  return { bufferAlarm, lossAlarm, droppedTotal: report.dropped_total, transitions };
}


/** A gateway's health as the card and the list show it (times as ISO strings, Japan time at display). */
export interface GatewayHealthView {
  store_id: string;
  store_no: string;
  store_name: string;
  gateway_info: string | null;
  last_contact_at: string | null;
  offline: boolean;
  reported_at: string | null;
  version: string | null;
  uptime_seconds: number | null;
  buffer_depth: number | null;
  buffer_capacity: number | null;
  oldest_unsent_at: string | null;
  disk_free_bytes: number | null;
  disk_total_bytes: number | null;
  ble_adapter: string | null;
  sensors_heard: number | null;
  lte_rssi: number | null;
  dropped_total: number | null;
  buffer_alarm: boolean;
  loss_alarm: boolean;
}

export const GATEWAY_LIST_PAGE_SIZE = 20;
export const GATEWAY_SORTS = ['store_no', 'store_name', 'last_contact', 'version', 'buffer', 'oldest_unsent', 'lte'] as const;
export type GatewaySort = (typeof GATEWAY_SORTS)[number];

const flag = z.preprocess((value) => value === '1' || value === 'on' || value === 'true' || value === true, z.boolean());

/** The ゲートウェイ一覧 query (GET parameters). */
export const GatewayListQuerySchema = z.object({
  page_no: z.coerce.number().int().min(1).max(100_000).catch(1),
  sort: z.enum(GATEWAY_SORTS).catch('store_no'),
  order: z.enum(['asc', 'desc']).catch('asc'),
  offline: flag.catch(false),
  buffer: flag.catch(false),
  weak: flag.catch(false),
});
export type GatewayListQuery = z.output<typeof GatewayListQuerySchema>;

/** The list's "buffer over 50 %" filter, and the bar's amber from there on. */
export const BUFFER_FILTER_RATIO = 0.5;

export const isBufferOverHalf = (depth: number, capacity: number) => bufferFill(depth, capacity) > BUFFER_FILTER_RATIO;

/** The list's "weak signal" filter: the LTE icon shows one bar or none (below −85 dBm, or unknown). */
export const isWeakSignal = (rssi: number | null) => SIGNAL_BARS[lteLevel(rssi)] <= 1;

/**
 * The ゲートウェイ一覧's filter facts of a report, stored with it as the latest (indexed: each
 * filter and each combination is an index lookup, docs/decisions/165) and drawn by the list.
 */
export function gatewayListFlags(report: { buffer_depth: number; buffer_capacity: number; lte_rssi: number | null }) {
  return { buffer_over_half: isBufferOverHalf(report.buffer_depth, report.buffer_capacity), weak_signal: isWeakSignal(report.lte_rssi) };
}

export const BLE_ADAPTER_LABELS: Record<string, string> = { on: '稼働中', off: '停止', simulated: 'シミュレーション', unknown: '不明' };

/** 1 234 567 890 bytes → "1.1 GB" (binary units, one decimal). */
export function formatBytes(bytes: number | null): string {
  if (bytes === null) return '--';
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`;
}

/** Uptime as 3日 4時間 / 5時間 12分 / 7分. */
export function formatUptime(seconds: number | null): string {
  if (seconds === null) return '--';
  const days = Math.floor(seconds / 86_400);
  const hours = Math.floor((seconds % 86_400) / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  if (days > 0) return `${days}日 ${hours}時間`;
  if (hours > 0) return `${hours}時間 ${minutes}分`;
  return `${minutes}分`;
}
