// The alert codes of the specifications (000 §8); their texts are in the catalogues (texts/).
import { isSensorError } from './sensor-status';
import { type Texts, textsFor } from './texts';

export const ALERT_CODES = {
  upperLimit: 'OE00000001',
  lowerLimit: 'OE00000002',
  batteryLow: 'OE00000003',
  sensorError: 'OE00000004',
  noCommunication: 'OE00000005',
  /** Store-level: the gateway's buffer passed 80 % or its disk is nearly full (docs/decisions/161). */
  gatewayBufferFilling: 'OE00000006',
  /** Store-level: the gateway dropped readings (buffer full); alert_data1 holds how many. */
  gatewayReadingsLost: 'OE00000007',
} as const;

export type AlertCode = (typeof ALERT_CODES)[keyof typeof ALERT_CODES];

export const ALL_ALERT_CODES: readonly AlertCode[] = Object.values(ALERT_CODES);

/** Users' language as stored on the user (JP or US). */
export type Language = 'JP' | 'US';

/** For alert_id values coming from the API (stopping an alert). */
export function isAlertCode(value: string): value is AlertCode {
  return (ALL_ALERT_CODES as readonly string[]).includes(value);
}

/** Upper and lower limit alerts: the only ones that link to the graph (000 §4). */
export function isTemperatureAlert(code: AlertCode): boolean {
  return code === ALERT_CODES.upperLimit || code === ALERT_CODES.lowerLimit;
}

/**
 * The message for a sensor alert; `status` is the sensor's status (0, 1 or 2). 000 §8: a
 * temperature alert reads as "temperature abnormality" once the status is 2 (an open alert);
 * at status 1 (guard time still running) it reads as the limit being exceeded.
 */
export function alertText(code: AlertCode, language: Language, status: number): string {
  const texts = textsFor(language);
  if (isSensorError(status) && isTemperatureAlert(code)) return texts.confirmedAlerts[code as keyof Texts['confirmedAlerts']];
  return texts.alerts[code];
}

/** The message for the store-level no-communication alert (alert history row without equipment_id). */
export function gatewayDownText(language: Language): string {
  return textsFor(language).gatewayDown;
}

/** The store-level alerts about the gateway itself (no sensor): their own text, not the no-communication one. */
export function isGatewayHealthAlert(code: AlertCode): boolean {
  return code === ALERT_CODES.gatewayBufferFilling || code === ALERT_CODES.gatewayReadingsLost;
}

export const GATEWAY_HEALTH_ALERT_CODES: readonly AlertCode[] = ALL_ALERT_CODES.filter(isGatewayHealthAlert);

/**
 * The message of a store-level alert (a row without a sensor), wherever it shows (history, CSV,
 * mail, dashboard): the gateway's own alarms read as what they are, any other store-level row as
 * the gateway being silent (decision 276).
 */
export function storeAlertText(code: string, language: Language): string {
  return isAlertCode(code) && isGatewayHealthAlert(code) ? textsFor(language).alerts[code] : gatewayDownText(language);
}
