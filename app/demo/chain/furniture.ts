import { FURNITURE_KINDS, type FurnitureKind, type FurnitureKindKey } from '~/domain/furniture-kinds';
import { maxDeviation, type SensorCurve } from './curves';
import type { Rng } from './prng';

// What a demo store's sensors measure: the furniture of a Japanese convenience store and of a
// supermarket, each with its icon kind (1-22), its measured-furniture kind (1-13, the
// measure_target_equipment_kinds of the migration), the limits that fit it, where it stands on
// the floor plan, and how its temperature behaves.

export type StoreFormat = 'convenience' | 'supermarket';

/** Where a piece of furniture stands on the floor plan (floorplan.ts). */
export type Zone = 'wallTop' | 'wallLeft' | 'wallRight' | 'island' | 'counter' | 'backyard' | 'floor' | 'outside';

/** How the temperature behaves: drives the curve parameters and the default limits. */
export type Climate = 'chilled' | 'drink' | 'walkin' | 'frozen' | 'hot' | 'produce' | 'room' | 'shelf' | 'outside';

/** The icon kinds (1-22) by key, from the one list of app/domain/furniture-kinds.ts. */
export const ICON_KIND = Object.fromEntries(FURNITURE_KINDS.map((kind) => [kind.key, kind.id])) as { readonly [K in FurnitureKindKey]: Extract<FurnitureKind, { key: K }>['id'] };

/** measure_target_equipment_kinds of the migration. */
export const FURNITURE_KIND = {
  reachInFridge: 1, multiDeckOpen: 2, reachInFreezer: 3, flatFreezer: 4, iceStocker: 5, walkInFridge: 6, walkInFreezer: 7,
  drinkCooler: 8, hotShowcase: 9, steamer: 10, backyardFridge: 11, salesFloor: 12, outdoors: 13,
} as const;

export interface SensorTemplate {
  key: string;
  /** equipment_name, at most 30 characters. */
  name: string;
  /** The label of the furniture on the floor plan. */
  short: string;
  icon: number;
  furniture: number;
  climate: Climate;
  zone: Zone;
  /** Chance that a store of the format has it; 1 for the furniture every store has. */
  chance: number;
  limits?: [number, number] | null;
}

type Row = Omit<SensorTemplate, 'zone'>;

const t = (key: string, name: string, short: string, icon: number, furniture: number, climate: Climate, chance: number, limits?: [number, number] | null): Row =>
  ({ key, name, short, icon, furniture, climate, chance, limits });

/** The commonest furniture: a multi-deck open case of chilled food. */
const openCase = (key: string, name: string, short: string, icon: number, chance: number, limits?: [number, number] | null) =>
  t(key, name, short, icon, FURNITURE_KIND.multiDeckOpen, 'chilled', chance, limits);

/** A format's furniture, zone by zone as it stands on the floor plan; the order is kept (a store's sensors are drawn from it). */
function byZone(zones: Partial<Record<Zone, Row[]>>): SensorTemplate[] {
  return Object.entries(zones).flatMap(([zone, rows]) => rows.map(({ chance, limits, ...row }) => ({ ...row, zone: zone as Zone, chance, limits })));
}

const K = ICON_KIND;
const F = FURNITURE_KIND;

export const CONVENIENCE_TEMPLATES: readonly SensorTemplate[] = byZone({
  backyard: [t('walkin', 'ウォークイン冷蔵庫', 'W/I冷蔵庫', K.backyard, F.walkInFridge, 'walkin', 0.7)],
  wallTop: [
    t('drink1', 'ドリンクリーチイン1', 'ドリンク1', K.drink, F.reachInFridge, 'drink', 1),
    t('drink2', 'ドリンクリーチイン2', 'ドリンク2', K.drink, F.reachInFridge, 'drink', 0.35),
    t('alcohol', '酒類リーチイン', '酒類', K.alcohol, F.reachInFridge, 'drink', 0.7),
    openCase('chilledDrink', 'チルド飲料ケース', 'チルド飲料', K.chilled2, 0.3),
    t('frozen', '冷凍ケース1', '冷凍ケース', K.frozen, F.reachInFreezer, 'frozen', 1),
  ],
  wallLeft: [
    openCase('onigiri', 'おにぎりケース', 'おにぎり', K.onigiri, 1, [3, 10]),
    openCase('obento', '弁当ケース', '弁当', K.obento, 1, [3, 10]),
    openCase('sandwich', 'サンド・チルドケース', 'サンド', K.chilled1, 0.7),
    openCase('sideDish', '惣菜ケース', '惣菜', K.sideDish1, 0.4),
    openCase('dessert', 'デザートケース', 'デザート', K.dessert, 0.7),
    openCase('dairy', '乳製品ケース', '乳製品', K.dairy, 0.5),
    openCase('sweets', 'スイーツケース', 'スイーツ', K.sweets, 0.3),
    t('vegetable', 'カット野菜ケース', 'カット野菜', K.vegetable, F.multiDeckOpen, 'produce', 0.15),
    t('fruit', 'カットフルーツケース', 'フルーツ', K.fruit, F.multiDeckOpen, 'produce', 0.15),
  ],
  island: [
    t('ice', 'アイスストッカー', 'アイス', K.ice, F.iceStocker, 'frozen', 1),
    t('energy', 'エナジードリンククーラー', 'エナジー', K.energyDrink, F.drinkCooler, 'drink', 0.3),
    t('medicine', '医薬品棚', '医薬品', K.medicine, F.salesFloor, 'shelf', 0.2),
    t('cosmetics', '化粧品棚', '化粧品', K.cosmetics, F.salesFloor, 'shelf', 0.25),
  ],
  counter: [
    t('hotSnack', 'ホットスナック什器', 'ホットスナック', K.hotSnack, F.hotShowcase, 'hot', 1),
    t('steamer', '中華まんスチーマー', '中華まん', K.hotSnack, F.steamer, 'hot', 0.4),
  ],
  floor: [t('room', '店内温度', '売場', K.storeTemperature, F.salesFloor, 'room', 0.85)],
  outside: [t('outside', '屋外温度', '屋外', K.outsideTemperature, F.outdoors, 'outside', 0.35)],
});

