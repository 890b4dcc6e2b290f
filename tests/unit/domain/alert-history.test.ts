import { describe, expect, it } from 'vitest';
import {
  ALERT_HISTORY_MESSAGES,
  type AlertHistoryRecord,
  AlertStopSchema,
  alertHistoryCsvRows,
  alertHistoryPageQuerySchema,
  alertHistoryQuerySchema,
  alertHistoryRowView,
  alertHistoryText,
  alertStateText,
  defaultDateRange,
  graphHref,
  isStoppable,
  resolveCategory,
  sensorCategories,
  toApiItem,
} from '~/domain/alert-history';
import { csvLine } from '~/domain/csv';
import { fromJapan } from '~/domain/japan-time';

const NOW = fromJapan(2026, 11, 21, 0, 30); // 2026-11-20T15:30Z: already the 21st in Japan

function record(overrides: Partial<AlertHistoryRecord> = {}): AlertHistoryRecord {
  return {
    alertHistoryId: 7,
    storeId: 'S001',
    equipmentId: 3,
    equipmentName: 'チルドケース1',
    alertId: 'OE00000001',
    alertData1: '12.4',
    temperature: 12.4,
    simulatedTemperature: null,
    lowerLimit: 0,
    upperLimit: 10,
    startedAt: fromJapan(2026, 11, 20, 23, 45, 12, 345),
    recoveredAt: null,
    stoppedAt: null,
    stoppedByName: null,
    stopComment: null,
    acknowledgedAt: null,
    acknowledgedByName: null,
    correctiveAction: null,
    acknowledgeNote: null,
    latestOfPair: true,
    ...overrides,
  };
}

describe('date range', () => {
  it('defaults to the last month up to today in Japan time, whatever the server TZ', () => {
    expect(defaultDateRange(NOW)).toEqual({ startDate: '20261021', endDate: '20261121' });
    expect(defaultDateRange(fromJapan(2026, 3, 31, 12))).toEqual({ startDate: '20260228', endDate: '20260331' });
    expect(defaultDateRange(fromJapan(2027, 1, 15))).toEqual({ startDate: '20261215', endDate: '20270115' });
  });

  it('reads both dates inclusively as Japan days', () => {
    const query = alertHistoryQuerySchema(NOW).parse({ store_id: 'S001', start_date: '20261101', end_date: '20261110' });
    expect(query.range.from.toISOString()).toBe('2026-10-31T15:00:00.000Z');
    expect(query.range.to.toISOString()).toBe('2026-11-10T15:00:00.000Z');
    expect(query).toMatchObject({ storeId: 'S001', equipmentIds: null, pageNo: 1, pageCount: 10 });
  });

  it('fills the missing dates: today as the end, one month before the end as the start', () => {
    expect(alertHistoryQuerySchema(NOW).parse({ store_id: 'S001' }).range).toMatchObject({ startDate: '20261021', endDate: '20261121' });
    expect(alertHistoryQuerySchema(NOW).parse({ store_id: 'S001', end_date: '20260930' }).range).toMatchObject({ startDate: '20260830', endDate: '20260930' });
  });

  it('accepts the YYYY-MM-DD of a date input on the page', () => {
    const query = alertHistoryPageQuerySchema(NOW).parse({ start_date: '2026-11-01', end_date: '2026-11-05' });
    expect(query.range).toMatchObject({ startDate: '20261101', endDate: '20261105' });
  });

  it('puts a start after the end, a malformed date and a too long range on the field', () => {
    const errors = (input: Record<string, string>) => {
      const result = alertHistoryPageQuerySchema(NOW).safeParse(input);
      return result.success ? {} : Object.fromEntries(result.error.issues.map((issue) => [issue.path.join('.'), issue.message]));
    };
    expect(errors({ start_date: '20261110', end_date: '20261101' })).toEqual({ end_date: ALERT_HISTORY_MESSAGES.startAfterEnd });
    expect(errors({ start_date: '20261301' })).toEqual({ start_date: ALERT_HISTORY_MESSAGES.badDate });
    expect(errors({ end_date: '2026/11/31' })).toEqual({ end_date: ALERT_HISTORY_MESSAGES.badDate });
    expect(errors({ start_date: '20250101', end_date: '20261101' })).toEqual({ end_date: ALERT_HISTORY_MESSAGES.rangeTooLong });
    expect(errors({ start_date: '20261120', end_date: '20261120' })).toEqual({});
    // A start in the future with no end is after today.
    expect(errors({ start_date: '20261201' })).toEqual({ end_date: ALERT_HISTORY_MESSAGES.startAfterEnd });
  });
});

