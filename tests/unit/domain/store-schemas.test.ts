import { describe, expect, it } from 'vitest';
import { NAME_CONTROL_MESSAGE, nameText } from '~/domain/input-schemas';
import { CompanySaveSchema, StoregroupSaveSchema, UsergroupSaveSchema } from '~/domain/master-schemas';
import { NoticeSchema } from '~/domain/notice-schemas';
import { UserSaveSchema } from '~/domain/user-master';
import {
  GatewayExchangeSchema,
  RemovalRequestSchema,
  StoreSaveSchema,
  duplicateMessage,
  pinCodeOf,
  pinEffectiveTime,
} from '~/domain/store-schemas';
import { canExchangeGateway, canHoldPin, canRemoveStore, isRemovedStore, workingStateAfterGatewayChange, workingStateLabel } from '~/domain/working-state';

const valid = {
  store_id: 'S001',
  store_no: '1001',
  store_name: 'テスト店',
  prefecture_id: 13,
  address: '東京都新宿区西新宿1-1-1',
  tel_no: '0312345678',
  opening_date: '20240401',
  closing_date: null,
  storegroup_id: 'G01',
  usergroup: [1, 2],
  gateway_info: 'GW-1',
};

const errorsOf = (input: unknown) => {
  const result = StoreSaveSchema.safeParse(input);
  if (result.success) return {};
  // The first reason per field, as the API's fieldErrors reports it.
  const fields: Record<string, string> = {};
  for (const issue of result.error.issues) fields[issue.path.join('.')] ??= issue.message;
  return fields;
};

describe('StoreSaveSchema (001 §3, §5)', () => {
  it('accepts a whole store and normalises dates, tel and user groups', () => {
    const parsed = StoreSaveSchema.parse({ ...valid, usergroup: ['1', 2, 2], tel_no: '', closing_date: '20301231', prefecture_id: '13' });
    expect(parsed).toMatchObject({ opening_date: '2024-04-01', closing_date: '2030-12-31', tel_no: null, usergroup: [1, 2], prefecture_id: 13, gateway_info: 'GW-1' });
  });

  it('gives the 001 §5 messages per field', () => {
    expect(errorsOf({ ...valid, store_id: '' }).store_id).toBe('入力してください');
    expect(errorsOf({ ...valid, store_id: 'S-01' }).store_id).toBe('半角英数を入力してください');
    expect(errorsOf({ ...valid, store_id: 'A'.repeat(21) }).store_id).toBe('20文字以内で入力してください');
    expect(errorsOf({ ...valid, store_no: '12a' }).store_no).toBe('半角数値を入力してください');
    expect(errorsOf({ ...valid, store_no: '1'.repeat(21) }).store_no).toBe('20文字以内で入力してください');
    expect(errorsOf({ ...valid, store_name: '  ' }).store_name).toBe('入力してください');
    expect(errorsOf({ ...valid, address: 'あ'.repeat(256) }).address).toBe('255文字以内で入力してください');
    expect(errorsOf({ ...valid, tel_no: '03-1234' }).tel_no).toBe('半角数値を入力してください');
    expect(errorsOf({ ...valid, tel_no: '1'.repeat(16) }).tel_no).toBe('15文字以内で入力してください');
    expect(errorsOf({ ...valid, prefecture_id: '' }).prefecture_id).toBe('選択してください');
    expect(errorsOf({ ...valid, prefecture_id: 48 }).prefecture_id).toBe('選択してください');
    expect(errorsOf({ ...valid, storegroup_id: null }).storegroup_id).toBe('選択してください');
    expect(errorsOf({ ...valid, usergroup: [] }).usergroup).toBe('選択してください');
    expect(errorsOf({ ...valid, usergroup: ['x'] })['usergroup.0']).toBe('選択してください');
  });

  it('checks the dates: valid calendar days, closing not before opening', () => {
    expect(errorsOf({ ...valid, opening_date: undefined }).opening_date).toBe('入力してください');
    expect(errorsOf({ ...valid, opening_date: '20260231' }).opening_date).toBe('フォーマットが違います');
    expect(errorsOf({ ...valid, opening_date: '2026/01/01' }).opening_date).toBe('フォーマットが違います');
    expect(errorsOf({ ...valid, closing_date: '2026131' }).closing_date).toBe('フォーマットが違います');
    expect(errorsOf({ ...valid, closing_date: '20240331' }).closing_date).toBe('期間の指定が違います');
    expect(errorsOf({ ...valid, closing_date: '20240401' })).toEqual({});
  });

  it('reads a missing or null gateway_info as null, and refuses a blank one', () => {
    expect(StoreSaveSchema.parse({ ...valid, gateway_info: null }).gateway_info).toBeNull();
    const { gateway_info: _gateway, ...without } = valid;
    expect(StoreSaveSchema.parse(without).gateway_info).toBeNull();
    expect(errorsOf({ ...valid, gateway_info: '   ' }).gateway_info).toBe('入力してください');
    expect(StoreSaveSchema.parse({ ...valid, gateway_info: '  GW-2 ' }).gateway_info).toBe('GW-2');
  });

  it('words duplicates as 001 §8 expects', () => {
    expect(duplicateMessage('store_no')).toBe('The same value can not be registered: store_no');
  });
});