export const SUPERMARKET_TEMPLATES: readonly SensorTemplate[] = byZone({
  wallLeft: [
    t('veg1', '青果多段ケース1', '青果1', K.vegetable, F.multiDeckOpen, 'produce', 1),
    t('veg2', '青果多段ケース2', '青果2', K.vegetable, F.multiDeckOpen, 'produce', 0.5),
    t('fruit', '果物ケース', '果物', K.fruit, F.multiDeckOpen, 'produce', 0.9),
  ],
  wallTop: [
    openCase('meat', '精肉多段ケース', '精肉', K.chilled2, 1),
    openCase('fish', '鮮魚多段ケース', '鮮魚', K.chilled2, 1),
    openCase('dailyFood', '日配ケース（豆腐・練り物）', '日配', K.chilled1, 1),
    openCase('dairy', '乳製品ケース', '乳製品', K.dairy, 1),
    openCase('dessert', 'デザートケース', 'デザート', K.dessert, 0.6),
    t('alcohol', '酒類リーチイン', '酒類', K.alcohol, F.reachInFridge, 'drink', 0.6),
    t('drink', 'ドリンクリーチイン', 'ドリンク', K.drink, F.reachInFridge, 'drink', 0.6),
  ],
  wallRight: [
    openCase('sideDish1', '惣菜ケース1', '惣菜1', K.sideDish1, 1),
    openCase('sideDish2', '惣菜ケース2', '惣菜2', K.sideDish2, 0.6),
    openCase('obento', '弁当・寿司ケース', '弁当・寿司', K.obento, 1, [3, 10]),
    openCase('onigiri', 'おにぎりケース', 'おにぎり', K.onigiri, 0.4, [3, 10]),
    openCase('sweets', '洋菓子ケース', '洋菓子', K.sweets, 0.4),
  ],
  island: [
    t('frozen1', '冷凍平台1', '冷凍平台1', K.frozen, F.flatFreezer, 'frozen', 1),
    t('frozen2', '冷凍平台2', '冷凍平台2', K.frozen, F.flatFreezer, 'frozen', 0.6),
    t('ice', 'アイス平台', 'アイス', K.ice, F.flatFreezer, 'frozen', 0.8),
    t('energy', 'エナジードリンク冷蔵棚', 'エナジー', K.energyDrink, F.drinkCooler, 'drink', 0.3),
    t('medicine', '医薬品コーナー', '医薬品', K.medicine, F.salesFloor, 'shelf', 0.3),
    t('cosmetics', '化粧品コーナー', '化粧品', K.cosmetics, F.salesFloor, 'shelf', 0.4),
  ],
  counter: [t('hotDeli', '揚げ物ホットケース', 'ホット惣菜', K.hotSnack, F.hotShowcase, 'hot', 0.6)],
  backyard: [
    t('backyardFridge', 'バックヤード冷蔵庫', 'BY冷蔵庫', K.backyard, F.backyardFridge, 'walkin', 1),
    t('backyardFreezer', 'バックヤード冷凍庫', 'BY冷凍庫', K.backyard, F.walkInFreezer, 'frozen', 0.7),
  ],
  floor: [t('room', '店内温度', '売場', K.storeTemperature, F.salesFloor, 'room', 0.8)],
  outside: [t('outside', '屋外温度', '屋外', K.outsideTemperature, F.outdoors, 'outside', 0.5)],
});

