import { ALERT_CODES, type AlertCode, type Language, alertText, isGatewayHealthAlert } from './alert-codes';
import { SENSOR_STATUS } from './sensor-status';
import { STORE_STATUS, type StoreStatus } from './store-status';

// The chain at a glance (issue 32, decision 292): what the overview's answer holds, how a
// prefecture's share of stores in alarm becomes a colour band, and the tile map of Japan's 47
// prefectures (our own cartogram: one square per prefecture, roughly where it lies). Shared by
// the API call's schema, the model, the screen and the tests.

/** How many of the worst stores the overview lists unless asked (the call takes 1 to 100). */
export const CHAIN_OVERVIEW_WORST_COUNT = 20;
export const CHAIN_OVERVIEW_WORST_MAX = 100;

/** The order of "worst": a store in alarm, then one whose gateway is silent, then closed, then operating. */
export const STORE_STATUS_SEVERITY: readonly StoreStatus[] = [STORE_STATUS.warning, STORE_STATUS.notConnected, STORE_STATUS.closed, STORE_STATUS.inOperation];

/** The worst of the statuses present (operating when none). */
export function worstStatus(present: Iterable<number>): StoreStatus {
  const seen = new Set(present);
  return STORE_STATUS_SEVERITY.find((status) => seen.has(status)) ?? STORE_STATUS.inOperation;
}

/**
 * The map's colour band of a prefecture from its stores in alarm: none listed, none in alarm,
 * under 5 %, 5 to under 20 %, 20 % and more. Thresholds in decision 292.
 */
export type AlarmBand = 'empty' | 'clear' | 'low' | 'mid' | 'high';
export const ALARM_BANDS: readonly { band: AlarmBand; label: string }[] = [
  { band: 'empty', label: '店舗なし' },
  { band: 'clear', label: '警報なし' },
  { band: 'low', label: '5%未満' },
  { band: 'mid', label: '5〜20%' },
  { band: 'high', label: '20%以上' },
];

export function alarmBand(storeCount: number, alarmStoreCount: number): AlarmBand {
  if (storeCount === 0) return 'empty';
  if (alarmStoreCount === 0) return 'clear';
  const share = alarmStoreCount / storeCount;
  if (share < 0.05) return 'low';
  return share < 0.2 ? 'mid' : 'high';
}

/** "2.5%": the share of stores in alarm as the screen and the map's labels write it. */
export function alarmShareText(storeCount: number, alarmStoreCount: number): string {
  if (storeCount === 0) return '—';
  return `${Math.round((alarmStoreCount / storeCount) * 1000) / 10}%`;
}

/**
 * An alert kind's label: a sensor alert by its open (confirmed) wording, a store-level row by
 * what it says about the gateway (the same texts as the dashboard and the history).
 */
export function alertKindLabel(code: AlertCode, language: Language): string {
  if (isGatewayHealthAlert(code)) return alertText(code, language, SENSOR_STATUS.normal);
  return alertText(code, language, SENSOR_STATUS.error);
}

/** Store-level alarm codes the overview counts besides the sensors' (a silent gateway is counted by its status). */
export const STORE_LEVEL_KIND_CODES: readonly AlertCode[] = [ALERT_CODES.gatewayBufferFilling, ALERT_CODES.gatewayReadingsLost];

/** The tile map: [prefecture_id, column, row] on a 13 × 11 grid (north-east at the top right, Okinawa bottom left). */
export const PREFECTURE_TILES: readonly (readonly [number, number, number])[] = [
  [1, 12, 0],
  [2, 11, 1],
  [5, 10, 2], [3, 11, 2],
  [6, 10, 3], [4, 11, 3],
  [17, 7, 4], [16, 8, 4], [15, 9, 4], [7, 10, 4],
  [18, 7, 5], [21, 8, 5], [20, 9, 5], [10, 10, 5], [9, 11, 5], [8, 12, 5],
  [32, 3, 6], [31, 4, 6], [28, 5, 6], [26, 6, 6], [25, 7, 6], [23, 8, 6], [19, 9, 6], [11, 10, 6], [12, 11, 6],
  [35, 2, 7], [34, 3, 7], [33, 4, 7], [27, 5, 7], [29, 6, 7], [24, 7, 7], [22, 8, 7], [14, 9, 7], [13, 10, 7],
  [42, 0, 8], [41, 1, 8], [40, 2, 8], [38, 3, 8], [37, 4, 8], [30, 6, 8],
  [43, 1, 9], [44, 2, 9], [39, 3, 9], [36, 4, 9],
  [47, 0, 10], [46, 1, 10], [45, 2, 10],
];
export const TILE_COLUMNS = 13;
export const TILE_ROWS = 11;

/** A prefecture's name on its tile: without 都, 府 or 県 (北海道 stays whole). */
export function tileName(prefectureName: string): string {
  return prefectureName === '北海道' ? prefectureName : prefectureName.replace(/[都府県]$/, '');
}
