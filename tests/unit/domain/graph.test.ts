import { describe, expect, it } from 'vitest';
import { type AlertStopSchedule, SCHEDULE_TYPE, TERM_TYPE, TIME_TARGET_TYPE } from '~/domain/alert-stop-schedule';
import {
  GRAPH_PALETTE,
  addPanel,
  alertStopRangesInPeriod,
  axisRange,
  axisTicks,
  chartSummary,
  bucketWindow,
  dailyRangesInPeriod,
  denseSeries,
  graphPeriod,
  measurementCsvRow,
  otherPanelFields,
  panelsSearch,
  parsePanels,
  periodLabel,
  removePanel,
  sensorColour,
  shadesDefrost,
  shiftPeriod,
  slotLabel,
  slotOf,
  slotOfReading,
  tenMinuteBucket,
  thresholdBands,
  tickLabel,
} from '~/domain/graph';
import { csvLine } from '~/domain/csv';
import { MeasurementCommentSchema, MeasurementCsvQuerySchema } from '~/domain/graph-schemas';
import { fromJapan, toCompactDateTime } from '~/domain/japan-time';

/** "YYYY/MM/DD HH:mm(:ss)" Japan time. 2026/11/21 is a Saturday. */
function jst(value: string): Date {
  const [y, mo, d, h = 0, mi = 0, s = 0] = value.split(/[/ :]/).map(Number);
  return fromJapan(y, mo, d, h, mi, s);
}

describe('bucketing by rounding to 10 minutes (000 §9)', () => {
  it.each([
    ['2026/11/20 12:04:59', '20261120120000'],
    ['2026/11/20 12:05:00', '20261120121000'], // half-way rounds up
    ['2026/11/20 12:00:00', '20261120120000'],
    ['2026/11/20 11:55:00', '20261120120000'],
    ['2026/11/20 23:57:00', '20261121000000'], // the next day's 00:00
  ])('%s → %s', (at, bucket) => {
    expect(toCompactDateTime(tenMinuteBucket(jst(at)))).toBe(bucket);
  });

  it('puts a day on 144 slots 00:00 … 23:50, a reading on the slot nearest to it', () => {
    const day = graphPeriod('day', '20261120');
    expect(day.slotCount).toBe(144);
    expect(slotLabel(day, 0)).toBe('00:00');
    expect(slotLabel(day, 143)).toBe('23:50');
    expect(slotOfReading(day, jst('2026/11/20 00:04'))).toBe(0);
    expect(slotOfReading(day, jst('2026/11/20 00:05'))).toBe(1);
    expect(slotOfReading(day, jst('2026/11/19 23:56'))).toBe(0); // rounds onto this day's 00:00
    expect(slotOfReading(day, jst('2026/11/20 23:54'))).toBe(143);
    expect(slotOfReading(day, jst('2026/11/20 23:55'))).toBe(144); // the next day's slot 0
  });

  it('rounds the 10-minute buckets again to 30 minutes a week and to the hour a month', () => {
    const week = graphPeriod('week', '20261120');
    expect(week.slotCount).toBe(7 * 48);
    expect(slotOf(week, jst('2026/11/15 00:10'))).toBe(0);
    expect(slotOf(week, jst('2026/11/15 00:20'))).toBe(1);
    expect(slotOf(week, jst('2026/11/14 23:50'))).toBe(0);
    const month = graphPeriod('month', '20261120');
    expect(month.slotCount).toBe(30 * 24);
    expect(slotOf(month, jst('2026/11/01 00:20'))).toBe(0);
    expect(slotOf(month, jst('2026/11/01 00:30'))).toBe(1);
    expect(slotOf(month, jst('2026/10/31 23:30'))).toBe(0);
  });

  it('reads the buckets that round into the period', () => {
    const day = graphPeriod('day', '20261120');
    expect(bucketWindow(day)).toEqual({ from: jst('2026/11/19 23:55'), to: jst('2026/11/20 23:55') });
    const month = graphPeriod('month', '20261101');
    expect(bucketWindow(month)).toEqual({ from: jst('2026/10/31 23:30'), to: jst('2026/11/30 23:30') });
  });

  it('leaves slots without readings empty so the line breaks there', () => {
    expect(denseSeries([[0, 4.5], [2, 5.1], [9, 1]], 4)).toEqual([4.5, null, 5.1, null]);
  });
});

