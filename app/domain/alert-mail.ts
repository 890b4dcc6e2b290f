import { type AlertCode, alertText, gatewayDownText, type Language } from './alert-codes';
import { formatDegrees } from './format';
import { formatDateTime } from './japan-time';

export type MailKind = 'open' | 'recover' | 'renotify';

export interface AlertMailFacts {
  kind: MailKind;
  code: AlertCode;
  storeName: string;
  equipmentName: string | null; // null: the store-level gateway alert
  temperature: number | null;
  error: boolean;
  lowerLimit: number | null;
  upperLimit: number | null;
  at: Date;
  graphUrl: string | null;
}

const KIND_LABEL: Record<MailKind, Record<Language, string>> = {
  open: { JP: '警報発生', US: 'Alert' },
  renotify: { JP: '警報継続（再通知）', US: 'Alert continues (reminder)' },
  recover: { JP: '警報復旧', US: 'Recovered' },
};

/** The alert mail in the user's language: store, sensor, the 000 §8 text, temperature and limits, Japan time, graph link. */
export function alertMail(facts: AlertMailFacts, language: Language): { subject: string; text: string } {
  // The mail reads as the alert's confirmed (status 2) wording: it is sent once the alert is open.
  const message = facts.equipmentName === null ? gatewayDownText(language) : alertText(facts.code, language, 2);
  const where = facts.equipmentName === null ? facts.storeName : `${facts.storeName} ${facts.equipmentName}`;
  const subject = `[On-Reco] ${KIND_LABEL[facts.kind][language]}: ${where} ${message}`;
  const temperature = facts.error ? 'ERROR' : formatDegrees(facts.temperature);
  const limits = `${formatDegrees(facts.lowerLimit)} 〜 ${formatDegrees(facts.upperLimit)}`;
  const lines =
    language === 'US'
      ? [
          `${KIND_LABEL[facts.kind].US}: ${message}`,
          '',
          `Store:       ${facts.storeName}`,
          ...(facts.equipmentName === null ? [] : [`Sensor:      ${facts.equipmentName}`, `Temperature: ${temperature}`, `Limits:      ${limits}`]),
          `Time:        ${formatDateTime(facts.at)} (Japan time)`,
        ]
      : [
          `${KIND_LABEL[facts.kind].JP}: ${message}`,
          '',
          `店舗:     ${facts.storeName}`,
          ...(facts.equipmentName === null ? [] : [`センサ:   ${facts.equipmentName}`, `温度:     ${temperature}`, `上下限値: ${limits}`]),
          `日時:     ${formatDateTime(facts.at)}`,
        ];
  if (facts.graphUrl) lines.push('', language === 'US' ? `Graph: ${facts.graphUrl}` : `温度グラフ: ${facts.graphUrl}`);
  lines.push('', language === 'US' ? 'This mail was sent by On-Reco automatically.' : 'このメールは On-Reco から自動送信されています。');
  return { subject, text: `${lines.join('\n')}\n` };
}
