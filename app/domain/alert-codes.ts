// The alert codes of the specifications (000 §8) and their texts in the two user languages.

export const ALERT_CODES = {
  upperLimit: 'OE00000001',
  lowerLimit: 'OE00000002',
  batteryLow: 'OE00000003',
  sensorError: 'OE00000004',
  noCommunication: 'OE00000005',
} as const;

export type AlertCode = (typeof ALERT_CODES)[keyof typeof ALERT_CODES];

export const ALL_ALERT_CODES: readonly AlertCode[] = Object.values(ALERT_CODES);

/** Users' language as stored on the user (JP or US). */
export type Language = 'JP' | 'US';

type Texts = Record<Language, string>;

const TEXTS: Record<AlertCode, Texts> = {
  OE00000001: { JP: '上限温度超過', US: 'Upper temperature limit exceeded' },
  OE00000002: { JP: '下限温度超過', US: 'Lower temperature limit exceeded' },
  OE00000003: { JP: '電池残量低下', US: 'Battery low' },
  OE00000004: { JP: 'センサ異常（温度が取得できません）', US: 'Sensor error: temperature cannot be taken' },
  OE00000005: { JP: '長時間通信がありません', US: 'No communication for a long time' },
};

// 000 §8: a temperature alert reads as "temperature abnormality" once the sensor's status is 2
// (an open alert); at status 1 (guard time still running) it reads as the limit being exceeded.
const CONFIRMED_TEMPERATURE_TEXTS: Partial<Record<AlertCode, Texts>> = {
  OE00000001: { JP: '温度異常（上限超過）', US: 'Temperature abnormal (above upper limit)' },
  OE00000002: { JP: '温度異常（下限超過）', US: 'Temperature abnormal (below lower limit)' },
};

/** The store-level alert raised instead of per-sensor OE00000005 when the gateway itself stops reporting. */
const GATEWAY_DOWN_TEXT: Texts = { JP: 'ゲートウェイと長時間通信がありません', US: 'No communication with the gateway for a long time' };

/** For alert_id values coming from the API (stopping an alert). */
export function isAlertCode(value: string): value is AlertCode {
  return (ALL_ALERT_CODES as readonly string[]).includes(value);
}

/** Upper and lower limit alerts: the only ones that link to the graph (000 §4). */
export function isTemperatureAlert(code: AlertCode): boolean {
  return code === ALERT_CODES.upperLimit || code === ALERT_CODES.lowerLimit;
}

/** The message for a sensor alert; `status` is the sensor's status (0, 1 or 2). */
export function alertText(code: AlertCode, language: Language, status: number): string {
  const texts = (status === 2 && CONFIRMED_TEMPERATURE_TEXTS[code]) || TEXTS[code];
  return texts[language];
}

/** The message for the store-level no-communication alert (alert history row without equipment_id). */
export function gatewayDownText(language: Language): string {
  return GATEWAY_DOWN_TEXT[language];
}