describe('periods in Japan time', () => {
  it('takes the day, the Sunday-to-Saturday week and the calendar month of a date', () => {
    const day = graphPeriod('day', '20261120');
    expect(day.since).toEqual(jst('2026/11/20 00:00'));
    expect(day.until).toEqual(jst('2026/11/21 00:00'));
    expect(day.since.toISOString()).toBe('2026-11-19T15:00:00.000Z');
    const week = graphPeriod('week', '20261120'); // a Friday
    expect(week.startDate).toBe('20261115');
    expect(week.until).toEqual(jst('2026/11/22 00:00'));
    expect(graphPeriod('week', '20261115').startDate).toBe('20261115'); // a Sunday starts its own week
    const month = graphPeriod('month', '20260215');
    expect(month.startDate).toBe('20260201');
    expect(month.slotCount).toBe(28 * 24);
  });

  it('moves to the previous and next day, week and month', () => {
    expect(shiftPeriod(graphPeriod('day', '20260301'), -1)).toBe('20260228');
    expect(shiftPeriod(graphPeriod('day', '20261231'), 1)).toBe('20270101');
    expect(shiftPeriod(graphPeriod('week', '20261120'), -1)).toBe('20261108');
    expect(shiftPeriod(graphPeriod('week', '20261120'), 1)).toBe('20261122');
    expect(shiftPeriod(graphPeriod('month', '20260131'), 1)).toBe('20260201');
    expect(shiftPeriod(graphPeriod('month', '20260115'), -1)).toBe('20251201');
  });

  it('labels the period and the ticks', () => {
    expect(periodLabel(graphPeriod('day', '20261120'))).toBe('2026/11/20');
    expect(periodLabel(graphPeriod('week', '20261120'))).toBe('2026/11/15 〜 2026/11/21');
    expect(periodLabel(graphPeriod('month', '20261120'))).toBe('2026/11');
    const day = graphPeriod('day', '20261120');
    expect(tickLabel(day, 6)).toBe('01:00');
    expect(tickLabel(day, 7)).toBeNull();
    const week = graphPeriod('week', '20261120');
    expect(tickLabel(week, 0)).toBe('11/15(日)');
    expect(tickLabel(week, 48)).toBe('11/16(月)');
    expect(slotLabel(week, 1)).toBe('11/15 00:30');
    const month = graphPeriod('month', '20261120');
    expect([0, 24, 48].map((slot) => tickLabel(month, slot))).toEqual(['11/1', '', '11/3']);
  });

  it('keeps every tick on a desktop axis and thins them on a phone so the labels never touch (issue 11)', () => {
    const day = graphPeriod('day', '20261120');
    const slots = day.slotCount;
    expect(axisTicks(day, slots, 1200)).toHaveLength(24);
    const phone = axisTicks(day, slots, 300);
    expect(phone.map((slot) => tickLabel(day, slot))).toEqual(['00:00', '04:00', '08:00', '12:00', '16:00', '20:00']);
    const week = graphPeriod('week', '20261120');
    expect(axisTicks(week, week.slotCount, 1200)).toHaveLength(7);
    expect(axisTicks(week, week.slotCount, 300).map((slot) => tickLabel(week, slot))).toEqual(['11/15(日)', '11/17(火)', '11/19(木)', '11/21(土)']);
    const month = graphPeriod('month', '20261120');
    expect(axisTicks(month, month.slotCount, 300).length).toBeLessThanOrEqual(15);
  });
});

describe('y-axis and bands', () => {
  it('pads 10 °C below and above the values, on whole degrees', () => {
    expect(axisRange([3.2, 5.8, -1.5])).toEqual({ min: -12, max: 16 });
    expect(axisRange([-20.4, -18])).toEqual({ min: -31, max: -8 });
  });

  it('falls back to the gauge marks 0 and 30 with the padding when nothing is shown', () => {
    expect(axisRange([])).toEqual({ min: -10, max: 40 });
  });

  it('shades outside the limits within −30 … 60 only when one sensor is shown', () => {
    expect(thresholdBands([{ lowerLimit: 0, upperLimit: 10 }])).toEqual([{ from: -30, to: 0 }, { from: 10, to: 60 }]);
    expect(thresholdBands([{ lowerLimit: 0, upperLimit: 10 }, { lowerLimit: -25, upperLimit: -15 }])).toEqual([]);
    expect(thresholdBands([{ lowerLimit: null, upperLimit: null }])).toEqual([]);
    expect(thresholdBands([{ lowerLimit: -30, upperLimit: 60 }])).toEqual([]);
  });

  it('has 20 distinct colours by sensor order, repeating after 20', () => {
    expect(new Set(GRAPH_PALETTE).size).toBe(20);
    expect(sensorColour(0)).toBe(GRAPH_PALETTE[0]);
    expect(sensorColour(19)).toBe(GRAPH_PALETTE[19]);
    expect(sensorColour(20)).toBe(GRAPH_PALETTE[0]);
  });
});