describe('API query', () => {
  it('reads equipment_id as a comma list and needs it or store_id', () => {
    expect(alertHistoryQuerySchema(NOW).parse({ equipment_id: '1, 2,2,30' }).equipmentIds).toEqual([1, 2, 30]);
    const missing = alertHistoryQuerySchema(NOW).safeParse({});
    expect(missing.success).toBe(false);
    expect(missing.error?.issues[0].path).toEqual(['equipment_id']);
    for (const bad of [{ equipment_id: 'a,b' }, { equipment_id: '1,-2' }, { equipment_id: '0' }, { store_id: 'S001', page_no: '0' }, { store_id: 'S001', page_count: '500' }]) {
      expect(alertHistoryQuerySchema(NOW).safeParse(bad).success).toBe(false);
    }
  });
});

describe('stop input', () => {
  it('takes the pair and an optional comment of at most 200 characters', () => {
    expect(AlertStopSchema.parse({ equipment_id: 3, alert_id: 'OE00000002' })).toEqual({ equipment_id: 3, alert_id: 'OE00000002', comment: null });
    expect(AlertStopSchema.parse({ equipment_id: '3', alert_id: 'OE00000001', comment: '  扉を閉めました ' }).comment).toBe('扉を閉めました');
    expect(AlertStopSchema.parse({ equipment_id: 3, alert_id: 'OE00000001', comment: '' }).comment).toBeNull();
    expect(AlertStopSchema.parse({ equipment_id: 3, alert_id: 'OE00000001', comment: '😀'.repeat(200) }).comment).toHaveLength(400);
    const long = AlertStopSchema.safeParse({ equipment_id: 3, alert_id: 'OE00000001', comment: 'あ'.repeat(201) });
    expect(long.error?.issues[0]).toMatchObject({ path: ['comment'], message: ALERT_HISTORY_MESSAGES.commentTooLong });
    expect(AlertStopSchema.safeParse({ equipment_id: 3, alert_id: 'OE99' }).success).toBe(false);
    expect(AlertStopSchema.safeParse({ equipment_id: 'x', alert_id: 'OE00000001' }).success).toBe(false);
  });
});

