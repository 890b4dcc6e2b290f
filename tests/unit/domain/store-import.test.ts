import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SensorImportRequestSchema, StoreImportRequestSchema } from '../../../app/domain/store-import';
import { readCsvFile } from '../../../cli/commands/common';
import type { CliContext } from '../../../cli/context';
import { decodeCsv, importErrors, placeInFile, storesOfFile } from '../../../cli/import-file';

// The import's schemas (decision 153) and the CLI's way from their places back to the file.

const store = (id: string, fields: Record<string, unknown> = {}) => ({
  store_id: id,
  store_no: id.replace(/\D/g, ''),
  store_name: `店 ${id}`,
  storegroup_id: 'G01',
  prefecture_id: 13,
  address: '東京都新宿区1-1',
  opening_date: '20261201',
  usergroup_names: ['店舗ユーザー'],
  gateway_info: `GW-${id}`,
  ...fields,
});

const issuesOf = (result: { success: boolean; error?: { issues: { path: (string | number)[]; message: string }[] } }) =>
  Object.fromEntries((result.error?.issues ?? []).map((issue) => [issue.path.join('.'), issue.message]));

describe('the store import body', () => {
  it('reads each store with the store save\'s rules and each sensor with the sensor save\'s, at their places', async () => {
    const result = await StoreImportRequestSchema.safeParseAsync({
      stores: [
        store('S1', { sensors: [{ serial_no: 'aa:bb:cc:dd:ee:01', equipment_name: '冷蔵', icon_kind: 3, lower_limit: 0, upper_limit: 8 }] }),
        store('S2', { tel_no: '03-1', sensors: [{ serial_no: 'AA:BB:CC:DD:EE:01', equipment_name: '冷蔵', icon_kind: 3, lower_limit: 9, upper_limit: 8 }] }),
      ],
    });
    expect(issuesOf(result)).toEqual({
      'stores.1.tel_no': '半角数値を入力してください',
      'stores.1.sensors.0.lower_limit': '入力の範囲が違います', // told with the store's error, not after it is fixed
    });
    expect(issuesOf(await StoreImportRequestSchema.safeParseAsync({ stores: [store('S1', { closing_date: '20261101' })] }))).toEqual({ 'stores.0.closing_date': '期間の指定が違います' });
    const ok = await StoreImportRequestSchema.parseAsync({ stores: [store('S1', { sensors: [{ serial_no: 'aa:bb:cc:dd:ee:01', equipment_name: '冷蔵', icon_kind: 3 }] })] });
    expect(ok.dry_run).toBe(false);
    expect(ok.stores[0].sensors[0]).toMatchObject({ store_id: 'S1', serial_no: 'AA:BB:CC:DD:EE:01', equipment_id: null, time_constant: 100 });
    expect(ok.stores[0].store).toMatchObject({ opening_date: '2026-12-01', usergroup: [] });
  });

  it('refuses a value repeated in the file at its second place, a store without groups, and a bad store id once', async () => {
    const twice = { serial_no: 'AA:BB:CC:DD:EE:01', equipment_name: '冷蔵', icon_kind: 3 };
    const result = await StoreImportRequestSchema.safeParseAsync({
      stores: [store('S1', { sensors: [twice, twice] }), store('S1', { store_no: '2', store_name: '別', gateway_info: 'GW-X' }), store('S3', { usergroup_names: [] }), store('S-4', { sensors: [twice] })],
    });
    expect(issuesOf(result)).toEqual({
      'stores.0.sensors.1.serial_no': 'ファイル内で重複しています',
      'stores.1.store_id': 'ファイル内で重複しています',
      'stores.2.usergroup_names': '選択してください',
      'stores.3.store_id': '半角英数を入力してください',
    });
  });

  it('reads a sensor import as registrations of its store', async () => {
    expect(issuesOf(await SensorImportRequestSchema.safeParseAsync({ store_id: 'S1', sensors: [{ serial_no: 'x', equipment_name: '冷蔵', icon_kind: 3, equipment_id: 5 }] }))).toEqual({
      'sensors.0.serial_no': 'BLEアドレス (AA:BB:CC:DD:EE:FF) を入力してください',
    });
  });
});

