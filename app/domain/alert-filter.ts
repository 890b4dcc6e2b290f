// A user's alert mails, alert_filter (001 §4: 0 occurrence and recovery, 1 occurrence only,
// 2 none): the one owner of its codes, labels, CLI names and rules. The user forms and lists,
// the store's users table, the CLI and the mail fan-out of the alert pipeline read them here;
// lint refuses comparing an alert filter with a number literal.

export const ALERT_FILTER = { occurrenceAndRecovery: 0, occurrenceOnly: 1, none: 2 } as const;
export type AlertFilter = (typeof ALERT_FILTER)[keyof typeof ALERT_FILTER];
export const ALERT_FILTERS: readonly AlertFilter[] = Object.values(ALERT_FILTER);

export const ALERT_FILTER_LABELS: Record<number, string> = { 0: '発生・復旧時', 1: '発生時のみ', 2: '通知しない' };

/** The lists' alert column: none is a dash, an unknown value 不明. */
export function alertFilterText(value: number, none = '–'): string {
  if (value === ALERT_FILTER.none) return none;
  return ALERT_FILTER_LABELS[value] ?? '不明';
}

/** The CLI's names (`--alert-mails`) and what it prints. */
export const ALERT_FILTER_CLI_NAMES = { all: ALERT_FILTER.occurrenceAndRecovery, alerts: ALERT_FILTER.occurrenceOnly, none: ALERT_FILTER.none } as const;
export type AlertFilterCliName = keyof typeof ALERT_FILTER_CLI_NAMES;
const CLI_TEXT: Record<number, string> = { 0: 'all', 1: 'alerts only', 2: 'none' };
export const alertFilterCliText = (value: number): string => CLI_TEXT[value] ?? String(value);

/** Whether a user with this filter is mailed an alert's opening (and its re-notifications). */
export const mailsOccurrence = (filter: number): boolean => filter === ALERT_FILTER.occurrenceAndRecovery || filter === ALERT_FILTER.occurrenceOnly;

/** Whether a user with this filter is mailed an alert's recovery too. */
export const mailsRecovery = (filter: number): boolean => filter === ALERT_FILTER.occurrenceAndRecovery;
