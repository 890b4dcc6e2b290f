// Scenarios of the alert engine: a table of readings (Japan time on Saturday 2026-11-21 unless a
// MM/DD prefix says otherwise) and the transitions it must produce.
import { describe, expect, it } from 'vitest';
import {
  type AlertTransition,
  emptySensorAlertState,
  evaluate,
  evaluateGatewayContact,
  evaluateGatewaySilence,
  evaluateSilence,
  type Reading,
  sensorAlertSummary,
  type SensorAlertState,
  SensorAlertStateSchema,
  type SensorSettings,
  stopAlert,
} from '~/domain/alert-engine';
import { storeStatus } from '~/domain/store-status';
import { alertText, gatewayDownText, isAlertCode, isTemperatureAlert } from '~/domain/alert-codes';
import { type AlertStopSchedule, SCHEDULE_TYPE, TERM_TYPE, TIME_TARGET_TYPE } from '~/domain/alert-stop-schedule';
import { fromJapan, japanParts } from '~/domain/japan-time';

/** Time constant 1 % (tau 6 s) keeps the damped value at the raw one, so most tables read plainly. */
const BASE: SensorSettings = {
  equipmentId: 1,
  lowerLimit: null,
  upperLimit: null,
  guardTime: null,
  snoozingTime: null,
  timeConstant: 1,
  defrostRanges: [],
};

/** "HH:mm" on 2026-11-21, or "MM/DD HH:mm", Japan time. */
function jst(time: string): Date {
  const m = /^(?:(\d{2})\/(\d{2}) )?(\d{2}):(\d{2})$/.exec(time.trim());
  if (!m) throw new Error(`bad time: ${time}`);
  return fromJapan(2026, m[1] ? Number(m[1]) : 11, m[2] ? Number(m[2]) : 21, Number(m[3]), Number(m[4]));
}

/**
 * One row per line: "TIME temperature [battery]", or "TIME-HH:mm temperature [battery]" for one
 * reading a minute over the range, both ends included. Temperature ERR is an error reading.
 */
function readings(table: string): Reading[] {
  return table
    .trim()
    .split('\n')
    .flatMap((row) => {
      const m = /^((?:\d{2}\/\d{2} )?\d{2}:\d{2})(?:-(\d{2}:\d{2}))?\s+(\S+)(?:\s+(\S+))?$/.exec(row.trim());
      if (!m) throw new Error(`bad row: ${row}`);
      const [, from, to, temperature, battery] = m;
      const first = jst(from);
      const last = to ? jst(from.replace(/\d{2}:\d{2}$/, to)) : first;
      const reading = (measuredAt: Date): Reading => ({
        measuredAt,
        temperature: temperature === 'ERR' ? null : Number(temperature),
        error: temperature === 'ERR',
        battery: battery === undefined ? null : Number(battery),
      });
      const rows: Reading[] = [];
      for (let t = first.getTime(); t <= last.getTime(); t += 60_000) rows.push(reading(new Date(t)));
      return rows;
    });
}

const pad = (n: number) => String(n).padStart(2, '0');

function clock(at: Date): string {
  const p = japanParts(at);
  const time = `${pad(p.hour)}:${pad(p.minute)}`;
  return p.day === 21 ? time : `${pad(p.month)}/${pad(p.day)} ${time}`;
}

/** "10:04 open OE00000001", with " silent" when nobody is to be mailed. */
function line(transition: AlertTransition): string {
  return `${clock(transition.at)} ${transition.type} ${transition.code}${transition.notify ? '' : ' silent'}`;
}

interface Options {
  settings?: Partial<SensorSettings>;
  stopWindows?: AlertStopSchedule[];
  state?: SensorAlertState;
}

function run(table: string, { settings = {}, stopWindows = [], state = emptySensorAlertState() }: Options = {}) {
  const result = evaluate({ ...BASE, ...settings }, state, readings(table), { stopWindows });
  return { ...result, lines: result.transitions.map(line) };
}

