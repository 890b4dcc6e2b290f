import { type AlertCode, alertText, isAlertCode, type Language, storeAlertText } from './alert-codes';

export const DASHBOARD_PAGE_SIZE = 20;
export const STORE_NAME_FILTER_SIZE = 50;
/** Before the names of the row's sensors in alarm (issue 33 item 2). */
export const ALARM_SENSORS_LABEL = '警報中のセンサ';


/**
 * The dashboard row's alert messages from its sensors' open (code, sensor status) pairs:
 * each distinct message once (000 §8), in code order; then the store's open alarms about the
 * gateway itself (buffer filling, readings lost: decision 276).
 */
export function storeAlertMessages(alerts: { code: string; status: number }[], language: Language, gatewayCodes: readonly string[] = []): string[] {
  const sorted = [...alerts].filter((alert): alert is { code: AlertCode; status: number } => isAlertCode(alert.code)).sort((a, b) => a.code.localeCompare(b.code));
  const gateway = [...gatewayCodes].sort().map((code) => storeAlertText(code, language));
  return [...new Set([...sorted.map((alert) => alertText(alert.code, language, alert.status)), ...gateway])];
}
