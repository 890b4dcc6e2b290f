import { type AlertCode, alertText, isAlertCode, type Language } from './alert-codes';
import { ja } from './texts/ja';

export const DASHBOARD_PAGE_SIZE = 20;
export const STORE_NAME_FILTER_SIZE = 50;

export const STORE_STATUS_LABELS: Record<number, string> = ja.storeStatus;

export const WORKING_STATE_LABELS: Record<string, string> = ja.workingState;

/**
 * The dashboard row's alert messages from its sensors' open (code, sensor status) pairs:
 * each distinct message once (000 §8), in code order.
 */
export function storeAlertMessages(alerts: { code: string; status: number }[], language: Language): string[] {
  const sorted = [...alerts].filter((alert): alert is { code: AlertCode; status: number } => isAlertCode(alert.code)).sort((a, b) => a.code.localeCompare(b.code));
  return [...new Set(sorted.map((alert) => alertText(alert.code, language, alert.status)))];
}