/** A store-wide stop window on 2026-11-21 (sequential, daily). */
function stopOn(start: number, end: number, target: { equipmentId: number } | 'store' = 'store'): AlertStopSchedule {
  return {
    scheduleType: SCHEDULE_TYPE.sequential,
    termType: TERM_TYPE.daily,
    startDate: '20261121',
    endDate: '20261121',
    weekdays: Array(7).fill(false),
    timeTargetType: target === 'store' ? TIME_TARGET_TYPE.store : TIME_TARGET_TYPE.sensor,
    times: [{ equipmentId: target === 'store' ? null : target.equipmentId, start, end }],
  };
}

const hours = (h: number, m = 0) => h * 60 + m;

describe('temperature limits and guard time', () => {
  it('opens an upper-limit alert once the value has been above the limit for the guard time', () => {
    const { lines } = run(
      `
      10:00       4.0
      10:01-10:04 6.0
      10:05       4.8
      10:06       4.5
      `,
      { settings: { upperLimit: 5, guardTime: 3 } },
    );
    expect(lines).toEqual(['10:04 open OE00000001', '10:06 recover OE00000001']);
  });

  it('shows the sensor as pending (status 1) while the guard time runs, then as alerting (status 2)', () => {
    const settings = { upperLimit: 5, guardTime: 3 };
    const pending = run('10:00-10:02 6.0', { settings });
    expect(pending.lines).toEqual([]);
    expect(sensorAlertSummary(pending.state)).toEqual({ status: 1, openCodes: [], pendingCodes: ['OE00000001'] });

    const alerting = run('10:03 6.0', { settings, state: pending.state });
    expect(alerting.lines).toEqual(['10:03 open OE00000001']);
    expect(sensorAlertSummary(alerting.state)).toEqual({ status: 2, openCodes: ['OE00000001'], pendingCodes: [] });
  });

  it('forgets an excursion shorter than the guard time', () => {
    const { lines, state } = run(
      `
      10:00-10:02 6.0
      10:03       4.0
      10:04-10:06 6.0
      10:07       5.0
      `,
      { settings: { upperLimit: 5, guardTime: 3 } },
    );
    expect(lines).toEqual([]);
    expect(sensorAlertSummary(state).status).toBe(0);
  });

  it.each([null, 0])('opens at the first reading outside when the guard time is %s', (guardTime) => {
    const { lines } = run('10:00 4.0\n10:01 5.1', { settings: { upperLimit: 5, guardTime } });
    expect(lines).toEqual(['10:01 open OE00000001']);
  });

  it('treats a value equal to a limit as inside', () => {
    expect(run('10:00-10:10 5.0\n10:11-10:20 -20.0', { settings: { lowerLimit: -20, upperLimit: 5 } }).lines).toEqual([]);
  });

  it('opens a lower-limit alert and recovers it only 0.5 °C back inside (hysteresis)', () => {
    const { lines } = run(
      `
      10:00-10:02 -21.0
      10:03       -19.6
      10:04       -20.1
      10:05       -19.5
      `,
      { settings: { lowerLimit: -20, upperLimit: -15, guardTime: 2 } },
    );
    expect(lines).toEqual(['10:02 open OE00000002', '10:05 recover OE00000002']);
  });

  it('checks only the sides that have a limit', () => {
    const { lines } = run('10:00 40.0\n10:01 -1.0', { settings: { lowerLimit: 0, upperLimit: null } });
    expect(lines).toEqual(['10:01 open OE00000002']);
  });

  it('recovers an open alert whose limit has been removed', () => {
    const opened = run('10:00 6.0', { settings: { upperLimit: 5 } });
    expect(run('10:01 6.0', { settings: { upperLimit: null }, state: opened.state }).lines).toEqual(['10:01 recover OE00000001']);
  });

  it('reports raw and damped temperature, limits and the peak of the excursion', () => {
    const { transitions } = run('10:00 6.0\n10:01 7.5\n10:02 6.5\n10:03 4.0', { settings: { lowerLimit: 0, upperLimit: 5 } });
    expect(transitions.map(({ type, temperature, dampedTemperature, lowerLimit, upperLimit, peak }) => ({ type, temperature, dampedTemperature, lowerLimit, upperLimit, peak }))).toEqual([
      { type: 'open', temperature: 6, dampedTemperature: 6, lowerLimit: 0, upperLimit: 5, peak: 6 },
      { type: 'recover', temperature: 4, dampedTemperature: 4, lowerLimit: 0, upperLimit: 5, peak: 7.5 },
    ]);
  });

  it('treats a new excursion after recovery as a new alert', () => {
    const { lines } = run('10:00 6.0\n10:01 4.0\n10:02 6.0', { settings: { upperLimit: 5 } });
    expect(lines).toEqual(['10:00 open OE00000001', '10:01 recover OE00000001', '10:02 open OE00000001']);
  });
});