describe('the import CSV', () => {
  const header = 'store_id,store_no,store_name,storegroup_id,prefecture_id,address,opening_date,usergroups,gateway_info,serial_no,equipment_name,icon_kind,def_time';

  it('groups rows by store, takes the store from its first row, and tells places by line and column', async () => {
    const { stores, lines } = await storesOfFile(
      `\uFEFF${header}\nS1,1,店1,G01,13,住所,20261201,"A群, B群",GW1,AA:BB:CC:DD:EE:01,冷蔵,3,"02:00-02:30,14:00-14:30"\n\nS1,,,,,,,,,AA:BB:CC:DD:EE:02,冷凍,5,\nS2,2,店2,G01,13,住所,20261201,A群,GW2,,,,\n`,
      'f.csv',
    );
    expect(stores).toEqual([
      {
        store_id: 'S1', store_no: '1', store_name: '店1', storegroup_id: 'G01', prefecture_id: '13', address: '住所', opening_date: '20261201', usergroup_names: ['A群', 'B群'], gateway_info: 'GW1',
        sensors: [
          { serial_no: 'AA:BB:CC:DD:EE:01', equipment_name: '冷蔵', icon_kind: '3', def_time: [{ start: '02:00', end: '02:30' }, { start: '14:00', end: '14:30' }] },
          { serial_no: 'AA:BB:CC:DD:EE:02', equipment_name: '冷凍', icon_kind: '5' },
        ],
      },
      { store_id: 'S2', store_no: '2', store_name: '店2', storegroup_id: 'G01', prefecture_id: '13', address: '住所', opening_date: '20261201', usergroup_names: ['A群'], gateway_info: 'GW2', sensors: [] },
    ]);
    expect(lines).toEqual({ stores: [{ line: 2, sensors: [2, 4] }, { line: 5, sensors: [] }] });
    expect(placeInFile('stores.0.sensors.1.def_time.0', lines).key).toBe('line 4, def_time');
    expect(placeInFile('stores.1.usergroup_names.0', lines).key).toBe('line 5, usergroups');
    expect(placeInFile('stores', lines).key).toBe('stores');
    const error = importErrors('f.csv', { 'stores.1.store_no': 'x', 'stores.0.sensors.1.serial_no': 'y' }, lines);
    expect(error.message).toBe('f.csv: 2 errors; nothing was written');
    expect(Object.keys(error.fields)).toEqual(['line 4, serial_no', 'line 5, store_no']);
  });

  it('refuses a store column a later row changes', async () => {
    await expect(storesOfFile(`${header}\nS1,1,店1,G01,13,住所,20261201,A群,GW1,,,,\nS1,9,,,,,,,,,,,\n`, 'f.csv')).rejects.toMatchObject({ fields: { 'line 3, store_no': 'store S1 has "1" on line 2' } });
  });
});

describe('the encoding of an import file (decision 246)', () => {
  // 東京①店 as Excel saves it in Japan (CP932): not valid UTF-8.
  const TOKYO_CP932 = [0x93, 0x8c, 0x8b, 0x9e, 0x87, 0x40, 0x93, 0x58];
  const fileOf = (...parts: (string | number[])[]) => Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'ascii') : Buffer.from(part))));
  const HEADER = 'store_id,store_no,store_name,storegroup_id,prefecture_id,address,opening_date,usergroups,gateway_info\r\n';
  const dir = mkdtempSync(path.join(os.tmpdir(), 'onreco-import-'));
  const ctxOf = (stdin: Uint8Array) => ({ readStdin: async () => stdin }) as unknown as CliContext;

  it('reads a Shift_JIS (CP932) file, from disk or stdin, as the same text a UTF-8 one gives', async () => {
    const sjis = fileOf(HEADER, 'S1,1,', TOKYO_CP932, ',G01,13,', TOKYO_CP932, ',20261201,,GW-1\r\n');
    const file = path.join(dir, 'kanto.csv');
    writeFileSync(file, sjis);
    for (const text of [await readCsvFile(ctxOf(new Uint8Array()), file), await readCsvFile(ctxOf(sjis), '-')]) {
      const { stores } = await storesOfFile(text, 'kanto.csv');
      expect(stores[0]).toMatchObject({ store_id: 'S1', store_name: '東京①店', address: '東京①店' });
    }
    const utf8 = Buffer.from(`\uFEFF${HEADER}S1,1,東京①店,G01,13,東京①店,20261201,,GW-1\r\n`, 'utf8');
    expect((await storesOfFile(await readCsvFile(ctxOf(utf8), '-'), 'kanto.csv')).stores[0]).toMatchObject({ store_name: '東京①店' });
  });

  it('refuses bytes that are neither UTF-8 nor Shift_JIS, naming both, instead of reading replacement characters', () => {
    // 0x81 0x20: a Shift_JIS lead byte with no trail byte; 0xff is neither.
    expect(() => decodeCsv(fileOf(HEADER, 'S1,1,', [0x81, 0x20, 0xff], '\r\n'), 'kanto.csv')).toThrow(/kanto\.csv is neither UTF-8 nor Shift_JIS \(CP932\)/);
  });
});
