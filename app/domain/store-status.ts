import { en } from './texts/en';
import { ja } from './texts/ja';
import { WORKING_STATE } from './working-state';

// A store's status on the dashboard (000 §4: 0 not connected, 1 closed, 2 in operation,
// 3 warning): the one owner of its codes, labels, CLI names and rules. The console's dashboard,
// the store list call and its filter, the CLI and the alert pipeline read them here; lint
// refuses comparing a store status with a number literal.

export const STORE_STATUS = { notConnected: 0, closed: 1, inOperation: 2, warning: 3 } as const;
export type StoreStatus = (typeof STORE_STATUS)[keyof typeof STORE_STATUS];
export const STORE_STATUSES: readonly StoreStatus[] = Object.values(STORE_STATUS);

/** The console's labels (未接続, 停止中, 稼働中, 警報発生中), in code order. */
export const STORE_STATUS_LABELS: Record<number, string> = ja.storeStatus;

export function storeStatusLabel(status: number, language: 'JP' | 'US' = 'JP'): string {
  return (language === 'US' ? en.storeStatus : ja.storeStatus)[status as StoreStatus] ?? String(status);
}

/** The CLI's names of the statuses (`onreco stores list --status alert`), one word each. */
export const STORE_STATUS_CLI_NAMES = { 'not-connected': STORE_STATUS.notConnected, closed: STORE_STATUS.closed, operating: STORE_STATUS.inOperation, alert: STORE_STATUS.warning } as const;
export type StoreStatusCliName = keyof typeof STORE_STATUS_CLI_NAMES;

export function storeStatusCliName(status: number): string {
  return (Object.keys(STORE_STATUS_CLI_NAMES) as StoreStatusCliName[]).find((name) => STORE_STATUS_CLI_NAMES[name] === status) ?? String(status);
}

/** A store in alarm (警報発生中): one of its sensors, or its gateway's silence, has an open alert. */
export function isAlarmStatus(status: number): boolean {
  return status === STORE_STATUS.warning;
}

/**
 * The dashboard's store status: removed stores are closed; stores without working state or still
 * waiting for their first communication are not connected, and so is an operating store whose
 * gateway is down (its one store-level alert says so); otherwise it is in warning (警報発生中)
 * while any sensor has an open alert. A pending excursion is
 * not an alert yet: it shows on the sensor (status 1), not on the store.
 */
export function storeStatus(workingState: number | null, gatewayDown: boolean, sensors: readonly { openCodes: readonly string[] }[]): StoreStatus {
  if (workingState === WORKING_STATE.removed) return STORE_STATUS.closed;
  if (workingState !== WORKING_STATE.operating || gatewayDown) return STORE_STATUS.notConnected;
  return sensors.some((sensor) => sensor.openCodes.length > 0) ? STORE_STATUS.warning : STORE_STATUS.inOperation;
}