describe('time constant (damped temperature)', () => {
  const step = `
    10:00       0.0
    10:01-10:10 10.0
  `;

  it('follows a step with tau = 10 min at 100 %: 63 % of the step after tau', () => {
    expect(run(step, { settings: { timeConstant: 100 } }).state.dampedTemperature).toBeCloseTo(10 * (1 - Math.exp(-1)), 9);
  });

  it('uses 100 % when the time constant is not set, and 200 % means tau = 20 min', () => {
    expect(run(step, { settings: { timeConstant: null } }).state.dampedTemperature).toBeCloseTo(10 * (1 - Math.exp(-1)), 9);
    expect(run(step, { settings: { timeConstant: 200 } }).state.dampedTemperature).toBeCloseTo(10 * (1 - Math.exp(-0.5)), 9);
  });

  it('holds the last value through a gap: a reading after it counts for one sampling interval, not for the gap', () => {
    const settings = { timeConstant: 100 };
    expect(run('10:00 0.0\n10:30 10.0', { settings }).state.dampedTemperature).toBeCloseTo(10 * (1 - Math.exp(-0.1)), 9);
    // A gateway configured for 5-minute samples: each reading stands for its 5 minutes.
    const sparse = '10:00 0.0\n10:05 10.0\n10:10 10.0';
    expect(run(sparse, { settings: { ...settings, readingIntervalMinutes: 5 } }).state.dampedTemperature).toBeCloseTo(10 * (1 - Math.exp(-1)), 9);
  });

  it('opens no alert for a 5-minute spike to 15 °C after a 30-minute silence (limits 0-10, guard 10 min, 100 %)', () => {
    const settings = { lowerLimit: 0, upperLimit: 10, guardTime: 10, timeConstant: 100 };
    const { lines, transitions } = run(
      `
      10:00-10:10 5.0
      10:41-10:45 15.0
      10:46-11:30 5.0
      `,
      { settings },
    );
    expect(lines).toEqual([]);
    expect(transitions).toEqual([]);
    // Held for 15 minutes the same spike is a real excursion: it opens with the simulated value above the limit.
    const held = run('10:00-10:10 5.0\n10:41-11:10 15.0', { settings });
    expect(held.lines).toEqual(['10:58 open OE00000001']);
    expect(held.transitions[0]).toMatchObject({ temperature: 15 });
    expect(held.transitions[0].dampedTemperature).toBeGreaterThan(10);
  });

  it('ignores a one-minute spike that the raw value alone would have alerted on', () => {
    const spike = `
      10:00-10:04 4.0
      10:05       12.0
      10:06-10:10 4.0
    `;
    expect(run(spike, { settings: { upperLimit: 5, timeConstant: 100 } }).lines).toEqual([]);
    expect(run(spike, { settings: { upperLimit: 5, timeConstant: 1 } }).lines).toEqual(['10:05 open OE00000001', '10:06 recover OE00000001']);
  });

  it('checks the limits against the damped value at 0.1 °C: 5.04 is not above 5, 5.3 is', () => {
    // After a 4 → 8 step the damped value is 4 + 4 (1 - e^(-k/10)) at minute k: 5.04 at 10:03, 5.32 at 10:04.
    const { transitions } = run('10:00 4.0\n10:01-10:05 8.0', { settings: { upperLimit: 5, timeConstant: 100 } });
    expect(transitions).toMatchObject([{ type: 'open', at: jst('10:04'), temperature: 8, dampedTemperature: 5.3 }]);
  });

  it('starts afresh (damped = raw) after an error reading', () => {
    expect(run('10:00 0.0\n10:01 ERR\n10:02 10.0', { settings: { timeConstant: 100 } }).state.dampedTemperature).toBe(10);
  });

  it('starts afresh after a gap of the no-communication time, and not before', () => {
    const settings = { timeConstant: 100 };
    expect(run('10:00 0.0\n11:00 10.0', { settings }).state.dampedTemperature).toBe(10);
    expect(run('10:00 0.0\n10:59 10.0', { settings }).state.dampedTemperature).toBeCloseTo(10 * (1 - Math.exp(-0.1)), 9);
    expect(run('10:00 0.0\n10:15 10.0', { settings: { ...settings, noCommunicationMinutes: 15 } }).state.dampedTemperature).toBe(10);
  });

  it('restarts a pending excursion after a gap: the guard time counts only what was seen', () => {
    const { lines } = run('10:00 6.0\n11:00-11:04 6.0', { settings: { upperLimit: 5, guardTime: 5 } });
    expect(lines).toEqual([]);
  });
});

