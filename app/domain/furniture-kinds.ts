// Furniture icon kinds 1 to 22 of the equipment (000 §3), for menus, legends and the icons.

import type { Language } from './alert-codes';

export const FURNITURE_KINDS = [
  { id: 1, key: 'alcohol', ja: 'お酒', en: 'Alcohol' },
  { id: 2, key: 'backyard', ja: 'バックヤード', en: 'Backyard' },
  { id: 3, key: 'chilled1', ja: 'チルド1', en: 'Chilled 1' },
  { id: 4, key: 'chilled2', ja: 'チルド2', en: 'Chilled 2' },
  { id: 5, key: 'cosmetics', ja: '化粧品', en: 'Cosmetics' },
  { id: 6, key: 'dairy', ja: '乳製品', en: 'Dairy' },
  { id: 7, key: 'dessert', ja: 'デザート', en: 'Dessert' },
  { id: 8, key: 'drink', ja: '飲料', en: 'Drink' },
  { id: 9, key: 'energyDrink', ja: 'エナジードリンク', en: 'Energy drink' },
  { id: 10, key: 'frozen', ja: '冷凍食品', en: 'Frozen food' },
  { id: 11, key: 'fruit', ja: '果物', en: 'Fruit' },
  { id: 12, key: 'hotSnack', ja: 'ホットスナック', en: 'Hot snack' },
  { id: 13, key: 'ice', ja: 'アイス', en: 'Ice cream' },
  { id: 14, key: 'medicine', ja: '医薬品', en: 'Medicine' },
  { id: 15, key: 'obento', ja: 'お弁当', en: 'Obento' },
  { id: 16, key: 'onigiri', ja: 'おにぎり', en: 'Onigiri' },
  { id: 17, key: 'outsideTemperature', ja: '外気温', en: 'Outside temperature' },
  { id: 18, key: 'sideDish1', ja: '惣菜1', en: 'Side dish 1' },
  { id: 19, key: 'sideDish2', ja: '惣菜2', en: 'Side dish 2' },
  { id: 20, key: 'storeTemperature', ja: '店内温度', en: 'Store temperature' },
  { id: 21, key: 'sweets', ja: 'お菓子', en: 'Sweets' },
  { id: 22, key: 'vegetable', ja: '野菜', en: 'Vegetable' },
] as const;

export type FurnitureKind = (typeof FURNITURE_KINDS)[number];
export type FurnitureKindId = FurnitureKind['id'];
export type FurnitureKindKey = FurnitureKind['key'];

export const FURNITURE_KIND_COUNT = FURNITURE_KINDS.length;

/** For icon_kind values coming from the API or a form. */
export function isFurnitureKindId(value: number): value is FurnitureKindId {
  return Number.isInteger(value) && value >= 1 && value <= FURNITURE_KIND_COUNT;
}

/** The kind with this id, or null for a value outside 1 to 22. */
export function getFurnitureKind(id: number): FurnitureKind | null {
  return isFurnitureKindId(id) ? FURNITURE_KINDS[id - 1] : null;
}

/** The kind's label in the user's language; an unknown kind reads #n. */
export function furnitureLabel(kind: number, language: Language = 'JP'): string {
  const found = getFurnitureKind(kind);
  if (!found) return `#${kind}`;
  return language === 'US' ? found.en : found.ja;
}
