import { ALERT_CODES, type AlertCode } from '~/domain/alert-codes';
import { evaluateGatewaySilence, type SensorAlertState, sensorAlertSummary } from '~/domain/alert-engine';
import { STORE_STATUS, storeStatus } from '~/domain/store-status';
import type { AlertStopSchedule } from '~/domain/alert-stop-schedule';
import { type DefrostTime, parseDefrostTimes } from '~/domain/defrost';
import { fromJapan, japanParts, startOfJapanDay, toCompactDate } from '~/domain/japan-time';
import { isRemovedStore, WORKING_STATE } from '~/domain/working-state';
import {
  COMPANIES, type DemoLocation, type DemoUser, LOCATIONS, NOTICES, STOP_COMMENTS, STOREGROUPS, type StoreRole,
  storeUsergroupKey, storeUsergroupName, USERGROUPS, USERS,
} from './chain';
import { EXCURSION_TAIL, type Excursion, MINUTE_MS, type SensorCurve } from './curves';
import { drawFloorPlan, type PlanItem } from './floorplan';
import {
  baseCurve, chooseTemplates, type Climate, defrostStarts, hhmm, outdoorMean, type StoreFormat,
  TEMPLATES, WARMER_STOP_WINDOWS,
} from './furniture';
import {
  excursionSpan, type ExcursionTarget, fitsClimate, isClear, type PlannedAlert, randomExcursion, runEngine, type StopDecision,
} from './incidents';
import { Rng } from './prng';

// The whole demo chain as plain values, from `now` and the number of days of readings: pure and
// deterministic (seeded PRNG streams, nothing read from the clock). demo-seed.server.ts writes it.

export interface DemoPlanOptions {
  now: Date;
  days: number;
}

export interface PlannedSensor {
  /** 1…N across the chain; the seed maps it to a reserved equipment_id. */
  sensorId: number;
  key: string;
  name: string;
  serialNo: string;
  modelId: number;
  iconKind: number;
  locationNo: number;
  lowerLimit: number | null;
  upperLimit: number | null;
  guardTime: number | null;
  snoozingTime: number | null;
  timeConstant: number | null;
  defTime: DefrostTime[];
  dispFlg: 0 | 1;
  commentRequired: 0 | 1;
  installationDate: string; // YYYY-MM-DD
  removalDate: string | null;
  targetKindId: number;
  targetName: string | null;
  targetSerialNo: string | null;
  positionX: number;
  positionY: number;
  encryptionKey: string | null;
  climate: Climate;
  curve: SensorCurve;
  /** The minutes stored as readings, both ends included; null when the sensor never reported. */
  readings: { first: number; last: number } | null;
  engineState: SensorAlertState;
  status: number;
  openCodes: AlertCode[];
}

export interface PlannedDiagram {
  name: string;
  svg: string;
  current: boolean;
  createdAt: Date;
}

export interface PlannedStore {
  storeId: string;
  storeNo: string;
  storeName: string;
  companyId: string;
  storegroupId: string;
  prefectureId: number;
  address: string;
  telNo: string;
  openingDate: string;
  closingDate: string | null;
  gatewayInfo: string | null;
  workingState: number | null;
  storeStatus: number;
  receiveSensitivity: number | null;
  lastGatewayContactAt: Date | null;
  gatewayDown: boolean;
  pin: { code: string; effectiveTime: Date; issuedAt: Date } | null;
  role: StoreRole;
  diagrams: PlannedDiagram[];
  sensors: PlannedSensor[];
}

export interface PlannedSchedule {
  storeId: string;
  scheduleType: 1 | 2;
  termType: 1 | 2 | 3;
  startDate: string; // YYYY-MM-DD
  endDate: string | null;
  weekdays: boolean[]; // Sunday first
  timeTargetType: 1 | 2;
  times: { sensorId: number | null; start: number; end: number }[];
}

export interface PlannedUsergroup {
  key: string;
  name: string;
  authority: number;
  storeIds: string[];
}

export interface DemoPlan {
  now: Date;
  nowMinute: number;
  days: number;
  companies: { companyId: string; companyName: string }[];
  storegroups: { storegroupId: string; companyId: string; storegroupName: string }[];
  usergroups: PlannedUsergroup[];
  users: DemoUser[];
  notices: { title: string; content: string; createdAt: Date; createdBy: string }[];
  stores: PlannedStore[];
  templates: PlannedDiagram[];
  schedules: PlannedSchedule[];
  alerts: PlannedAlert[];
}