describe('reading order (measured_at, not arrival)', () => {
  const settings = { upperLimit: 5, guardTime: 2 };

  it('ignores readings at or before the last evaluated one', () => {
    const live = run('10:00 4.0\n10:05 4.0', { settings });
    const late = run('10:01-10:05 9.0', { settings, state: live.state });
    expect(late.lines).toEqual([]);
    expect(late.state).toEqual(live.state);
  });

  it('sorts a batch by measured_at', () => {
    const sorted = readings('10:00-10:10 6.0\n10:11 4.0');
    const shuffled = [...sorted].reverse();
    const result = evaluate({ ...BASE, ...settings }, emptySensorAlertState(), shuffled, { stopWindows: [] });
    expect(result.transitions.map(line)).toEqual(['10:02 open OE00000001', '10:11 recover OE00000001']);
  });

  const day = `
    01:00-01:59 -18.0 80
    02:00-02:20 -2.0  80
    02:21-02:59 -12.0 80
    03:00       ERR   80
    03:01-03:30 -25.0 9
    04:45-05:10 -17.0 20
  `;
  const freezer: SensorSettings = {
    ...BASE,
    lowerLimit: -22,
    upperLimit: -15,
    guardTime: 10,
    snoozingTime: 15,
    defrostRanges: [{ start: hours(2), end: hours(2, 30) }],
  };
  const context = { stopWindows: [stopOn(hours(3, 10), hours(3, 20))] };

  /** Feeds the readings in batches of `size`, storing the state as JSON between batches, as the service does. */
  function inBatches(settings: SensorSettings, size: number) {
    const all = readings(day);
    let state = emptySensorAlertState();
    const transitions: AlertTransition[] = [];
    for (let i = 0; i < all.length; i += size) {
      const step = evaluate(settings, state, all.slice(i, i + size), context);
      transitions.push(...step.transitions);
      state = SensorAlertStateSchema.parse(JSON.parse(JSON.stringify(step.state)));
    }
    return { state, transitions };
  }

  it('runs a freezer day through defrost, an error, a stop window, a battery change and a gap', () => {
    expect(inBatches(freezer, 1).transitions.map(line)).toEqual([
      '02:40 open OE00000001', // defrost ends 02:30, then 10 minutes of guard time
      '02:55 renotify OE00000001',
      '03:00 open OE00000004',
      '03:01 recover OE00000004',
      '03:01 recover OE00000001', // the error restarted the damping: -25 is far back inside
      '03:01 open OE00000003',
      '03:20 open OE00000002', // guard time elapsed at 03:11, held by the 03:10-03:20 stop window
      '03:20 renotify OE00000003', // due at 03:16, held by the window too
      '04:45 recover OE00000002', // after a 75-minute gap: a fresh start at -17
      '04:45 recover OE00000003', // battery back above 15 % (a new battery)
    ]);
  });

  it.each([
    ['raw', 1],
    ['damped', 100],
  ])('produces the same history and state from a backlog as from live readings (%s)', (_, timeConstant) => {
    const settings = { ...freezer, timeConstant };
    const live = inBatches(settings, 1);
    expect(live.transitions.length).toBeGreaterThan(5);
    for (const size of [7, 1000]) {
      const backlog = inBatches(settings, size);
      expect(backlog.transitions).toEqual(live.transitions);
      expect(backlog.state).toEqual(live.state);
    }
  });
});

