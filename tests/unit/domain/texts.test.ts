import { describe, expect, it } from 'vitest';
import { alertText, ALL_ALERT_CODES, gatewayDownText } from '~/domain/alert-codes';
import { alertMail } from '~/domain/alert-mail';
import { en, ja, textsFor } from '~/domain/texts';

/** Every key path of a catalogue, functions as leaves. */
function keyPaths(value: unknown, prefix = ''): string[] {
  if (value === null || typeof value !== 'object') return [prefix];
  return Object.entries(value).flatMap(([key, inner]) => keyPaths(inner, prefix ? `${prefix}.${key}` : key)).sort();
}

describe('text catalogues', () => {
  it('ja and en have the same keys, none empty', () => {
    expect(keyPaths(en)).toEqual(keyPaths(ja));
    for (const catalogue of [ja, en]) for (const path of keyPaths(catalogue)) expect(path.split('.').reduce<any>((at, key) => at[key], catalogue)).toBeTruthy();
  });

  it('gives each user language its catalogue', () => {
    expect(textsFor('JP')).toBe(ja);
    expect(textsFor('US')).toBe(en);
  });

  it('reads the alert messages from the catalogues (000 §8)', () => {
    for (const code of ALL_ALERT_CODES) {
      expect(alertText(code, 'JP', 1)).toBe(ja.alerts[code]);
      expect(alertText(code, 'US', 1)).toBe(en.alerts[code]);
    }
    expect(alertText('OE00000001', 'JP', 2)).toBe('温度異常（上限超過）');
    expect(alertText('OE00000003', 'JP', 2)).toBe('電池残量低下');
    expect(gatewayDownText('US')).toBe(en.gatewayDown);
  });

  it('writes the alert mail in the user language, the temperature by the one formatter', () => {
    const facts = { kind: 'open' as const, code: 'OE00000001' as const, storeName: '店A', equipmentName: '冷蔵1', temperature: -18.25, error: false, lowerLimit: -25, upperLimit: -18.3, at: new Date('2026-11-20T01:02:03Z'), graphUrl: 'https://x/g' };
    const jp = alertMail(facts, 'JP');
    expect(jp.subject).toBe('[On-Reco] 警報発生: 店A 冷蔵1 温度異常（上限超過）');
    expect(jp.text).toContain('温度:     -18.3℃\n上下限値: -25.0℃ 〜 -18.3℃\n日時:     2026/11/20 10:02');
    const us = alertMail(facts, 'US');
    expect(us.subject).toBe('[On-Reco] Alert: 店A 冷蔵1 Temperature abnormal (above upper limit)');
    expect(us.text).toContain('Time:        2026/11/20 10:02 (Japan time)');
    expect(us.text).toContain('Graph: https://x/g\n\nThis mail was sent by On-Reco automatically.\n');
  });
});
