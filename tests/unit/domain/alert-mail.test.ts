import { describe, expect, it } from 'vitest';
import { alertDuration, alertMail } from '~/domain/alert-mail';
import { outboxMessageId } from '~/services/mail.server';

const facts = {
  code: 'OE00000001' as const,
  storeName: '新宿店',
  equipmentName: '冷凍ケース1',
  temperature: 4.1,
  error: false,
  lowerLimit: -25,
  upperLimit: -15,
  at: new Date('2026-11-28T03:42:00Z'),
  graphUrl: null,
};

describe('alert mail', () => {
  it('says in a recovery when the alert opened (Japan time) and how long it lasted', () => {
    const mail = alertMail({ ...facts, kind: 'recover', openedAt: new Date('2026-11-28T01:15:30Z') }, 'JP');
    expect(mail.text).toContain('発生日時: 2026/11/28 10:15');
    expect(mail.text).toContain('継続時間: 2時間26分');
    const en = alertMail({ ...facts, kind: 'recover', openedAt: new Date('2026-11-28T03:30:00Z') }, 'US');
    expect(en.text).toContain('Opened:      2026/11/28 12:30 (Japan time)');
    expect(en.text).toMatch(/Lasted: +12 min\n/);
  });

  it('has no opening or duration lines in an opening mail', () => {
    const mail = alertMail({ ...facts, kind: 'open', openedAt: new Date('2026-11-28T01:00:00Z') }, 'JP');
    expect(mail.text).not.toContain('発生日時');
    expect(mail.text).not.toContain('継続時間');
  });

  it('shows a damped opening value labelled beside the reading, and the reading alone when they agree (decision 278)', () => {
    const damped = { ...facts, kind: 'open' as const, temperature: -10.2, simulatedTemperature: -14.6 };
    expect(alertMail(damped, 'JP').text).toContain('温度:     推定品温 -14.6℃（実測 -10.2℃）\n');
    expect(alertMail(damped, 'US').text).toContain('Temperature: simulated product -14.6℃ (measured -10.2℃)\n');
    expect(alertMail({ ...damped, simulatedTemperature: -10.2 }, 'JP').text).toContain('温度:     -10.2℃\n');
    expect(alertMail({ ...damped, simulatedTemperature: null }, 'JP').text).toContain('温度:     -10.2℃\n');
  });

  it('counts whole minutes and never a negative duration', () => {
    expect(alertDuration(new Date(0), new Date(59_999))).toEqual({ hours: 0, minutes: 0 });
    expect(alertDuration(new Date(0), new Date(3_600_000 * 25 + 60_000))).toEqual({ hours: 25, minutes: 1 });
    expect(alertDuration(new Date(60_000), new Date(0))).toEqual({ hours: 0, minutes: 0 });
  });
});

describe('outbox Message-ID', () => {
  it('is stable for a row and names the installation by its public host', () => {
    expect(outboxMessageId(42, 'https://chain-a.example.jp/')).toBe('<outbox-42@chain-a.example.jp>');
    expect(outboxMessageId(42, 'http://localhost:3000')).toBe('<outbox-42@localhost>');
    expect(outboxMessageId(42, 'https://chain-b.example.jp')).not.toBe(outboxMessageId(42, 'https://chain-a.example.jp'));
  });
});