describe('defrost ranges (02:00-02:30)', () => {
  const freezer = { upperLimit: -15, guardTime: 10, defrostRanges: [{ start: hours(2), end: hours(2, 30) }] };

  it('does not start an excursion inside defrost; the guard time starts when defrost ends', () => {
    const during = run('01:58-01:59 -20.0\n02:00-02:29 -5.0', { settings: freezer });
    expect(during.lines).toEqual([]);
    expect(sensorAlertSummary(during.state).status).toBe(0);
    expect(run('02:30-02:45 -10.0', { settings: freezer, state: during.state }).lines).toEqual(['02:40 open OE00000001']);
  });

  it('resets an excursion that was pending when defrost began', () => {
    const { lines } = run('01:55-02:29 -10.0\n02:30-02:45 -10.0', { settings: freezer });
    expect(lines).toEqual(['02:40 open OE00000001']);
  });

  it('raises nothing when the freezer is back inside within the guard time after defrost', () => {
    expect(run('01:55-02:35 -10.0\n02:36-02:50 -20.0', { settings: freezer }).lines).toEqual([]);
  });

  it('keeps an open alert open through defrost, and recovers it there only when the value is really back', () => {
    const open = { ...freezer, guardTime: null };
    expect(run('01:50-02:29 -5.0\n02:30 -20.0', { settings: open }).lines).toEqual(['01:50 open OE00000001', '02:30 recover OE00000001']);
    expect(run('01:50-02:09 -5.0\n02:10 -20.0', { settings: open }).lines).toEqual(['01:50 open OE00000001', '02:10 recover OE00000001']);
  });
});

describe('alert-stop windows (12:00-13:00 store-wide)', () => {
  const stopWindows = [stopOn(hours(12), hours(13))];
  const settings = { upperLimit: 5, guardTime: 10 };

  it('holds an alert whose guard time elapses inside the window and opens it when the window ends', () => {
    expect(run('11:55-13:05 6.0', { settings, stopWindows }).lines).toEqual(['13:00 open OE00000001']);
  });

  it('shows the held excursion as pending inside the window', () => {
    const { state } = run('11:55-12:30 6.0', { settings, stopWindows });
    expect(sensorAlertSummary(state)).toEqual({ status: 1, openCodes: [], pendingCodes: ['OE00000001'] });
  });

  it('raises nothing for an excursion that ends inside the window', () => {
    expect(run('11:55-12:30 6.0\n12:31-13:30 4.0', { settings, stopWindows }).lines).toEqual([]);
  });

  it('counts the guard time of an excursion that starts inside the window from its start', () => {
    expect(run('12:10-13:05 6.0', { settings, stopWindows }).lines).toEqual(['13:00 open OE00000001']);
    expect(run('12:55-13:10 6.0', { settings, stopWindows }).lines).toEqual(['13:05 open OE00000001']);
  });

  it('keeps an alert opened before the window open, re-notifies it not inside but right after the window', () => {
    const { lines } = run('11:30-13:30 6.0', { settings: { upperLimit: 5, snoozingTime: 30 }, stopWindows });
    expect(lines).toEqual(['11:30 open OE00000001', '13:00 renotify OE00000001', '13:30 renotify OE00000001']);
  });

  it('records a recovery inside the window without notifying', () => {
    const { lines } = run('11:30-12:14 6.0\n12:15 4.0', { settings: { upperLimit: 5 }, stopWindows });
    expect(lines).toEqual(['11:30 open OE00000001', '12:15 recover OE00000001 silent']);
  });

  it('holds battery-low and sensor-error alerts inside the window too', () => {
    const { lines } = run(
      `
      12:10       20.0 9
      12:11-12:20 ERR  9
      12:21-12:59 20.0 9
      13:00       20.0 9
      `,
      { stopWindows },
    );
    expect(lines).toEqual(['13:00 open OE00000003']);
  });

  it('applies a per-sensor window to its sensor only', () => {
    const table = '12:10 6.0';
    expect(run(table, { settings: { upperLimit: 5 }, stopWindows: [stopOn(hours(12), hours(13), { equipmentId: 2 })] }).lines).toEqual(['12:10 open OE00000001']);
    expect(run(table, { settings: { upperLimit: 5 }, stopWindows: [stopOn(hours(12), hours(13), { equipmentId: 1 })] }).lines).toEqual([]);
  });
});

