import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { cliSandbox } from '../support/cli';

// `onreco stores import` and `onreco sensors import` against the real console and database (the
// e2e server, demo chain): import, dry run, idempotence, all or nothing with each error at its
// line and column, exit codes, --json parsed, and who may import (decision 153).

const base = inject('baseUrl');
const password = inject('demoPassword');
const FIXTURE = fileURLToPath(new URL('../fixtures/cli/stores-import.csv', import.meta.url));
const HEADER = readFileSync(FIXTURE, 'utf8').split('\n')[0];
/** FIXTURE converted with `iconv -f UTF-8 -t CP932`. */
const CP932_FIXTURE = fileURLToPath(new URL('../fixtures/cli/stores-import-cp932.csv', import.meta.url));

interface Imported {
  dry_run: boolean;
  stores_created: number;
  stores_existing: number;
  sensors_created: number;
  sensors_existing: number;
  stores: { store_id: string; created: boolean; sensors_created: number; sensors_existing: number }[];
}

const signedIn = async (loginId: string) => {
  const cli = cliSandbox();
  const login = await cli.run(['login', '--server', base, '--login-id', loginId, '--password-stdin'], { stdin: password });
  expect(login.code, login.stderr).toBe(0);
  return cli;
};

describe('onreco stores import', () => {
  let admin: Awaited<ReturnType<typeof signedIn>>;
  beforeAll(async () => {
    admin = await signedIn('admin');
  });

  it('dry-runs the file (nothing written), imports it, and a second import changes nothing and says so', async () => {
    const dry = await admin.run(['stores', 'import', FIXTURE, '--dry-run', '--json']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.json<Imported>()).toMatchObject({ dry_run: true, stores_created: 3, sensors_created: 3, stores_existing: 0, sensors_existing: 0 });
    expect((await admin.run(['stores', 'show', 'IMP0001'])).code).toBe(1);
    // The same file as Excel saves it in Japan (Shift_JIS/CP932; decision 246), from disk and from
    // stdin: its user group names are found, so it reads as the UTF-8 file does.
    for (const cp932 of [await admin.run(['stores', 'import', CP932_FIXTURE, '--dry-run', '--json']), await admin.run(['stores', 'import', '-', '--dry-run', '--json'], { stdin: readFileSync(CP932_FIXTURE) })]) {
      expect(cp932.code, cp932.stderr).toBe(0);
      expect(cp932.json<Imported>()).toEqual(dry.json<Imported>());
    }

    const first = await admin.run(['stores', 'import', FIXTURE]);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout.split('\n')[0]).toMatch(/^STORE ID\s+STORE\s+NEW SENSORS\s+SENSORS THERE/);
    expect(first.stdout).toContain('Created 3 stores and 3 sensors');
    const store = (await admin.run(['stores', 'show', 'IMP0001', '--json'])).json<any>();
    expect(store).toMatchObject({ store_name: '取込 横浜西口店', company_id: 'ONRECO', storegroup_id: 'OR02', prefecture_id: 14, tel_no: '0451234567', opening_date: '20261201', gateway_info: 'GW-IMP0001', working_state: 0 });
    expect(store.usergroup.map((group: { usergroup_name: string }) => group.usergroup_name)).toEqual(['ケースマネージャー（東日本）']);
    const sensors = (await admin.run(['sensors', 'list', 'IMP0001', '--json'])).json<{ equipments: { equipment_id: number; serial_no: string; lower_limit: number; upper_limit: number }[] }>().equipments;
    expect(sensors.map((sensor) => [sensor.serial_no, sensor.lower_limit, sensor.upper_limit])).toEqual([
      ['D1:00:00:00:01:01', 0, 8],
      ['D1:00:00:00:01:02', -25, -15],
    ]);
    const detail = (await admin.run(['sensors', 'show', String(sensors[0].equipment_id), '--json'])).json<any>();
    expect(detail).toMatchObject({ guard_time: 30, snoozing_time: 60, icon_kind: 3, def_time: [{ start: '02:00', end: '02:30' }, { start: '14:00', end: '14:30' }] });
    expect((await admin.run(['sensors', 'list', 'IMP0003', '--json'])).json<{ equipments: unknown[] }>().equipments).toEqual([]);

    const again = await admin.run(['stores', 'import', FIXTURE, '--json']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.json<Imported>()).toMatchObject({ dry_run: false, stores_created: 0, sensors_created: 0, stores_existing: 3, sensors_existing: 3 });
    expect((await admin.run(['stores', 'import', FIXTURE])).stdout).toContain('Nothing to create: 3 stores and 3 sensors were there already');
    expect((await admin.run(['sensors', 'list', 'IMP0001', '--json'])).json<{ equipments: unknown[] }>().equipments).toHaveLength(2);

    // A new sensor of a store that exists is registered; the store is left as it is (a changed name is not applied).
    const grown = `${HEADER}\nIMP0003,910003,取込 大宮店(改名しない),ONRECO,OR02,11,埼玉県さいたま市大宮区錦町1-1,,20270105,,ケースマネージャー（東日本）,GW-IMP0003,D1:00:00:00:03:01,冷蔵ケース1,3,0,8,,,,\n`;
    const added = await admin.run(['stores', 'import', '-', '--json'], { stdin: grown });
    expect(added.code, added.stderr).toBe(0);
    expect(added.json<Imported>().stores.find((item) => item.store_id === 'IMP0003')).toEqual({ store_id: 'IMP0003', created: false, sensors_created: 1, sensors_existing: 0 });
    expect((await admin.run(['stores', 'show', 'IMP0003', '--json'])).json<{ store_name: string }>().store_name).toBe('取込 大宮店');
  });

  it('writes nothing when one row is bad, and names each bad row by line and column', async () => {
    const rows = [
      HEADER,
      'IMPBAD1,920001,取込 不良1店,ONRECO,OR02,13,東京都新宿区1-1,,20261201,,ケースマネージャー（東日本）,GW-IMPBAD1,D2:00:00:00:01:01,冷蔵ケース1,3,0,8,,,,',
      'IMPBAD1,,,,,,,,,,,,D2:00:00:00:01:02,冷蔵ケース2,3,9,8,,,,',
      'IMPBAD2,920002,取込 不良2店,ONRECO,OR02,13,東京都新宿区1-2,03-1234,20261201,,ケースマネージャー（東日本）,GW-IMPBAD2,,,,,,,,,',
    ];
    const local = await admin.run(['stores', 'import', '-'], { stdin: rows.join('\n') });
    expect(local.code).toBe(1);
    expect(local.stderr).toMatch(/^onreco: -: 2 errors; nothing was written\n/);
    expect(local.stderr).toContain('  line 3, lower_limit: 入力の範囲が違います');
    expect(local.stderr).toContain('  line 4, tel_no: 半角数値を入力してください');
    expect(local.stderr).not.toMatch(/\n\s+at /);

    // What only the server knows: a user group that does not exist, a store number another store holds.
    const serverSide = [HEADER, rows[1].replace('ケースマネージャー（東日本）', '存在しないグループ'), rows[3].replace('03-1234', '').replace('920002', '910001')];
    const refused = await admin.run(['stores', 'import', '-', '--json'], { stdin: serverSide.join('\n') });
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toContain('  line 2, usergroups: 存在しないユーザーグループです (存在しないグループ)');
    expect(refused.stderr).toContain('  line 3, store_no: この店舗番号は既に使用されています');
    for (const storeId of ['IMPBAD1', 'IMPBAD2']) expect((await admin.run(['stores', 'show', storeId])).code).toBe(1);

    const repeated = await admin.run(['stores', 'import', '-'], { stdin: [HEADER, rows[1], rows[1]].join('\n') }); // the same serial twice
    expect(repeated.code).toBe(1);
    expect(repeated.stderr).toContain('line 3, serial_no: ファイル内で重複しています');
  });

  it('refuses a file that is not the import\'s: unknown or missing columns, a broken CSV, a missing file; a wrong command line exits 2', async () => {
    const unknown = await admin.run(['stores', 'import', '-'], { stdin: `${HEADER},colour\n` });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('columns onreco does not know: colour');
    const missing = await admin.run(['stores', 'import', '-'], { stdin: 'store_id,serial_no\nS1,D1:00:00:00:00:01\n' });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('lacks the columns store_no');
    const broken = await admin.run(['stores', 'import', '-'], { stdin: `${HEADER}\nIMPX,"unclosed\n` });
    expect(broken.code).toBe(1);
    expect(broken.stderr.split('\n')[0]).toMatch(/^onreco: /);
    const absent = await admin.run(['stores', 'import', path.join(admin.configDir, 'nothing.csv')]);
    expect(absent.code).toBe(1);
    expect(absent.stderr).toContain('cannot read');
    expect((await admin.run(['stores', 'import'])).code).toBe(2);
    expect((await admin.run(['sensors', 'import', 'IMP0001'])).code).toBe(2);
    expect((await admin.run(['stores', 'import', '--help'])).stdout).toContain('usergroups are names');
  });

  it('is for administrators: maintenance and store users are refused, nothing written', async () => {
    for (const loginId of ['maintenance', 'storeuser']) {
      const staff = await signedIn(loginId);
      const refused = await staff.run(['stores', 'import', FIXTURE]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/^onreco: not allowed/);
    }
  });
});