describe('rows', () => {
  it('offers the stop only on the latest active, unstopped record of a sensor pair', () => {
    expect(isStoppable(record())).toBe(true);
    expect(isStoppable(record({ latestOfPair: false }))).toBe(false);
    expect(isStoppable(record({ recoveredAt: NOW }))).toBe(false);
    expect(isStoppable(record({ stoppedAt: NOW }))).toBe(false);
    expect(isStoppable(record({ equipmentId: null, alertId: 'OE00000005' }))).toBe(false);
  });

  it('links only sensor upper and lower limit alerts to the graph of their day', () => {
    expect(graphHref('S 1', record())).toBe('/stores/S%201/temp_graphs?equipment_id=3&start_date=20261120');
    expect(graphHref('S001', record({ alertId: 'OE00000002', startedAt: fromJapan(2026, 11, 21, 0, 5) }))).toBe('/stores/S001/temp_graphs?equipment_id=3&start_date=20261121');
    for (const alertId of ['OE00000003', 'OE00000004', 'OE00000005']) expect(graphHref('S001', record({ alertId }))).toBeNull();
    expect(graphHref('S001', record({ equipmentId: null }))).toBeNull();
  });

  it('words an open temperature alert as an abnormality, a recovered one as exceeded, a gateway row as the gateway', () => {
    expect(alertHistoryText(record(), 'JP')).toBe('温度異常（上限超過）');
    expect(alertHistoryText(record({ recoveredAt: NOW }), 'JP')).toBe('上限温度超過');
    expect(alertHistoryText(record({ alertId: 'OE00000003' }), 'JP')).toBe('電池残量低下');
    expect(alertHistoryText(record({ equipmentId: null, alertId: 'OE00000005' }), 'JP')).toBe('ゲートウェイと長時間通信がありません');
    // The gateway's own alarms are not its silence (issue 33 item 10).
    expect(alertHistoryText(record({ equipmentId: null, alertId: 'OE00000006' }), 'JP')).toBe('ゲートウェイのバッファ残量低下（データ欠損のおそれ）');
    expect(alertHistoryText(record({ equipmentId: null, alertId: 'OE00000007' }), 'US')).toBe('Gateway buffer overflowed: readings lost');
    expect(alertHistoryText(record({ alertId: 'OE00000002' }), 'US')).toBe('Temperature abnormal (below lower limit)');
  });

  it('shows the state with recovery and stop times', () => {
    expect(alertStateText(record())).toBe('発生中');
    expect(alertStateText(record({ stoppedAt: fromJapan(2026, 11, 21, 0, 10), stoppedByName: '山田 太郎' }))).toBe('停止中 （停止 2026/11/21 00:10 山田 太郎）');
    expect(alertStateText(record({ recoveredAt: fromJapan(2026, 11, 21, 0, 20) }))).toBe('復旧 2026/11/21 00:20');
  });

  it('shapes a row for the list: Japan time, units, ERROR styled, -- for missing', () => {
    const view = alertHistoryRowView(record(), 'S001', 'JP');
    expect(view).toMatchObject({ startedAt: '2026/11/20 23:45', sensorName: 'チルドケース1', alertData: '12.4℃', lowerLimit: '0.0℃', upperLimit: '10.0℃', state: 'active', stoppable: true, isError: false });
    const error = alertHistoryRowView(record({ alertId: 'OE00000004', alertData1: 'ERROR', lowerLimit: null }), 'S001', 'JP');
    expect(error).toMatchObject({ alertData: 'ERROR', isError: true, lowerLimit: '--', graphHref: null });
    expect(alertHistoryRowView(record({ alertData1: null, equipmentId: null, equipmentName: null }), 'S001', 'JP')).toMatchObject({ alertData: '--', sensorName: 'ゲートウェイ' });
  });

  it('writes the wire format with start_date to the millisecond in Japan time', () => {
    const item = toApiItem(record({ stoppedAt: fromJapan(2026, 11, 21, 0, 10), stoppedByName: '山田', stopComment: '確認済み' }));
    expect(item).toEqual({
      alert_id: 'OE00000001',
      equipment_id: 3,
      alert_data1: '12.4',
      lower_limit: 0,
      upper_limit: 10,
      start_date: '20261120234512345',
      alert_history_id: 7,
      store_id: 'S001',
      equipment_name: 'チルドケース1',
      recovered_date: null,
      stopped: 1,
      stopped_date: '20261121001000000',
      stopped_by_name: '山田',
      stop_comment: '確認済み',
      stoppable: 0,
      simulated_temperature: null,
      acknowledged_date: null,
      acknowledged_by_name: null,
      corrective_action: null,
      acknowledge_note: null,
    });
  });
});

describe('the value of a temperature alert (decision 278)', () => {
  it('reads 推定品温 x（実測 y） when the simulation damped it, the reading alone otherwise', () => {
    expect(alertHistoryRowView(record({ alertData1: '5.0', temperature: 5, simulatedTemperature: 10.4 }), 'S001', 'JP').alertData).toBe('推定品温 10.4℃（実測 5.0℃）');
    expect(alertHistoryRowView(record({ simulatedTemperature: 12.4 }), 'S001', 'JP').alertData).toBe('12.4℃');
    expect(alertHistoryRowView(record({ simulatedTemperature: null }), 'S001', 'JP').alertData).toBe('12.4℃');
    expect(toApiItem(record({ simulatedTemperature: 10.4 }))).toMatchObject({ alert_data1: '12.4', simulated_temperature: 10.4 });
  });
});