describe('snooze and stop', () => {
  const settings = { upperLimit: 5, snoozingTime: 10 };

  it('re-notifies an active alert every snoozing_time minutes', () => {
    expect(run('10:00-10:35 6.0', { settings }).lines).toEqual([
      '10:00 open OE00000001',
      '10:10 renotify OE00000001',
      '10:20 renotify OE00000001',
      '10:30 renotify OE00000001',
    ]);
  });

  it('never re-notifies without a snoozing time', () => {
    expect(run('10:00-10:35 6.0', { settings: { upperLimit: 5, snoozingTime: null } }).lines).toEqual(['10:00 open OE00000001']);
  });

  it('stops re-notifying a stopped alert, which stays active until it recovers; the next excursion is a new alert', () => {
    const before = run('10:00-10:05 6.0', { settings });
    const stopped = stopAlert(before.state, 'OE00000001');
    expect(sensorAlertSummary(stopped).status).toBe(2);

    const after = run('10:06-10:35 6.0\n10:36 4.0\n10:40-10:50 6.0', { settings, state: stopped });
    expect(after.lines).toEqual(['10:36 recover OE00000001', '10:40 open OE00000001', '10:50 renotify OE00000001']);
  });

  it('leaves the state alone when the alert to stop is not open', () => {
    const state = emptySensorAlertState();
    expect(stopAlert(state, 'OE00000002')).toBe(state);
  });
});

describe('battery low (OE00000003)', () => {
  it('opens at 10 % or less and recovers only above 15 %, so a hovering battery does not flap', () => {
    const { lines, transitions } = run(`
      10:00 20.0 11
      10:01 20.0 10
      10:02 20.0 12
      10:03 20.0 8
      10:04 20.0 15
      10:05 20.0
      10:06 20.0 16
    `);
    expect(lines).toEqual(['10:01 open OE00000003', '10:06 recover OE00000003']);
    expect(transitions.map((t) => [t.battery, t.peak])).toEqual([
      [10, 10],
      [16, 8],
    ]);
  });

  it('shows battery low alone as a warning (status 1)', () => {
    expect(sensorAlertSummary(run('10:00 20.0 5').state)).toEqual({ status: 1, openCodes: ['OE00000003'], pendingCodes: [] });
  });
});

describe('sensor error (OE00000004)', () => {
  it('opens on an error reading (or a missing temperature) and recovers on the next valid reading', () => {
    const withoutTemperature: Reading = { measuredAt: jst('10:03'), temperature: null, error: false, battery: null };
    const first = run('10:00 5.0\n10:01-10:02 ERR');
    const second = evaluate(BASE, first.state, [withoutTemperature, ...readings('10:04 5.0')], { stopWindows: [] });
    expect([...first.lines, ...second.transitions.map(line)]).toEqual(['10:01 open OE00000004', '10:04 recover OE00000004']);
    expect(first.transitions[0]).toMatchObject({ temperature: null, dampedTemperature: null });
  });

  it('keeps a temperature alert open through errors: no value, no recovery', () => {
    const { lines } = run('10:00 6.0\n10:01 ERR\n10:02 6.0\n10:03 4.0', { settings: { upperLimit: 5 } });
    expect(lines).toEqual(['10:00 open OE00000001', '10:01 open OE00000004', '10:02 recover OE00000004', '10:03 recover OE00000001']);
  });

  it('is re-notified like any alert', () => {
    expect(run('10:00-10:20 ERR', { settings: { snoozingTime: 10 } }).lines).toEqual([
      '10:00 open OE00000004',
      '10:10 renotify OE00000004',
      '10:20 renotify OE00000004',
    ]);
  });

  it('shows an error as status 2', () => {
    expect(sensorAlertSummary(run('10:00 ERR').state).status).toBe(2);
  });
});