const DAY = 1440;
const CHUNK_DAYS = 7;
export const CHUNK_MINUTES = CHUNK_DAYS * DAY;
const NO_COMMUNICATION_MINUTES = 60;

const minuteOf = (at: Date) => Math.floor(at.getTime() / MINUTE_MS);
const dateOfMinute = (minute: number) => new Date(minute * MINUTE_MS);
/** YYYY-MM-DD of the Japan day. */
export const japanDate = (at: Date) => toCompactDate(at).replace(/^(\d{4})(\d{2})(\d{2})$/, '$1-$2-$3');
const toCompact = (date: string) => date.replaceAll('-', '');

/** Templates a store must have for its role (and so that the chain shows every icon kind). */
const MUST_HAVE: Partial<Record<StoreRole, string[]>> = {
  storeUserHome: ['drink1'],
  ongoingStopped: ['frozen1', 'fruit', 'sideDish2', 'sweets', 'energy', 'medicine', 'cosmetics', 'alcohol', 'drink', 'room', 'outside', 'hotDeli'],
  ongoingLower: ['onigiri', 'dessert'],
  lowBattery: ['dairy'],
  errorReadings: ['drink1'],
  silentSensor: ['dairy'],
  gap: ['sandwich'],
  freezerFailure: ['frozen1'],
  chilledExcursion: ['sandwich'],
  maintenance: ['meat'],
};

const MODEL_PREFIX: Record<number, string> = { 1: 'E8:D0:3C', 2: 'C9:1A:2B', 3: 'A4:C1:38', 4: 'A4:C1:39', 5: '49:22:0A', 6: 'D4:2A:5E' };
const FURNITURE_SERIES: Record<number, [string, string]> = {
  1: ['リーチイン冷蔵ケース', 'RC'], 2: ['多段オープンケース', 'OS'], 3: ['リーチイン冷凍ケース', 'RF'], 4: ['平型冷凍ケース', 'FF'],
  5: ['アイスストッカー', 'IS'], 6: ['ウォークイン冷蔵庫', 'WR'], 7: ['ウォークイン冷凍庫', 'WF'], 8: ['ドリンククーラー', 'DC'],
  9: ['ホットショーケース', 'HS'], 10: ['中華まんスチーマー', 'ST'], 11: ['バックヤード冷蔵庫', 'BR'],
};

interface StoreDraft {
  location: DemoLocation;
  format: StoreFormat;
  brand: string;
  store: PlannedStore;
  /** Minutes [first, last] of the store's readings, or null (never reported). */
  window: { first: number; last: number } | null;
  installedFrom: number;
  rng: Rng;
}