describe('shaded time ranges', () => {
  it('repeats the defrost ranges on each day of the period, in minutes from its start', () => {
    const ranges = [{ start: 120, end: 150 }, { start: 840, end: 870 }];
    expect(dailyRangesInPeriod(ranges, graphPeriod('day', '20261120'))).toEqual([[120, 150], [840, 870]]);
    const week = dailyRangesInPeriod(ranges, graphPeriod('week', '20261120'));
    expect(week).toHaveLength(14);
    expect(week[2]).toEqual([1440 + 120, 1440 + 150]);
  });

  it('shades defrost for up to 3 sensors on a day or a week, never on a month', () => {
    expect(shadesDefrost('day', 1)).toBe(true);
    expect(shadesDefrost('week', 3)).toBe(true);
    expect(shadesDefrost('day', 4)).toBe(false);
    expect(shadesDefrost('month', 1)).toBe(false);
  });

  const stop = (overrides: Partial<AlertStopSchedule>): AlertStopSchedule => ({
    scheduleType: SCHEDULE_TYPE.sequential,
    termType: TERM_TYPE.daily,
    startDate: '20261120',
    endDate: '20261120',
    weekdays: Array(7).fill(false),
    timeTargetType: TIME_TARGET_TYPE.store,
    times: [{ equipmentId: null, start: 600, end: 630 }, { equipmentId: null, start: 630, end: 720 }],
    ...overrides,
  });

  it('marks the store-wide alert-stop windows on their days, joined when they touch', () => {
    expect(alertStopRangesInPeriod([stop({})], [1], graphPeriod('day', '20261120'))).toEqual([[600, 720]]);
    expect(alertStopRangesInPeriod([stop({})], [1], graphPeriod('day', '20261121'))).toEqual([]);
    expect(alertStopRangesInPeriod([stop({})], [1], graphPeriod('week', '20261120'))).toEqual([[5 * 1440 + 600, 5 * 1440 + 720]]);
    expect(alertStopRangesInPeriod([stop({})], [], graphPeriod('day', '20261120'))).toEqual([]);
  });

  it('marks per-sensor windows only when that sensor is shown', () => {
    const perSensor = stop({ timeTargetType: TIME_TARGET_TYPE.sensor, times: [{ equipmentId: 7, start: 60, end: 90 }] });
    expect(alertStopRangesInPeriod([perSensor], [1, 7], graphPeriod('day', '20261120'))).toEqual([[60, 90]]);
    expect(alertStopRangesInPeriod([perSensor], [1], graphPeriod('day', '20261120'))).toEqual([]);
  });
});