describe('no communication (OE00000005)', () => {
  const context = { stopWindows: [] as AlertStopSchedule[], gatewayDown: false };

  /** The worker's minute-by-minute checks from `from` to `to`, both included. */
  function silence(state: SensorAlertState, from: string, to: string, options: { settings?: Partial<SensorSettings>; stopWindows?: AlertStopSchedule[]; gatewayDown?: boolean } = {}) {
    const settings = { ...BASE, ...options.settings };
    const lines: string[] = [];
    for (let t = jst(from).getTime(); t <= jst(to).getTime(); t += 60_000) {
      const step = evaluateSilence(settings, state, new Date(t), { ...context, ...options });
      lines.push(...step.transitions.map(line));
      state = step.state;
    }
    return { state, lines };
  }

  it('opens once the last reading is 60 minutes old, and the next reading recovers it', () => {
    const reported = run('10:00 4.0', { settings: { timeConstant: 100 } });
    const silent = silence(reported.state, '10:01', '11:05');
    expect(silent.lines).toEqual(['11:00 open OE00000005']);
    expect(sensorAlertSummary(silent.state).status).toBe(2);

    const back = run('11:06 8.0', { settings: { timeConstant: 100 }, state: silent.state });
    expect(back.lines).toEqual(['11:06 recover OE00000005']);
    expect(back.state.dampedTemperature).toBe(8); // the damping starts afresh
  });

  it('uses the configured number of minutes', () => {
    expect(silence(run('10:00 4.0').state, '10:01', '10:20', { settings: { noCommunicationMinutes: 15 } }).lines).toEqual(['10:15 open OE00000005']);
  });

  it('re-notifies every snoozing_time, unless stopped', () => {
    const settings = { snoozingTime: 30 };
    const silent = silence(run('10:00 4.0').state, '10:01', '12:00', { settings });
    expect(silent.lines).toEqual(['11:00 open OE00000005', '11:30 renotify OE00000005', '12:00 renotify OE00000005']);
    expect(silence(stopAlert(silent.state, 'OE00000005'), '12:01', '13:00', { settings }).lines).toEqual([]);
  });

  it('raises nothing while the gateway is down: the store-level alert stands for all its sensors', () => {
    expect(silence(run('10:00 4.0').state, '10:01', '12:00', { gatewayDown: true }).lines).toEqual([]);
  });

  it('raises nothing for a sensor that never reported', () => {
    expect(silence(emptySensorAlertState(), '10:00', '12:00').lines).toEqual([]);
  });

  it('does not open inside a stop window, but at the first check after it', () => {
    const stopWindows = [stopOn(hours(10, 30), hours(11, 30))];
    expect(silence(run('10:00 4.0').state, '10:01', '11:40', { stopWindows }).lines).toEqual(['11:30 open OE00000005']);
  });

  it('never recovers before it opened, even from a reading that arrives late', () => {
    const silent = silence(run('10:00 4.0').state, '10:01', '11:00');
    expect(run('10:30 4.0', { state: silent.state }).lines).toEqual(['11:00 recover OE00000005']);
  });
});

describe('state as stored JSON', () => {
  it('reads the column default {} as a sensor never evaluated', () => {
    expect(SensorAlertStateSchema.parse({})).toEqual(emptySensorAlertState());
  });

  it('refuses what the engine did not write', () => {
    expect(SensorAlertStateSchema.safeParse({ openAlerts: { OE00000009: {} } }).success).toBe(false);
    expect(SensorAlertStateSchema.safeParse({ lastMeasuredAt: '20261121' }).success).toBe(false);
  });

  it('does not change the state it was given', () => {
    const before = run('10:00 6.0', { settings: { upperLimit: 5, snoozingTime: 1 } }).state;
    const copy = structuredClone(before);
    run('10:01-10:05 6.0\n10:06 4.0', { settings: { upperLimit: 5, snoozingTime: 1 }, state: before });
    expect(before).toEqual(copy);
  });
});