describe('control characters in names (issue 30 item 6: one rule, nameText)', () => {
  it.each(['新宿店\r\nBcc: x@example.com', '新宿店\n', 'a\tb', 'a\u001bb', 'a\u007fb', 'a\u0085b'])('refuses the store name %j with the reason', (name) => {
    expect(errorsOf({ ...valid, store_name: name }).store_name).toBe(NAME_CONTROL_MESSAGE);
  });

  it('refuses them in group, company and storegroup names, user names and notice titles, and accepts ordinary names', () => {
    const bad = '名前\r\n2行目';
    expect(UsergroupSaveSchema.safeParse({ usergroup_name: bad, usergroup_authority: 101 }).error?.flatten().fieldErrors.usergroup_name).toContain(NAME_CONTROL_MESSAGE);
    expect(CompanySaveSchema.safeParse({ company_id: 'C1', company_name: bad }).error?.flatten().fieldErrors.company_name).toContain(NAME_CONTROL_MESSAGE);
    expect(StoregroupSaveSchema.safeParse({ storegroup_name: bad }).error?.flatten().fieldErrors.storegroup_name).toContain(NAME_CONTROL_MESSAGE);
    expect(NoticeSchema.safeParse({ title: bad, content: '本文\n2行目' }).error?.flatten().fieldErrors.title).toContain(NAME_CONTROL_MESSAGE);
    expect(UserSaveSchema.safeParse({ user_name: bad }).error?.flatten().fieldErrors.user_name).toContain(NAME_CONTROL_MESSAGE);
    expect(nameText().safeParse('新宿店 (本館)・1F').success).toBe(true);
    expect(errorsOf({ ...valid, store_name: '新宿店 本館' }).store_name).toBeUndefined();
  });
});

describe('exchange and removal inputs', () => {
  it('needs a non-empty new gateway after trimming (000 §5)', () => {
    expect(GatewayExchangeSchema.safeParse({ gateway_info: '  ' }).success).toBe(false);
    expect(GatewayExchangeSchema.parse({ gateway_info: ' GW-9 ' }).gateway_info).toBe('GW-9');
  });

  it('reads a missing removal gateway as the empty string', () => {
    expect(RemovalRequestSchema.parse({ store_id: 'S1' }).gateway_info).toBe('');
    expect(RemovalRequestSchema.parse({ store_id: 'S1', gateway_info: null }).gateway_info).toBe('');
    expect(RemovalRequestSchema.safeParse({ gateway_info: '' }).success).toBe(false);
  });
});

describe('working state rules (000 §4)', () => {
  it('labels each state', () => {
    expect([null, 0, 1, 2].map((state) => workingStateLabel(state))).toEqual(['稼働情報なし', '初回通信待ち', '稼働中', '撤去']);
  });

  it('allows exchange in states 1 and 2, removal only in 1 with a gateway', () => {
    expect([null, 0, 1, 2].map(canExchangeGateway)).toEqual([false, false, true, true]);
    expect(canRemoveStore(1, 'GW-1')).toBe(true);
    expect(canRemoveStore(1, null)).toBe(false);
    expect(canRemoveStore(2, 'GW-1')).toBe(false);
    expect(canRemoveStore(0, 'GW-1')).toBe(false);
  });

  it('waits for the first communication after a gateway change; no gateway means no info unless removed', () => {
    expect(workingStateAfterGatewayChange(1, 'GW-2')).toBe(0);
    expect(workingStateAfterGatewayChange(2, 'GW-2')).toBe(0);
    expect(workingStateAfterGatewayChange(null, 'GW-2')).toBe(0);
    expect(workingStateAfterGatewayChange(1, null)).toBeNull();
    expect(workingStateAfterGatewayChange(2, null)).toBe(2);
  });
});

describe('gateway PIN', () => {
  it('is six digits with leading zeros, valid for 24 hours', () => {
    expect(pinCodeOf(42)).toBe('000042');
    expect(pinCodeOf(999_999)).toBe('999999');
    expect(() => pinCodeOf(1_000_000)).toThrow(RangeError);
    expect(pinEffectiveTime(new Date('2026-01-01T00:00:00Z')).toISOString()).toBe('2026-01-02T00:00:00.000Z');
  });

  it('is not held by a removed store', () => {
    expect([null, 0, 1, 2].map(canHoldPin)).toEqual([true, true, true, false]);
  });
});

describe('isRemovedStore', () => {
  it('is true for 撤去 (2) only', () => {
    expect([null, 0, 1, 2].map(isRemovedStore)).toEqual([false, false, false, true]);
  });
});
