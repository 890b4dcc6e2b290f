import { describe, expect, it } from 'vitest';
import type { AlertCode } from '~/domain/alert-codes';
import {
  type StoreSensor,
  locationLabel,
  mostImportantAlert,
  nextSort,
  NO_ALERT_TEXT,
  popupSide,
  readingTemperature,
  sensorAlertCodes,
  sortDefault,
  staleReadingAge,
  staleReadings,
  sortSensors,
  sparkline,
  statusTexts,
  warningSeverity,
} from '~/domain/sensor-view';

function sensor(id: number, overrides: Partial<StoreSensor> = {}): StoreSensor {
  return {
    equipment_id: id,
    equipment_name: `センサ${id}`,
    icon_kind: 3,
    location_no: id,
    lower_limit: 0,
    upper_limit: 10,
    alert_id: null,
    position_x: 0,
    position_y: 0,
    disp_flg: 1,
    serial_no: 'AA:BB:CC:DD:EE:FF',
    guard_time: null,
    snoozing_time: null,
    status: 0,
    alerts: [],
    temperature: 4,
    measured_at: null,
    battery: 90,
    receive_sensitivity: -60,
    ...overrides,
  };
}
const ids = (list: StoreSensor[]) => list.map((item) => item.equipment_id);
const alerts = (...codes: AlertCode[]) => codes.map((alert_id) => ({ alert_id }));

describe('default order (000 §5, §9): lower limit ascending', () => {
  it('orders by lower limit, no limit last, then location number, then id', () => {
    const list = [sensor(1, { lower_limit: 3 }), sensor(2, { lower_limit: -25 }), sensor(3, { lower_limit: null, upper_limit: null }), sensor(4, { lower_limit: 3, location_no: null }), sensor(5, { lower_limit: 60 })];
    expect(ids(sortDefault(list))).toEqual([2, 4, 1, 5, 3]);
  });
});

describe('list view columns', () => {
  const list = [
    sensor(1, { icon_kind: 12, location_no: 2, equipment_name: 'ホットスナック', lower_limit: 55, status: 2, alerts: alerts('OE00000001') }),
    sensor(2, { icon_kind: 3, location_no: null, equipment_name: 'おにぎり', lower_limit: 3 }),
    sensor(3, { icon_kind: 10, location_no: 2, equipment_name: 'アイス', lower_limit: -25, status: 1, alerts: alerts('OE00000003') }),
    sensor(4, { icon_kind: 3, location_no: 1, equipment_name: '弁当', lower_limit: 3, status: 2, alerts: alerts('OE00000004') }),
  ];

  it('sorts by kind both ways, ties in the default order', () => {
    expect(ids(sortSensors(list, 'kind', 'asc'))).toEqual([2, 4, 3, 1]);
    expect(ids(sortSensors(list, 'kind', 'desc'))).toEqual([1, 3, 2, 4]);
  });

  it('sorts by location number plus name (null as 00)', () => {
    expect(ids(sortSensors(list, 'name', 'asc'))).toEqual([2, 4, 3, 1]); // 00, 01, 02 アイス, 02 ホットスナック
    expect(ids(sortSensors(list, 'name', 'desc'))).toEqual([1, 3, 4, 2]);
  });

  it('sorts by alert code with the sensors without alert last, and back', () => {
    expect(ids(sortSensors(list, 'alert', 'asc'))).toEqual([1, 3, 4, 2]);
    expect(ids(sortSensors(list, 'alert', 'desc'))).toEqual([2, 4, 3, 1]);
  });

  it('keeps the default order without a column', () => {
    expect(ids(sortSensors(list, null))).toEqual([3, 2, 4, 1]);
  });

  it('toggles: a new column ascending, the same column flips', () => {
    expect(nextSort({ key: null, direction: 'asc' }, 'name')).toEqual({ key: 'name', direction: 'asc' });
    expect(nextSort({ key: 'name', direction: 'asc' }, 'name')).toEqual({ key: 'name', direction: 'desc' });
    expect(nextSort({ key: 'name', direction: 'desc' }, 'name')).toEqual({ key: 'name', direction: 'asc' });
    expect(nextSort({ key: 'name', direction: 'desc' }, 'kind')).toEqual({ key: 'kind', direction: 'asc' });
  });
});

describe('warning icon (000 §4)', () => {
  it('shows one icon at status 1 and another at 2, none at 0', () => {
    expect(warningSeverity(0, 4, [])).toBeNull();
    expect(warningSeverity(1, 12, ['OE00000001'])).toBe(1);
    expect(warningSeverity(2, 12, ['OE00000001'])).toBe(2);
  });

  it('is suppressed when DEF and the only alerts after the first are temperature alerts', () => {
    expect(warningSeverity(2, 'DEF', ['OE00000001'])).toBeNull();
    expect(warningSeverity(2, 'DEF', ['OE00000001', 'OE00000002'])).toBeNull();
    expect(warningSeverity(1, 'DEF', ['OE00000003'])).toBeNull(); // nothing after the first
  });

  it('is kept when another kind of alert follows the first, or the temperature is not DEF', () => {
    expect(warningSeverity(2, 'DEF', ['OE00000001', 'OE00000003'])).toBe(2);
    expect(warningSeverity(2, 'DEF', ['OE00000001', 'OE00000005'])).toBe(2);
    expect(warningSeverity(2, 12.5, ['OE00000001'])).toBe(2);
    expect(warningSeverity(2, 'ERROR', ['OE00000004'])).toBe(2);
  });
});