export function buildDemoPlan({ now, days }: DemoPlanOptions): DemoPlan {
  if (!Number.isInteger(days) || days < 0) throw new Error(`days must be a whole number ≥ 0, not ${days}`);
  const nowMinute = minuteOf(now);
  const span = Math.max(1, days * DAY);
  const today = startOfJapanDay(now);
  const dayOfYear = Math.floor((today.getTime() - fromJapan(japanParts(now).year, 1, 1).getTime()) / 86_400_000) + 1;
  const daysAgo = (n: number) => new Date(today.getTime() - n * 86_400_000);

  // ---- stores ----
  const counters = new Map<string, number>();
  const drafts: StoreDraft[] = LOCATIONS.map((location) => {
    const company = COMPANIES.find((c) => c.companyId === location.companyId)!;
    const rng = new Rng(`store:${location.branch}`);
    const counterKey = `${company.companyId}:${location.prefectureId}`;
    const seq = (counters.get(counterKey) ?? 0) + 1;
    counters.set(counterKey, seq);
    const storeNo = `${company.storeNoPrefix}${String(location.prefectureId).padStart(2, '0')}${String(seq).padStart(3, '0')}`;
    const role = location.role ?? 'normal';
    const operating = !['waiting', 'removed', 'noState'].includes(role);
    let window: StoreDraft['window'] = null;
    let openingDate = japanDate(daysAgo(rng.int(400, 7000)));
    let closingDate: string | null = location.closingInDays ? japanDate(daysAgo(-location.closingInDays)) : null;
    let lastContact: Date | null = null;
    if (role === 'removed') {
      const removal = minuteOf(new Date(startOfJapanDay(daysAgo(location.companyId === 'ONRECO' ? 2 : 5)).getTime() + 21 * 3_600_000));
      window = { first: days === 0 ? removal : removal - span + 1, last: removal };
      closingDate = japanDate(dateOfMinute(removal));
      lastContact = dateOfMinute(removal);
    } else if (operating) {
      const last = role === 'gatewayDown' ? nowMinute - 300 : nowMinute;
      window = { first: days === 0 ? last : nowMinute - span + 1, last };
      lastContact = dateOfMinute(last);
    } else if (role === 'waiting') {
      openingDate = japanDate(daysAgo(rng.pick([-12, -20, 1, 3])));
    } else {
      openingDate = japanDate(daysAgo(rng.int(20, 40)));
    }
    const installedDay = role === 'waiting' || role === 'noState' ? daysAgo(rng.int(1, 4)) : daysAgo(rng.int(60, 900));
    const installedFrom = Math.max(minuteOf(installedDay), minuteOf(new Date(`${openingDate}T00:00:00+09:00`)));
    const store: PlannedStore = {
      storeId: `${company.storeIdPrefix}${storeNo}`,
      storeNo,
      storeName: `${company.brand} ${location.branch}`,
      companyId: company.companyId,
      storegroupId: location.storegroupId,
      prefectureId: location.prefectureId,
      address: location.address,
      telNo: location.areaCode + rng.digits(10 - location.areaCode.length),
      openingDate,
      closingDate,
      gatewayInfo: role === 'noState' ? null : `GW-${company.storeIdPrefix}${rng.hex(4)}`,
      workingState: role === 'noState' ? null : role === 'waiting' ? WORKING_STATE.waitingForFirstCommunication : role === 'removed' ? WORKING_STATE.removed : WORKING_STATE.operating,
      storeStatus: STORE_STATUS.notConnected,
      receiveSensitivity: lastContact ? rng.int(-95, -60) : null,
      lastGatewayContactAt: lastContact,
      gatewayDown: role === 'gatewayDown',
      pin: role === 'removed' ? null : { code: rng.digits(6), effectiveTime: new Date(now.getTime() + 24 * 3_600_000), issuedAt: now },
      role,
      diagrams: [],
      sensors: [],
    };
    return { location, format: company.format, brand: company.brand, store, window, installedFrom, rng };
  });

  // ---- sensors ----
  let nextSensorId = 1;
  for (const draft of drafts) {
    const { location, store, rng } = draft;
    const templates = chooseTemplates(draft.format, new Rng(`templates:${location.branch}`), MUST_HAVE[store.role] ?? []);
    const room = Math.round((23 + rng.float(0, 2)) * 10) / 10;
    const outdoor = outdoorMean(location.regionId, location.prefectureId, dayOfYear);
    const serials = new Set<string>();
    const installationDate = japanDate(dateOfMinute(draft.installedFrom));
    const batteryAt = draft.window?.last ?? nowMinute;
    store.sensors = templates.map((template, index) => {
      const srng = new Rng(`sensor:${location.branch}:${template.key}`);
      const modelId = modelFor(template.climate, srng);
      let serialNo: string;
      do serialNo = `${MODEL_PREFIX[modelId]}:${srng.hex(1)}:${srng.hex(1)}:${srng.hex(1)}`;
      while (serials.has(serialNo));
      serials.add(serialNo);
      const { curve, limits } = baseCurve(template, srng, {
        room,
        outdoor,
        battery: { level: srng.int(62, 100), perDay: srng.round(0.15, 0.8, 2), at: batteryAt },
        rssi: srng.int(-88, -58),
        defrost: defrostStarts(srng),
      });
      const cold = template.climate === 'frozen' || template.climate === 'hot';
      const [series, code] = FURNITURE_SERIES[template.furniture] ?? [null, null];
      const sensor: PlannedSensor = {
        sensorId: nextSensorId++,
        key: template.key,
        name: template.name,
        serialNo,
        modelId,
        iconKind: template.icon,
        locationNo: index + 1,
        lowerLimit: limits?.[0] ?? null,
        upperLimit: limits?.[1] ?? null,
        guardTime: cold ? srng.pick([15, 20, 30]) : srng.chance(0.08) ? null : srng.pick([10, 15, 20, 30]),
        snoozingTime: srng.chance(0.1) ? null : srng.pick([60, 90, 120, 180, 240]),
        timeConstant: srng.chance(0.5) ? null : cold ? srng.pick([50, 60, 80, 100]) : srng.int(5, 15) * 10,
        defTime: curve.defrost ? curve.defrost.starts.map((s) => ({ start: hhmm(s), end: hhmm(s + curve.defrost!.length) })) : [],
        dispFlg: 1,
        commentRequired: 0,
        installationDate,
        removalDate: isRemovedStore(store.workingState) ? store.closingDate : null,
        targetKindId: template.furniture,
        targetName: series ? `${series} ${code}-${srng.int(9, 24) * 100}${srng.pick(['', 'A', 'S', 'X'])}` : template.furniture === 12 ? '売場' : '屋外',
        targetSerialNo: series ? `${code}${srng.int(18, 25)}${srng.digits(6)}` : null,
        positionX: 0,
        positionY: 0,
        encryptionKey: (modelId === 1 || modelId === 3) && srng.chance(0.15) ? srng.hex(16).toLowerCase() : null,
        climate: template.climate,
        curve,
        readings: null,
        engineState: { lastMeasuredAt: null, dampedTemperature: null, pendingSince: { upper: null, lower: null }, openAlerts: {} },
        status: 0,
        openCodes: [],
      };
      return sensor;
    });
    // HACCP: some stores record comments on their ready-meal cases.
    if (rng.chance(0.35)) {
      for (const s of store.sensors) if (['obento', 'onigiri', 'sideDish', 'sideDish1', 'sideDish2'].includes(s.key)) s.commentRequired = 1;
    }
    // A few sensors hidden from the views (spares, an outdoor probe nobody watches).
    if (rng.chance(0.15) && store.role === 'normal') {
      const hidden = store.sensors.find((s) => ['outside', 'drink2', 'energy', 'room'].includes(s.key));
      if (hidden) hidden.dispFlg = 0;
    }
  }
  const allIcons = new Set(drafts.flatMap((d) => d.store.sensors.map((s) => s.iconKind)));
  if (allIcons.size !== 22) throw new Error(`The demo chain misses icon kinds: ${[...Array(22).keys()].map((i) => i + 1).filter((i) => !allIcons.has(i))}`);

  // ---- alert-stop schedules ----
  const schedules: PlannedSchedule[] = [];
  const noWeekdays = Array<boolean>(7).fill(false);
  for (const draft of drafts) {
    const { store } = draft;
    const warmers = store.sensors.filter((s) => s.climate === 'hot');
    if (warmers.length > 0) {
      schedules.push({
        storeId: store.storeId,
        scheduleType: 2,
        termType: 1,
        startDate: japanDate(dateOfMinute(draft.installedFrom)),
        endDate: null,
        weekdays: Array<boolean>(7).fill(true),
        timeTargetType: 2,
        times: warmers.flatMap((w) => WARMER_STOP_WINDOWS.map((range) => ({ sensorId: w.sensorId, ...range }))),
      });
    }
    if (store.role === 'maintenance') {
      const day = japanDate(daysAgo(2));
      schedules.push({ storeId: store.storeId, scheduleType: 1, termType: 2, startDate: day, endDate: day, weekdays: noWeekdays, timeTargetType: 1, times: [{ sensorId: null, start: 13 * 60, end: 16 * 60 }] });
    }
    if (['横浜西口店', '広島八丁堀店'].includes(draft.location.branch)) {
      schedules.push({
        storeId: store.storeId, scheduleType: 1, termType: 3, startDate: japanDate(daysAgo(-5)), endDate: japanDate(daysAgo(-6)),
        weekdays: noWeekdays, timeTargetType: 1, times: [{ sensorId: null, start: 60, end: 240 }],
      });
    }
    if (draft.location.branch === '池袋東口店') {
      const sunday = daysAgo(japanParts(today).weekday - 7);
      schedules.push({
        storeId: store.storeId, scheduleType: 1, termType: 1, startDate: japanDate(sunday), endDate: japanDate(new Date(sunday.getTime() + 6 * 86_400_000)),
        weekdays: [false, true, false, true, false, true, false], timeTargetType: 1, times: [{ sensorId: null, start: 7 * 60, end: 8 * 60 }],
      });
    }
  }
  const engineSchedules = new Map<string, AlertStopSchedule[]>();
  for (const s of schedules) {
    const list = engineSchedules.get(s.storeId) ?? [];
    list.push({
      scheduleType: s.scheduleType,
      termType: s.termType,
      startDate: toCompact(s.startDate),
      endDate: s.endDate ? toCompact(s.endDate) : null,
      weekdays: s.weekdays,
      timeTargetType: s.timeTargetType,
      times: s.times.map((t) => ({ equipmentId: t.sensorId, start: t.start, end: t.end })),
    });
    engineSchedules.set(s.storeId, list);
  }

  // ---- who sees which store ----
  const usergroups: PlannedUsergroup[] = [
    ...USERGROUPS.map((g) => ({ key: g.key, name: g.name, authority: g.authority, storeIds: drafts.filter((d) => g.stores(d.location)).map((d) => d.store.storeId) })),
    ...drafts.map((d) => ({ key: storeUsergroupKey(d.location.branch), name: storeUsergroupName(d.brand, d.location.branch), authority: 101, storeIds: [d.store.storeId] })),
  ];
  const stoppersOf = (storeId: string) => {
    const keys = new Set(usergroups.filter((g) => g.storeIds.includes(storeId)).map((g) => g.key));
    return ['admin', ...USERS.filter((u) => u.valid && u.groups.some((k) => keys.has(k))).map((u) => u.loginId)];
  };

  // ---- incidents, and the engine over them ----
  const alerts: PlannedAlert[] = [];
  for (const draft of drafts) {
    const { store, window } = draft;
    const storeSchedules = engineSchedules.get(store.storeId) ?? [];
    const erng = new Rng(`incidents:${draft.location.branch}`);
    const named = planNamedIncidents(draft, { nowMinute, daysAgo, schedules: storeSchedules });
    for (const sensor of store.sensors) {
      const last = window ? named.lastMinute.get(sensor.key) ?? window.last : null;
      sensor.readings = window && last !== null ? { first: Math.min(last, Math.max(window.first, draft.installedFrom)), last } : null;
    }
    if (window) {
      planRandomIncidents(draft, erng, storeSchedules, new Set(named.sensors), nowMinute, draft.location.busy ?? false);
    }
    const srng = new Rng(`stops:${draft.location.branch}`);
    const stoppers = stoppersOf(store.storeId);
    for (const sensor of store.sensors) {
      const run = runEngine(
        {
          storeId: store.storeId,
          sensorId: sensor.sensorId,
          settings: {
            equipmentId: sensor.sensorId,
            lowerLimit: sensor.lowerLimit,
            upperLimit: sensor.upperLimit,
            guardTime: sensor.guardTime,
            snoozingTime: sensor.snoozingTime,
            timeConstant: sensor.timeConstant,
            defrostRanges: defrostRanges(sensor.defTime),
            noCommunicationMinutes: NO_COMMUNICATION_MINUTES,
          },
          curve: sensor.curve,
          installedFrom: draft.installedFrom,
          lastMinute: sensor.readings?.last ?? null,
        },
        {
          schedules: storeSchedules,
          gatewayDown: store.gatewayDown,
          nowMinute,
          silenceChecks: named.silenceChecks.get(sensor.key) ?? [],
          decideStop: (code, openedAt) => {
            const planned = named.stops.get(`${sensor.key}:${code}`);
            if (planned !== undefined) return planned;
            if (openedAt > nowMinute - 90 || !srng.chance(0.35)) return null;
            return { afterMinutes: srng.int(4, 40), by: srng.pick(stoppers), comment: srng.pick(STOP_COMMENTS) };
          },
        },
      );
      sensor.engineState = run.state;
      const summary = sensorAlertSummary(run.state);
      sensor.status = summary.status;
      sensor.openCodes = summary.openCodes;
      alerts.push(...run.alerts);
    }
    if (store.gatewayDown && store.lastGatewayContactAt) {
      const checkAt = new Date(store.lastGatewayContactAt.getTime() + NO_COMMUNICATION_MINUTES * MINUTE_MS);
      const gateway = evaluateGatewaySilence(store.lastGatewayContactAt, checkAt, NO_COMMUNICATION_MINUTES, false);
      if (gateway.transition) {
        alerts.push({
          storeId: store.storeId, sensorId: null, code: gateway.transition.code, alertData1: null, temperature: null, lowerLimit: null, upperLimit: null,
          startedAt: gateway.transition.at, recoveredAt: null, stoppedAt: null, stoppedBy: null, stopComment: null, lastNotifiedAt: gateway.transition.at,
        });
      }
    }
    store.storeStatus = storeStatus(store.workingState, store.gatewayDown, store.sensors.map((s) => ({ openCodes: s.openCodes })));
  }

  // ---- floor plans ----
  for (const draft of drafts) {
    if (!draft.location.diagram) continue;
    const { store } = draft;
    const items: PlanItem[] = store.sensors.map((s) => {
      const tpl = TEMPLATES[draft.format].find((t) => t.key === s.key)!;
      return { key: s.key, label: tpl.short, zone: tpl.zone, climate: tpl.climate };
    });
    const plan = drawFloorPlan(draft.format, `${store.storeName} 売場レイアウト`, items);
    for (const s of store.sensors) {
      const at = plan.positions[s.key];
      if (at) [s.positionX, s.positionY] = [at.x, at.y];
    }
    // Two stores have not finished placing their sensors.
    if (['横浜西口店', '広島八丁堀店'].includes(draft.location.branch)) {
      const last = store.sensors[store.sensors.length - 1];
      [last.positionX, last.positionY] = [0, 0];
    }
    const created = new Date(today.getTime() - draft.rng.int(10, 200) * 86_400_000);
    store.diagrams.push({ name: `${draft.location.branch}_売場レイアウト.svg`, svg: plan.svg, current: true, createdAt: created });
    if (store.role === 'storeUserHome') {
      const before = items.map((item) => ({ ...item })).reverse();
      const old = drawFloorPlan(draft.format, `${store.storeName} 改装前レイアウト`, before);
      store.diagrams.unshift({ name: `${draft.location.branch}_改装前レイアウト.svg`, svg: old.svg, current: false, createdAt: new Date(created.getTime() - 400 * 86_400_000) });
    }
  }
  const templates: PlannedDiagram[] = (['convenience', 'supermarket'] as const).map((format, i) => {
    const items = TEMPLATES[format]
      .filter((t) => t.chance >= 0.5)
      .slice(0, 20)
      .map((t) => ({ key: t.key, label: t.short, zone: t.zone, climate: t.climate }));
    const name = format === 'convenience' ? 'コンビニ標準レイアウト' : 'スーパー標準レイアウト';
    return { name: `${name}.svg`, svg: drawFloorPlan(format, name, items).svg, current: false, createdAt: new Date(today.getTime() - (300 + i) * 86_400_000) };
  });

  alerts.sort((a, b) => a.startedAt.getTime() - b.startedAt.getTime() || a.storeId.localeCompare(b.storeId));
  return {
    now,
    nowMinute,
    days,
    companies: COMPANIES.map(({ companyId, companyName }) => ({ companyId, companyName })),
    storegroups: STOREGROUPS.map((g) => ({ ...g })),
    usergroups,
    users: USERS.map((u) => ({ ...u })),
    notices: NOTICES.map((n) => ({ title: n.title, content: n.content, createdAt: new Date(now.getTime() - n.hoursAgo * 3_600_000), createdBy: 'admin' })),
    stores: drafts.map((d) => d.store),
    templates,
    schedules,
    alerts,
  };
}