describe('onreco sensors import', () => {
  it('registers a store\'s sensors once (maintenance may), refuses a row of another store and a store user', async () => {
    const admin = await signedIn('admin');
    const storeId = 'IMPSENS1';
    const store = `${HEADER}\n${storeId},930001,取込 センサ店,ONRECO,OR02,13,東京都港区1-1,,20261201,,ケースマネージャー（東日本）,GW-${storeId},,,,,,,,,\n`;
    expect((await admin.run(['stores', 'import', '-'], { stdin: store })).code).toBe(0);

    const file = 'serial_no,equipment_name,icon_kind,lower_limit,upper_limit,def_time\nD3:00:00:00:00:01,冷蔵ケース1,3,0,8,02:00-02:30\nD3:00:00:00:00:02,冷凍ケース1,5,-25,-15,\n';
    const maintenance = await signedIn('maintenance');
    const dry = await maintenance.run(['sensors', 'import', storeId, '-', '--dry-run', '--json'], { stdin: file });
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.json<Imported>()).toMatchObject({ dry_run: true, sensors_created: 2, stores: [{ store_id: storeId, created: false, sensors_created: 2, sensors_existing: 0 }] });
    const done = await maintenance.run(['sensors', 'import', storeId, '-'], { stdin: file });
    expect(done.code, done.stderr).toBe(0);
    expect(done.stdout).toContain('Created 0 stores and 2 sensors');
    const again = await maintenance.run(['sensors', 'import', storeId, '-', '--json'], { stdin: file });
    expect(again.json<Imported>()).toMatchObject({ sensors_created: 0, sensors_existing: 2 });
    expect((await admin.run(['sensors', 'list', storeId, '--json'])).json<{ equipments: unknown[] }>().equipments).toHaveLength(2);

    const bad = await maintenance.run(['sensors', 'import', storeId, '-'], { stdin: `${file}D3:00:00:00:00:03,冷蔵ケース3,3,0,8,2am\n` });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('line 4, def_time: ');
    const otherStore = await maintenance.run(['sensors', 'import', storeId, '-'], { stdin: 'store_id,serial_no,equipment_name,icon_kind\nIMP0001,D3:00:00:00:00:04,冷蔵ケース4,3\n' });
    expect(otherStore.code).toBe(1);
    expect(otherStore.stderr).toContain('line 2, store_id: names store IMP0001');
    expect((await admin.run(['sensors', 'list', storeId, '--json'])).json<{ equipments: unknown[] }>().equipments).toHaveLength(2);

    const storeUser = await signedIn('storeuser');
    const refused = await storeUser.run(['sensors', 'import', storeId, '-'], { stdin: file });
    expect(refused.code).toBe(1);
    oneLine(refused.stderr);
  });
});

function oneLine(text: string) {
  expect(text.trim().split('\n')[0]).toMatch(/^onreco: /);
  expect(text).not.toMatch(/\n\s+at /);
}
