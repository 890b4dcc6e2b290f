import { ja } from './texts/ja';

// A store's working state (000 §4), apart from the store schemas so that what every store page
// draws (the 撤去 badge of the page header) does not bring zod into the shared chunks.

/** The same values as alert-engine's WORKING_STATE, kept here so the page's bundle does not pull in the engine. */
export const WORKING_STATE = { waitingForFirstCommunication: 0, operating: 1, removed: 2 } as const;

/** A removed (撤去) store: its gateway stopped, its readings end where they were. */
export function isRemovedStore(state: number | null): boolean {
  return state === WORKING_STATE.removed;
}

/** 稼働情報なし (null), 初回通信待ち, 稼働中, 撤去. */
export function workingStateLabel(state: number | null): string {
  const labels: Record<string, string> = ja.workingState;
  return labels[String(state)] ?? labels.null;
}