describe('gateway down (store-level no communication)', () => {
  it.each([
    // last contact, now, previously down → down, transition
    ['10:00', '10:59', false, false, undefined],
    ['10:00', '11:00', false, true, { type: 'open', at: '11:00' }],
    ['10:00', '11:30', true, true, undefined],
    ['11:31', '11:32', true, false, { type: 'recover', at: '11:31' }],
    ['11:31', '11:32', false, false, undefined],
    [null, '11:32', false, false, undefined], // never contacted: still waiting for the first communication
  ])('last contact %s, now %s, was down %s → down %s, %o', (contact, now, previousDown, down, transition) => {
    const result = evaluateGatewaySilence(contact === null ? null : jst(contact), jst(now), 60, previousDown);
    expect(result).toEqual({
      down,
      ...(transition && { transition: { type: transition.type, code: 'OE00000005', at: jst(transition.at) } }),
    });
  });
});

describe('gateway contact', () => {
  it.each([
    // working_state, was down → working_state, recovery of the store-level alert at the contact
    [0, false, 1, false], // first communication: the store starts operating
    [1, false, 1, false],
    [1, true, 1, true], // the gateway was down: its OE00000005 recovers
    [0, true, 1, true],
    [null, false, null, false], // no operation info: left as it is
    [2, false, 2, false], // removed: stays removed
  ] as const)('working_state %s, was down %s → working_state %s, recovers %s', (workingState, gatewayDown, nextWorkingState, recovers) => {
    expect(evaluateGatewayContact({ workingState, gatewayDown }, jst('11:32'))).toEqual({
      workingState: nextWorkingState,
      gatewayDown: false,
      ...(recovers && { transition: { type: 'recover', code: 'OE00000005', at: jst('11:32') } }),
    });
  });
});

describe('store status', () => {
  const normal = { openCodes: [] };
  const batteryLow = { openCodes: ['OE00000003' as const] };

  it.each([
    // working_state, gateway down, sensors' open alerts → store status
    [null, false, [normal], 0], // no operation info: not connected
    [0, false, [], 0], // waiting for the first communication: not connected
    [2, true, [batteryLow], 1], // removed: closed
    [1, false, [normal, normal], 2], // in operation
    [1, false, [normal, batteryLow], 3], // any open alert: warning
    [1, true, [normal], 0], // gateway down: not connected (the store-level alert says why)
  ] as const)('working_state %s, gateway down %s, sensors %j → %s', (workingState, gatewayDown, sensors, expected) => {
    expect(storeStatus(workingState, gatewayDown, sensors)).toBe(expected);
  });

  it('does not count a pending excursion as a store alert', () => {
    const pending = sensorAlertSummary(run('10:00 6.0', { settings: { upperLimit: 5, guardTime: 10 } }).state);
    expect(pending.status).toBe(1);
    expect(storeStatus(1, false, [pending])).toBe(2);
  });
});

describe('alert texts', () => {
  it('words a temperature alert as exceeded while pending and as abnormal once open (status 2)', () => {
    expect(alertText('OE00000001', 'JP', 1)).toBe('上限温度超過');
    expect(alertText('OE00000001', 'JP', 2)).toBe('温度異常（上限超過）');
    expect(alertText('OE00000002', 'US', 2)).toBe('Temperature abnormal (below lower limit)');
  });

  it('has both languages for every code and for the gateway', () => {
    for (const code of ['OE00000003', 'OE00000004', 'OE00000005'] as const) {
      expect(alertText(code, 'JP', 2)).not.toBe(alertText(code, 'US', 2));
    }
    expect(alertText('OE00000004', 'US', 2)).toBe('Sensor error: temperature cannot be taken');
    expect(gatewayDownText('JP')).toBe('ゲートウェイと長時間通信がありません');
  });

  it('recognises the codes, and the temperature ones that link to the graph', () => {
    expect(isAlertCode('OE00000005')).toBe(true);
    expect(isAlertCode('OE00000007')).toBe(true); // the gateway's losses (docs/decisions/161)
    expect(isAlertCode('OE00000008')).toBe(false);
    expect(isTemperatureAlert('OE00000002')).toBe(true);
    expect(isTemperatureAlert('OE00000004')).toBe(false);
  });
});