export const TEMPLATES: Record<StoreFormat, readonly SensorTemplate[]> = {
  convenience: CONVENIENCE_TEMPLATES,
  supermarket: SUPERMARKET_TEMPLATES,
};

export const SENSOR_COUNT: Record<StoreFormat, [number, number]> = { convenience: [8, 14], supermarket: [12, 16] };

/** The templates a store has: every sure one, the others by chance, trimmed to the format's range. */
export function chooseTemplates(format: StoreFormat, rng: Rng, mustHave: readonly string[] = []): SensorTemplate[] {
  const all = TEMPLATES[format];
  const [least, most] = SENSOR_COUNT[format];
  const chosen = new Set(all.filter((tpl) => tpl.chance >= 1 || mustHave.includes(tpl.key) || rng.chance(tpl.chance)).map((tpl) => tpl.key));
  const optional = rng.shuffle(all.filter((tpl) => tpl.chance < 1 && !mustHave.includes(tpl.key)));
  for (const tpl of optional) {
    if (chosen.size > most && chosen.has(tpl.key)) chosen.delete(tpl.key);
  }
  for (const tpl of optional) {
    if (chosen.size < least) chosen.add(tpl.key);
  }
  return all.filter((tpl) => chosen.has(tpl.key));
}

export const DEFAULT_LIMITS: Record<Climate, [number, number] | null> = {
  chilled: [0, 10],
  drink: [0, 12],
  walkin: [0, 10],
  frozen: [-25, -15],
  hot: [55, 60],
  produce: [2, 12],
  room: [15, 30],
  shelf: [15, 25],
  outside: [-10, 40],
};

/** Japan minute of day. */
const hm = (hour: number, minute = 0) => hour * 60 + minute;

/** Hot-snack warmers are switched off at 22:30 and on again at 04:45; the alert-stop window is 22:00-06:00. */
export const WARMER_NIGHT = { start: hm(22, 30), length: hm(4, 45) + 1440 - hm(22, 30) };
export const WARMER_STOP_WINDOWS = [
  { start: hm(22), end: 1440 },
  { start: 0, end: hm(6) },
];

/** Defrost schedules of freezers: 3 or 4 ranges a day, staggered per store. */
export function defrostStarts(rng: Rng): number[] {
  if (rng.chance(0.5)) {
    const first = rng.pick([hm(1), hm(1, 30), hm(2), hm(2, 30), hm(3)]);
    return [0, 1, 2, 3].map((i) => first + i * 360);
  }
  const first = rng.pick([hm(0, 30), hm(1), hm(2), hm(3), hm(4)]);
  return [0, 1, 2].map((i) => first + i * 480);
}

