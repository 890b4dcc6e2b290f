import { type AlertCode, alertText, type Language, storeAlertText } from './alert-codes';
import { alertValueText } from './alert-value';
import { formatDegrees } from './format';
import { formatDateTime } from './japan-time';
import { textsFor } from './texts';

export type MailKind = 'open' | 'recover' | 'renotify';

export interface AlertMailFacts {
  kind: MailKind;
  code: AlertCode;
  storeName: string;
  equipmentName: string | null; // null: the store-level gateway alert
  temperature: number | null;
  /** A temperature alert's simulated (damped) value, shown labelled beside the reading when it differs. */
  simulatedTemperature?: number | null;
  error: boolean;
  lowerLimit: number | null;
  upperLimit: number | null;
  at: Date;
  graphUrl: string | null;
  /** Readings the gateway dropped (OE00000007), or absent. */
  lost?: number | null;
  /** For a recovery: when the alert opened, so the mail can say how long it lasted. */
  openedAt?: Date | null;
}

/** Whole minutes from `from` to `to` as hours and minutes (never negative). */
export function alertDuration(from: Date, to: Date): { hours: number; minutes: number } {
  const total = Math.max(0, Math.floor((to.getTime() - from.getTime()) / 60_000));
  return { hours: Math.floor(total / 60), minutes: total % 60 };
}

/** The alert mail in the user's language: store, sensor, the 000 §8 text, temperature and limits, Japan time, graph link. */
export function alertMail(facts: AlertMailFacts, language: Language): { subject: string; text: string } {
  // The mail reads as the alert's confirmed (status 2) wording: it is sent once the alert is open.
  const message = facts.equipmentName === null ? storeAlertText(facts.code, language) : alertText(facts.code, language, 2);
  const where = facts.equipmentName === null ? facts.storeName : `${facts.storeName} ${facts.equipmentName}`;
  const texts = textsFor(language).alertMail;
  const kind = texts.kinds[facts.kind];
  const subject = `${texts.subjectPrefix} ${kind}: ${where} ${message}`;
  const temperature = facts.error ? 'ERROR' : alertValueText({ measured: facts.temperature, simulated: facts.simulatedTemperature ?? null }, language);
  const limits = `${formatDegrees(facts.lowerLimit)} 〜 ${formatDegrees(facts.upperLimit)}`;
  const lines = [
    `${kind}: ${message}`,
    '',
    `${texts.store}${facts.storeName}`,
    ...(facts.equipmentName === null ? [] : [`${texts.sensor}${facts.equipmentName}`, `${texts.temperature}${temperature}`, `${texts.limits}${limits}`]),
    texts.time(formatDateTime(facts.at)),
    ...(facts.kind === 'recover' && facts.openedAt ? recoveryLines(texts, facts.openedAt, facts.at) : []),
    ...(facts.lost !== undefined && facts.lost !== null ? [texts.lost(facts.lost)] : []),
  ];
  if (facts.graphUrl) lines.push('', `${texts.graph}${facts.graphUrl}`);
  lines.push('', texts.footer);
  return { subject, text: `${lines.join('\n')}\n` };
}

function recoveryLines(texts: ReturnType<typeof textsFor>['alertMail'], openedAt: Date, recoveredAt: Date): string[] {
  const { hours, minutes } = alertDuration(openedAt, recoveredAt);
  return [texts.opened(formatDateTime(openedAt)), texts.lasted(texts.duration(hours, minutes))];
}