describe('readingTemperature (convert_def)', () => {
  it('turns readings inside a defrost range into DEF only when asked', () => {
    expect(readingTemperature({ temperature: 8.04, error: false }, true, true)).toBe('DEF');
    expect(readingTemperature({ temperature: 8.04, error: false }, true, false)).toBe(8);
    expect(readingTemperature({ temperature: -18.26, error: false }, false, true)).toBe(-18.3);
  });

  it('keeps ERROR for an error reading, even in defrost, and null for none', () => {
    expect(readingTemperature({ temperature: null, error: true }, true, true)).toBe('ERROR');
    expect(readingTemperature({ temperature: null, error: false }, false, true)).toBeNull();
  });
});

describe('alerts and texts', () => {
  it('merges open and pending codes once, in code order; the most important open alert first', () => {
    expect(sensorAlertCodes(['OE00000003', 'OE00000001'], ['OE00000001', 'OE00000002'])).toEqual(['OE00000001', 'OE00000002', 'OE00000003']);
    expect(mostImportantAlert(['OE00000003', 'OE00000001', 'OE00000005'])).toBe('OE00000005');
    expect(mostImportantAlert([])).toBeNull();
  });

  it('writes the status with the sensor status, or that there is no alarm', () => {
    expect(statusTexts([], 0, 'JP')).toEqual([NO_ALERT_TEXT]);
    expect(NO_ALERT_TEXT).toBe('現在警報はありません');
    expect(statusTexts(['OE00000001'], 1, 'JP')).toEqual(['上限温度超過']);
    expect(statusTexts(['OE00000001', 'OE00000003'], 2, 'JP')).toEqual(['温度異常（上限超過）', '電池残量低下']);
  });

  it('shows location 00 when missing, else two digits', () => {
    expect(locationLabel(null)).toBe('00');
    expect(locationLabel(3)).toBe('03');
    expect(locationLabel(12)).toBe('12');
  });
});

describe('popup side (000 §4)', () => {
  it('opens right only when more than 300 px remain on the right', () => {
    expect(popupSide(600, 1000)).toBe('right'); // 400 left
    expect(popupSide(699, 1000)).toBe('right'); // 301
    expect(popupSide(700, 1000)).toBe('left'); // exactly 300
    expect(popupSide(950, 1000)).toBe('left');
  });
});

describe('sparkline', () => {
  it('draws one point per reading over the day and breaks the line at gaps', () => {
    const { path, y } = sparkline(
      [
        { minute: 0, temperature: 4 },
        { minute: 10, temperature: 5 },
        { minute: 600, temperature: 6 },
      ],
      { width: 244, height: 44, limits: [0, 10] },
    );
    expect(path.match(/[ML]/g)).toEqual(['M', 'L', 'M']);
    expect(path.startsWith('M2.0 ')).toBe(true);
    expect(y(10)).toBe(2); // the upper limit at the top
    expect(y(0)).toBe(42);
  });

  it('is empty without readings', () => {
    expect(sparkline([], { width: 100, height: 20 }).path).toBe('');
  });
});

describe('stale readings (issue 11)', () => {
  // 2026-11-24 12:00 Japan time.
  const now = new Date('2026-11-24T03:00:00Z');

  it('leaves a reading younger than the threshold unmarked, and marks one at the threshold with its age', () => {
    expect(staleReadingAge('20261124115900', now, 60)).toBeNull();
    expect(staleReadingAge('20261124110100', now, 60)).toBeNull();
    expect(staleReadingAge('20261124110000', now, 60)).toBe('60分前');
    expect(staleReadingAge('20261124100100', now, 60)).toBe('119分前');
  });

  it('says hours up to two days, then days', () => {
    expect(staleReadingAge('20261123000000', now, 60)).toBe('36時間前');
    expect(staleReadingAge('20261122120100', now, 60)).toBe('47時間前');
    expect(staleReadingAge('20261121120000', now, 60)).toBe('3日前');
  });

  it('has nothing to mark without a reading', () => {
    expect(staleReadingAge(null, now, 60)).toBeNull();
    expect(staleReadings([[1, null], [2, '20261124115000'], [3, '20261123000000']], now, 60)).toEqual({ 3: '36時間前' });
  });

  it('follows the configured threshold', () => {
    expect(staleReadingAge('20261124114500', now, 15)).toBe('15分前');
    expect(staleReadingAge('20261124114500', now, 16)).toBeNull();
  });
});