describe('the page URL', () => {
  it('pre-checks the equipment_id of a link and opens its start_date as a day', () => {
    const [panel] = parsePanels(new URLSearchParams('equipment_id=12&start_date=20261120'), '20261122');
    expect(panel).toEqual({ unit: 'day', date: '20261120', equipmentIds: [12] });
  });

  it('reads every sensor by default, an explicit empty list as none, and ignores bad values', () => {
    expect(parsePanels(new URLSearchParams(''), '20261122')).toEqual([{ unit: 'day', date: '20261122', equipmentIds: null }]);
    expect(parsePanels(new URLSearchParams('equipment_id='), '20261122')[0].equipmentIds).toEqual([]);
    expect(parsePanels(new URLSearchParams('equipment_id=&equipment_id=3&equipment_id=x,4,3'), 'x')[0].equipmentIds).toEqual([3, 4]);
    expect(parsePanels(new URLSearchParams('unit=year&start_date=20260231'), '20261122')[0]).toMatchObject({ unit: 'day', date: '20261122' });
    expect(parsePanels(new URLSearchParams('start_date=2026-11-01'), '20261122')[0].date).toBe('20261101');
  });

  it('keeps the second panel under p2_ and writes it back', () => {
    const panels = parsePanels(new URLSearchParams('equipment_id=1,2&unit=week&start_date=20261120&p2_unit=month&p2_start_date=20261001&p2_equipment_id=3'), '20261122');
    expect(panels).toEqual([
      { unit: 'week', date: '20261120', equipmentIds: [1, 2] },
      { unit: 'month', date: '20261001', equipmentIds: [3] },
    ]);
    expect(parsePanels(panelsSearch(panels), 'x')).toEqual(panels);
    expect(otherPanelFields(panels, 0)).toEqual([['p2_equipment_id', '3'], ['p2_unit', 'month'], ['p2_start_date', '20261001']]);
    expect(otherPanelFields(panels, 1).map(([name]) => name)).toEqual(['equipment_id', 'unit', 'start_date']);
  });

  it('adds a second panel like the first, ignores a third, and never removes the first', () => {
    const one = [{ unit: 'day' as const, date: '20261120', equipmentIds: [1] }];
    const two = addPanel(one);
    expect(two).toEqual([one[0], one[0]]);
    expect(addPanel(two)).toHaveLength(2);
    expect(removePanel(two, 0)).toHaveLength(2);
    expect(removePanel(two, 1)).toEqual(one);
  });
});

describe('inputs of the calls', () => {
  it('parses the CSV query and refuses bad ids and dates with the field', () => {
    const ok = MeasurementCsvQuerySchema.parse({ equipment_id: '1, 2,2', since: '20261101000000', until: '20261130235959' });
    expect(ok.equipment_id).toEqual([1, 2]);
    const field = (input: Record<string, string>) => {
      const result = MeasurementCsvQuerySchema.safeParse(input);
      return result.success ? null : result.error.issues[0].path[0];
    };
    expect(field({ equipment_id: 'a', since: '20261101000000', until: '20261102000000' })).toBe('equipment_id');
    expect(field({ equipment_id: '1', since: '20261301000000', until: '20261302000000' })).toBe('since');
    expect(field({ equipment_id: '1', since: '20261102000000', until: '20261101000000' })).toBe('until');
    expect(field({ equipment_id: '1', since: '20261001000000', until: '20261201000000' })).toBe('since');
    expect(field({ equipment_id: '1', since: '20261101000000' })).toBe('until');
  });

  it('trims a comment and refuses one over 200 characters', () => {
    expect(MeasurementCommentSchema.parse({ equipment_id: '5', start_date: '20261120120000', comment: '  扉開放  ' })).toMatchObject({ equipment_id: 5, comment: '扉開放' });
    expect(MeasurementCommentSchema.safeParse({ equipment_id: 5, start_date: '20261120120000', comment: 'x'.repeat(201) }).success).toBe(false);
  });
});

describe('CSV rows', () => {
  it('writes one row per reading in Japan time, ERROR for an error reading, formulas neutralised', () => {
    const sensor = { equipmentId: 7, equipmentName: '=冷蔵, 1' };
    const row = measurementCsvRow(sensor, { measuredAt: jst('2026/11/20 09:05:12'), temperature: 4, error: false, battery: 80, receiveSensitivity: -62, comment: '扉"開放"' });
    expect(csvLine(row)).toBe(`7,"'=冷蔵, 1",2026/11/20 09:05:12,4.0,80,-62,"扉""開放"""\r\n`);
    expect(measurementCsvRow(sensor, { measuredAt: jst('2026/11/20 09:06'), temperature: null, error: true, battery: null, receiveSensitivity: null, comment: null }).slice(3)).toEqual(['ERROR', '', '', null]);
  });
});

describe('the chart in words (issue 11)', () => {
  it('gives each sensor shown its lowest, highest and last value, and the limits drawn', () => {
    const sensors = [
      { name: '冷蔵ケースA', values: [4.2, null, 3.1, 6.8, 5.0, null] },
      { name: '冷凍庫', values: [null, null] },
    ];
    expect(chartSummary(sensors, [0, 10])).toBe('冷蔵ケースA: 最低 3.1℃、最高 6.8℃、最後 5.0℃。冷凍庫: この期間の計測データはありません。警報の上下限: 0.0℃、10.0℃');
  });

  it('says when no sensor is shown', () => {
    expect(chartSummary([], [])).toBe('センサを選択してください');
  });
});