function modelFor(climate: Climate, rng: Rng): number {
  if (climate === 'hot') return rng.weighted([[1, 0.7], [5, 0.3]]);
  if (climate === 'frozen') return rng.weighted([[1, 0.6], [5, 0.25], [2, 0.15]]);
  return rng.weighted([[1, 0.45], [2, 0.1], [3, 0.2], [4, 0.1], [5, 0.05], [6, 0.1]]);
}

function defrostRanges(defTime: DefrostTime[]) {
  const parsed = parseDefrostTimes(defTime);
  if (!parsed.ok) throw new Error(`Bad demo def_time ${JSON.stringify(defTime)}`);
  return parsed.ranges;
}

export function targetOf(sensor: PlannedSensor): ExcursionTarget | null {
  if (sensor.lowerLimit === null || sensor.upperLimit === null) return null;
  if (!['chilled', 'drink', 'walkin', 'frozen', 'produce', 'hot'].includes(sensor.climate)) return null;
  return { climate: sensor.climate, limits: [sensor.lowerLimit, sensor.upperLimit], curve: sensor.curve, sensorId: sensor.sensorId };
}

interface NamedIncidents {
  /** Sensors (template keys) that play a planned part: no random incidents on them. */
  sensors: string[];
  lastMinute: Map<string, number>;
  silenceChecks: Map<string, number[]>;
  /** Planned stop decisions by `${key}:${code}` (null: never stopped). */
  stops: Map<string, StopDecision | null>;
}