export function hhmm(minute: number): string {
  return `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;
}

/** Mean outdoor temperature by region today (a cosine over the year, warmest in early August). */
export function outdoorMean(regionId: number, prefectureId: number, dayOfYear: number): number {
  const [annual, swing] = prefectureId === 47 ? [23.3, 6] : REGION_CLIMATE[regionId] ?? [16, 10.5];
  return annual + swing * Math.cos((2 * Math.PI * (dayOfYear - 215)) / 365);
}

const REGION_CLIMATE: Record<number, [number, number]> = {
  1: [8.5, 12.5], 2: [11.5, 11.5], 3: [15.8, 10.5], 4: [15.5, 11], 5: [16.6, 10.8], 6: [16.4, 10.5], 7: [17, 10.3], 8: [17.8, 9.5],
};

export interface CurveContext {
  /** The room temperature warmers cool down to. */
  room: number;
  /** Today's mean outdoor temperature where the store is. */
  outdoor: number;
  battery: { level: number; perDay: number; at: number };
  rssi: number;
  defrost: number[];
}

const SAFETY_MARGIN = 0.4;

/**
 * The undisturbed curve of a sensor (no excursions) and its limits. Amplitudes are scaled down
 * when needed so that base ± the largest deviation stays SAFETY_MARGIN inside the limits: only
 * planned excursions, defrost and the warmers' night leave them.
 */
export function baseCurve(template: SensorTemplate, rng: Rng, ctx: CurveContext): { curve: SensorCurve; limits: [number, number] | null } {
  let limits = template.limits === undefined ? DEFAULT_LIMITS[template.climate] : template.limits;
  const phaseAt = (hour: number) => Math.PI / 2 - (hour * 60 * 2 * Math.PI) / 1440; // the daily swing peaks at `hour`
  const common = {
    seed: rng.round(0, 999, 3),
    dayPhase: phaseAt(rng.float(13, 17)),
    wanderPeriod: rng.int(2500, 7000),
    wanderPhase: rng.float(0, 2 * Math.PI),
    cyclePeriod: rng.int(18, 36),
    cyclePhase: rng.float(0, 2 * Math.PI),
    defrost: null,
    night: null,
    battery: ctx.battery,
    rssi: ctx.rssi,
    excursions: [],
    errors: [],
    gaps: [],
  } satisfies Partial<SensorCurve>;
  let curve: SensorCurve;
  switch (template.climate) {
    case 'chilled':
    case 'produce':
    case 'walkin': {
      const [lo, hi] = limits ?? [0, 10];
      const walkin = template.climate === 'walkin';
      curve = {
        ...common,
        base: rng.round(lo + (hi - lo) * 0.38, lo + (hi - lo) * 0.5, 1),
        noise: 0.12,
        dayAmp: rng.round(0.2, 0.5, 2),
        wanderAmp: rng.round(0.15, 0.4, 2),
        cycleAmp: rng.round(0.7, 1.2, 2),
        cyclePeriod: walkin ? rng.int(30, 45) : common.cyclePeriod,
        door: walkin ? rng.round(1.0, 1.6, 1) : rng.round(1.2, 2.0, 1),
      };
      break;
    }
    case 'drink':
      curve = {
        ...common,
        base: rng.round(4.2, 5.4, 1),
        noise: 0.12,
        dayAmp: rng.round(0.3, 0.6, 2),
        wanderAmp: rng.round(0.2, 0.4, 2),
        cycleAmp: rng.round(0.8, 1.2, 2),
        door: rng.round(2.0, 3.0, 1),
      };
      break;
    case 'frozen':
      curve = {
        ...common,
        base: rng.round(-21, -19.6, 1),
        noise: 0.15,
        dayAmp: rng.round(0.2, 0.4, 2),
        wanderAmp: rng.round(0.2, 0.4, 2),
        cycleAmp: rng.round(0.7, 1.1, 2),
        cyclePeriod: rng.int(28, 42),
        door: rng.round(1.5, 2.2, 1),
        defrost: { amp: rng.round(11, 13, 1), length: rng.pick([20, 30]), starts: ctx.defrost },
      };
      break;
    case 'hot': {
      const base = rng.round(57.5, 57.9, 1);
      curve = {
        ...common,
        base,
        noise: 0.12,
        dayAmp: 0.2,
        wanderAmp: 0.15,
        cycleAmp: 0.3,
        cyclePeriod: rng.int(8, 12),
        door: -rng.round(0.8, 1.0, 1),
        night: { drop: Math.round((base - ctx.room) * 10) / 10, start: WARMER_NIGHT.start, length: WARMER_NIGHT.length },
      };
      break;
    }
    case 'room':
    case 'shelf':
      curve = {
        ...common,
        base: template.climate === 'room' ? Math.round((ctx.room - 0.5 + rng.float(0, 1)) * 10) / 10 : rng.round(21, 22, 1),
        noise: 0.08,
        dayAmp: rng.round(0.6, 1.1, 2),
        wanderAmp: rng.round(0.2, 0.5, 2),
        cycleAmp: 0,
        door: 0,
      };
      break;
    case 'outside':
      curve = {
        ...common,
        base: Math.round(ctx.outdoor * 10) / 10,
        noise: 0.15,
        dayAmp: rng.round(3, 4.5, 2),
        dayPhase: phaseAt(14),
        wanderAmp: rng.round(1, 2, 2),
        cycleAmp: 0,
        door: 0,
      };
      // Outside the chain's usual climate, an outdoor sensor keeps no limits (reference only).
      if (limits && !fits(curve, limits)) limits = null;
      break;
  }
  if (limits) curve = fitWithin(curve, limits);
  return { curve, limits };
}

function fits(curve: SensorCurve, [lo, hi]: [number, number]): boolean {
  const { up, down } = maxDeviation(curve);
  return curve.base + up <= hi - SAFETY_MARGIN && curve.base - down >= lo + SAFETY_MARGIN;
}

/** Scales the curve's swings down until it stays inside the limits with the safety margin. */
function fitWithin(curve: SensorCurve, limits: [number, number]): SensorCurve {
  const [lo, hi] = limits;
  const { up, down } = maxDeviation(curve);
  const room = Math.min((hi - SAFETY_MARGIN - curve.base) / up, (curve.base - lo - SAFETY_MARGIN) / down);
  if (!(room < 1)) return curve;
  const k = Math.max(0, Math.floor(room * 100) / 100);
  return {
    ...curve,
    noise: curve.noise * k,
    dayAmp: curve.dayAmp * k,
    wanderAmp: curve.wanderAmp * k,
    cycleAmp: curve.cycleAmp * k,
    door: curve.door * k,
  };
}
