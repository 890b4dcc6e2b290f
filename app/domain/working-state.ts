import { en } from './texts/en';
import { ja } from './texts/ja';

// A store's working state (000 §4, 001 §3): the one owner of its codes, labels, CLI names and
// rules. Every surface (console, API, CLI, services, demo) reads them here; lint refuses
// comparing a working state with a number literal. Kept apart from the store schemas so that
// what every store page draws (the 撤去 badge of the page header) does not bring zod into the
// shared chunks, and apart from the alert engine so that the page does not pull in the engine.

export const WORKING_STATE = { waitingForFirstCommunication: 0, operating: 1, removed: 2 } as const;
/** null: no working state (稼働情報なし), a store without a gateway yet. */
export type WorkingState = (typeof WORKING_STATE)[keyof typeof WORKING_STATE];

/** The name the CLI prints for each state, and for null. */
export const WORKING_STATE_CLI_NAMES: Record<string, string> = { null: 'no info', 0: 'waiting', 1: 'operating', 2: 'removed' };

/** A removed (撤去) store: its gateway stopped, its readings end where they were; its reports can no longer be made, edited or deleted. */
export function isRemovedStore(state: number | null): boolean {
  return state === WORKING_STATE.removed;
}

/** 稼働情報なし (null), 初回通信待ち, 稼働中, 撤去. */
export function workingStateLabel(state: number | null, language: 'JP' | 'US' = 'JP'): string {
  const labels: Record<string, string> = language === 'US' ? en.workingState : ja.workingState;
  return labels[String(state)] ?? labels.null;
}

export function workingStateCliName(state: number | null): string {
  return WORKING_STATE_CLI_NAMES[String(state)] ?? String(state);
}

/** Gateway exchange is allowed while operating or removed. */
export function canExchangeGateway(state: number | null): boolean {
  return state === WORKING_STATE.operating || state === WORKING_STATE.removed;
}

/** Removal is offered only for an operating store that has a gateway. */
export function canRemoveStore(state: number | null, gatewayInfo: string | null): boolean {
  return state === WORKING_STATE.operating && gatewayInfo !== null && gatewayInfo !== '';
}

/** The opening date is not editable once the store has operated (001 §2: working state 1 or 2). */
export function isOpeningDateLocked(state: number | null): boolean {
  return state === WORKING_STATE.operating || state === WORKING_STATE.removed;
}

/** Whether a store may hold a PIN: a removed store has no gateway to pair until an exchange. */
export function canHoldPin(state: number | null): boolean {
  return state !== WORKING_STATE.removed;
}

/**
 * The working state after the store's gateway changes (an exchange, or a store save with
 * another gateway_info): a new gateway means waiting for its first communication (0), which
 * ingest turns into operating (1); no gateway means no operation info (null), except that a
 * removed store stays removed.
 */
export function workingStateAfterGatewayChange(previous: number | null, gatewayInfo: string | null): number | null {
  if (gatewayInfo !== null) return WORKING_STATE.waitingForFirstCommunication;
  return previous === WORKING_STATE.removed ? WORKING_STATE.removed : null;
}