/** The planned incidents of the stores that play a part (chain.ts StoreRole). */
function planNamedIncidents(
  draft: StoreDraft,
  ctx: { nowMinute: number; daysAgo(n: number): Date; schedules: readonly AlertStopSchedule[] },
): NamedIncidents {
  const { store } = draft;
  const { nowMinute } = ctx;
  const result: NamedIncidents = { sensors: [], lastMinute: new Map(), silenceChecks: new Map(), stops: new Map() };
  const sensor = (key: string) => {
    const found = store.sensors.find((s) => s.key === key);
    if (!found) throw new Error(`${store.storeName} has no ${key} sensor for its part (${store.role})`);
    result.sensors.push(key);
    return found;
  };
  const excursion = (s: PlannedSensor, ex: Omit<Excursion, 'delta'> & { above: number }) => {
    const [lo, hi] = [s.lowerLimit!, s.upperLimit!];
    const delta = Math.round((ex.above >= 0 ? hi - s.curve.base + ex.above : lo - s.curve.base + ex.above) * 10) / 10;
    s.curve.excursions.push({ start: ex.start, end: ex.end, up: ex.up, down: ex.down, delta });
  };
  /** Moves a start earlier (or later) until the sensor is clear of defrost and stop windows over [start - 10, start + length]. */
  const clearStart = (s: PlannedSensor, start: number, length: number, step: number) => {
    const target = targetOf(s)!;
    for (let i = 0; i < 40; i++, start += step) if (isClear(target, ctx.schedules, start - 10, start + length)) return start;
    return start;
  };
  switch (store.role) {
    case 'storeUserHome': {
      const s = sensor('drink1');
      Object.assign(s, { guardTime: 15, timeConstant: 100 });
      excursion(s, { start: nowMinute - 55, end: nowMinute + 600, above: 4.5, up: 8, down: 10 });
      result.stops.set(`drink1:${ALERT_CODES.upperLimit}`, null);
      break;
    }
    case 'ongoingStopped': {
      const s = sensor('frozen1');
      Object.assign(s, { guardTime: 20, timeConstant: 80 });
      const start = clearStart(s, nowMinute - 110, 90, -10);
      excursion(s, { start, end: nowMinute + 600, above: 9, up: 20, down: 15 });
      result.stops.set(`frozen1:${ALERT_CODES.upperLimit}`, { afterMinutes: 25, by: 'hayashi01', comment: '保守業者に連絡済み、到着待ちです' });
      break;
    }
    case 'ongoingLower': {
      const s = sensor('onigiri');
      Object.assign(s, { guardTime: 15, timeConstant: 100 });
      excursion(s, { start: nowMinute - 80, end: nowMinute + 600, above: -2.5, up: 15, down: 15 });
      result.stops.set(`onigiri:${ALERT_CODES.lowerLimit}`, null);
      // A case warming right now: outside its limit, but its guard time still runs (status 1).
      const d = sensor('dessert');
      Object.assign(d, { guardTime: 30, timeConstant: 50 });
      excursion(d, { start: nowMinute - 18, end: nowMinute + 600, above: 3, up: 3, down: 10 });
      break;
    }
    case 'lowBattery': {
      const s = sensor('dairy');
      s.curve.battery = { level: 7, perDay: 1.3, at: nowMinute };
      result.stops.set(`dairy:${ALERT_CODES.batteryLow}`, null);
      break;
    }
    case 'errorReadings': {
      const s = sensor('drink1');
      const start = nowMinute - 18 * 60;
      s.curve.errors.push({ start, end: start + 95 });
      result.stops.set(`drink1:${ALERT_CODES.sensorError}`, { afterMinutes: 30, by: 'carter01', comment: 'センサの位置を確認しました。異常なし' });
      break;
    }
    case 'silentSensor': {
      sensor('dairy');
      result.lastMinute.set('dairy', nowMinute - 180);
      result.silenceChecks.set('dairy', [nowMinute - 180 + NO_COMMUNICATION_MINUTES, nowMinute]);
      result.stops.set(`dairy:${ALERT_CODES.noCommunication}`, null);
      break;
    }
    case 'gap': {
      const s = sensor('sandwich');
      const start = nowMinute - 20 * 60;
      s.curve.gaps.push({ start, end: start + 100 });
      result.stops.set(`sandwich:${ALERT_CODES.noCommunication}`, null);
      break;
    }
    case 'freezerFailure': {
      const s = sensor('frozen1');
      Object.assign(s, { guardTime: 20, timeConstant: 80 });
      const start = clearStart(s, nowMinute - 3 * DAY, 150, 15);
      excursion(s, { start, end: start + 150, above: 11, up: 25, down: 15 });
      result.stops.set(`frozen1:${ALERT_CODES.upperLimit}`, { afterMinutes: 20, by: 'okada01', comment: 'ケース内の商品を別のケースへ移しました' });
      break;
    }
    case 'chilledExcursion': {
      const s = sensor('sandwich');
      Object.assign(s, { guardTime: 10, timeConstant: 100 });
      const start = nowMinute - 22 * 60;
      excursion(s, { start, end: start + 55, above: 3, up: 6, down: 8 });
      result.stops.set(`sandwich:${ALERT_CODES.upperLimit}`, { afterMinutes: 12, by: 'areamanager', comment: '扉の閉め忘れを確認、商品を移動しました' });
      break;
    }
    case 'maintenance': {
      // Cases swapped during the store-wide maintenance window (13:00-16:00, 2 days ago): readings leave the limits, no alert.
      const s = sensor('meat');
      const start = minuteOf(ctx.daysAgo(2)) + 13 * 60 + 30;
      excursion(s, { start, end: start + 90, above: 3, up: 8, down: 8 });
      break;
    }
    default:
      break;
  }
  return result;
}