describe('CSV rows', () => {
  it('has a header and one row per record, with the stop and a formula-safe comment', () => {
    const rows = alertHistoryCsvRows(
      [
        record({ stoppedAt: fromJapan(2026, 11, 21, 0, 10), stoppedByName: '山田 太郎', stopComment: '=HYPERLINK("x")' }),
        record({ alertHistoryId: 6, alertId: 'OE00000004', alertData1: 'ERROR', recoveredAt: fromJapan(2026, 11, 20, 22) }),
      ],
      'JP',
    );
    expect(rows[0]).toEqual(['発生日時', 'センサ名', '警報内容', '温度', '推定品温', '下限温度', '上限温度', '状態', '復旧日時', '停止日時', '停止者', '対応コメント', '確認日時', '確認者', '改善措置', '確認メモ']);
    expect(rows[1]).toEqual(['2026/11/20 23:45', 'チルドケース1', '温度異常（上限超過）', '12.4', '', '0.0', '10.0', '停止中', '', '2026/11/21 00:10', '山田 太郎', '=HYPERLINK("x")', '', '', null, null]);
    expect(csvLine(rows[1])).toContain(`,山田 太郎,"'=HYPERLINK(""x"")",,,,\r\n`); // the writer guards it
    expect(rows[2]).toEqual(['2026/11/20 23:45', 'チルドケース1', 'センサ異常（温度が取得できません）', 'ERROR', '', '0.0', '10.0', '復旧', '2026/11/20 22:00', '', '', null, '', '', null, null]);
  });

  it('shows the acknowledgement with its corrective action in the CSV, the list and the API (decision 237)', () => {
    const acknowledged = record({ acknowledgedAt: fromJapan(2026, 11, 21, 0, 5), acknowledgedByName: '佐藤 花子', correctiveAction: '商品を別の冷蔵庫へ移動', acknowledgeNote: '霜取り後に再確認' });
    expect(alertHistoryCsvRows([acknowledged], 'JP')[1].slice(-4)).toEqual(['2026/11/21 00:05', '佐藤 花子', '商品を別の冷蔵庫へ移動', '霜取り後に再確認']);
    expect(alertHistoryRowView(acknowledged, 'S001', 'JP').acknowledgement).toBe('確認 2026/11/21 00:05 佐藤 花子: 商品を別の冷蔵庫へ移動（メモ: 霜取り後に再確認）');
    expect(alertHistoryRowView(record(), 'S001', 'JP').acknowledgement).toBeNull();
    expect(toApiItem(acknowledged)).toMatchObject({ acknowledged_by_name: '佐藤 花子', corrective_action: '商品を別の冷蔵庫へ移動', acknowledge_note: '霜取り後に再確認' });
    expect(toApiItem(acknowledged).acknowledged_date).toBe('20261121000500000');
  });
});

describe('category menu', () => {
  const sensors = [
    { equipmentId: 1, equipmentName: 'アイスケース', iconKind: 13, locationNo: 2 },
    { equipmentId: 2, equipmentName: 'チルドB', iconKind: 3, locationNo: 5 },
    { equipmentId: 3, equipmentName: 'チルドA', iconKind: 3, locationNo: 1 },
    { equipmentId: 4, equipmentName: '惣菜', iconKind: 18, locationNo: null },
  ];

  it('groups the sensors by furniture kind in the specification order, sensors by location', () => {
    const categories = sensorCategories(sensors);
    expect(categories.map((c) => [c.kind, c.label, c.sensors.map((s) => s.equipmentId)])).toEqual([
      [3, 'チルド1', [3, 2]],
      [13, 'アイス', [1]],
      [18, '惣菜1', [4]],
    ]);
  });

  it('resolves all, a kind and sensors to the equipment filter', () => {
    expect(resolveCategory({ kind: null, equipmentIds: null }, sensors)).toEqual({ selection: { type: 'all' }, equipmentIds: null });
    expect(resolveCategory({ kind: 3, equipmentIds: null }, sensors)).toEqual({ selection: { type: 'kind', kind: 3 }, equipmentIds: [2, 3] });
    expect(resolveCategory({ kind: 9, equipmentIds: null }, sensors).equipmentIds).toEqual([]);
    expect(resolveCategory({ kind: 3, equipmentIds: [4] }, sensors)).toEqual({ selection: { type: 'sensors', equipmentIds: [4] }, equipmentIds: [4] });
  });
});