/**
 * Everyday incidents: in each 7-day chunk of the stored readings a few sensors have one
 * (recovered before now), and before the readings a month of older history, heavier in the
 * busy stores so their alert history runs to several pages. Excursions stay inside one chunk
 * and avoid defrost and stop windows; no sensor has two at once.
 */
function planRandomIncidents(draft: StoreDraft, rng: Rng, schedules: readonly AlertStopSchedule[], reserved: Set<string>, nowMinute: number, busy: boolean): void {
  const { store, window } = draft;
  if (!window) return;
  const candidates = store.sensors.filter((s) => !reserved.has(s.key) && targetOf(s) !== null);
  if (candidates.length === 0) return;
  const busyUntil = new Map<number, [number, number][]>();
  const overlaps = (s: PlannedSensor, from: number, to: number, margin: number) =>
    (busyUntil.get(s.sensorId) ?? []).some(([a, b]) => from < b + margin && a < to + margin);
  const remember = (s: PlannedSensor, from: number, to: number) => busyUntil.set(s.sensorId, [...(busyUntil.get(s.sensorId) ?? []), [from, to]]);

  const tryExcursion = (s: PlannedSensor, from: number, to: number): boolean => {
    const target = targetOf(s)!;
    for (let attempt = 0; attempt < 6; attempt++) {
      if (to - from < 300) return false;
      const start = rng.int(from, to - 300);
      const ex = randomExcursion(rng, target, start);
      const [a, b] = excursionSpan(ex);
      if (b > to || !fitsClimate(target, start) || overlaps(s, a, b, 720) || !isClear(target, schedules, a - 10, b)) continue;
      s.curve.excursions.push(ex);
      remember(s, a, b);
      return true;
    }
    return false;
  };

  // In the stored readings: chunks of 7 days from the last reading back; one excursion per sensor and chunk at most.
  const storeLast = Math.min(window.last, nowMinute - 90);
  for (let chunkEnd = window.last; chunkEnd >= window.first; chunkEnd -= CHUNK_MINUTES) {
    const chunkStart = Math.max(window.first, chunkEnd - CHUNK_MINUTES + 1);
    const share = (chunkEnd - chunkStart + 1) / CHUNK_MINUTES;
    for (const s of candidates) {
      if (rng.chance(0.12 * share)) tryExcursion(s, chunkStart + 60, Math.min(chunkEnd, storeLast) - 30);
    }
  }

  // Before the readings: a month of history.
  const archiveFrom = Math.max(window.first - 30 * DAY, draft.installedFrom + DAY);
  const archiveTo = window.first - DAY;
  if (archiveTo - archiveFrom < DAY) return;
  const excursions = busy ? rng.int(30, 38) : rng.weighted([[0, 0.25], [1, 0.3], [2, 0.25], [4, 0.15], [6, 0.05]] as const);
  for (let i = 0; i < excursions; i++) tryExcursion(rng.pick(candidates), archiveFrom, archiveTo);
  const windows = (count: number, minLength: number, maxLength: number, into: 'errors' | 'gaps') => {
    for (let i = 0; i < count; i++) {
      const s = rng.pick(store.sensors);
      const start = rng.int(archiveFrom, archiveTo - 300);
      const end = start + rng.int(minLength, maxLength);
      if (overlaps(s, start, end + EXCURSION_TAIL, 720)) continue;
      s.curve[into].push({ start, end });
      remember(s, start, end);
    }
  };
  windows(busy ? 2 : rng.chance(0.1) ? 1 : 0, 20, 90, 'errors');
  windows(busy ? 2 : rng.chance(0.1) ? 1 : 0, 75, 180, 'gaps');
}

