import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { cliSandbox } from '../support/cli';
import { startWorker, stopProcess } from '../support/processes';
import { minuteAgo, pairOverApi, postReading } from '../support/gateway-api';
import { freePort } from '../support/ports';
import { STORE_STATUS } from '~/domain/store-status';
import { WORKING_STATE } from '~/domain/working-state';

// The onreco command against the real console and database (the e2e server, demo chain): every
// command at least once, each exit code, --json parsed, and the session file's mode.

const base = inject('baseUrl');
const password = inject('demoPassword');

const oneLine = (text: string) => {
  expect(text.trim().split('\n')[0]).toMatch(/^onreco: /);
  expect(text).not.toMatch(/\n\s+at /); // no stack trace
};

describe('onreco: usage and session', () => {
  it('prints help with examples and exits 0; a wrong command line exits 2', async () => {
    const cli = cliSandbox();
    const help = await cli.run(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('stores');
    const storesHelp = await cli.run(['stores', 'list', '--help']);
    expect(storesHelp.code).toBe(0);
    expect(storesHelp.stdout).toContain('Examples:');
    expect((await cli.run(['no-such-command'])).code).toBe(2);
    expect((await cli.run(['stores', 'show'])).code).toBe(2);
    expect((await cli.run(['stores', 'list', '--page', 'x'])).code).toBe(2);
    expect((await cli.run(['stores'])).code).toBe(2);
  });

  it('refuses with one line and exit 1: not signed in, a wrong password, a server that is not there', async () => {
    const cli = cliSandbox();
    const notSignedIn = await cli.run(['stores', 'list']);
    expect(notSignedIn.code).toBe(1);
    oneLine(notSignedIn.stderr);
    expect(notSignedIn.stderr).toContain('onreco login');

    const wrong = await cli.run(['login', '--server', base, '--login-id', 'admin', '--password-stdin'], { stdin: 'not-the-password\n' });
    expect(wrong.code).toBe(1);
    oneLine(wrong.stderr);

    const nowhere = await cli.run(['login', '--server', `http://127.0.0.1:${await freePort()}`, '--login-id', 'admin', '--password-stdin'], { stdin: password });
    expect(nowhere.code).toBe(1);
    oneLine(nowhere.stderr);
    expect(nowhere.stderr).toContain('cannot reach');

    const badUrl = await cli.run(['login', '--server', 'console.example', '--login-id', 'admin', '--password-stdin'], { stdin: password });
    expect(badUrl.code).toBe(1);
    expect(badUrl.stderr).toContain('not a server URL');
  });

  it('logs in (prompted or from stdin), keeps the token 0600, whoami, logout revokes the token', async () => {
    const cli = cliSandbox();
    const login = await cli.run(['login', '--server', base], { answers: ['admin', password] });
    expect(login.code, login.stderr).toBe(0);
    expect(statSync(path.join(cli.configDir, 'session.json')).mode & 0o777).toBe(0o600);
    const whoami = await cli.run(['whoami', '--json']);
    expect(whoami.code, whoami.stderr).toBe(0);
    expect(whoami.json()).toMatchObject({ login_id: 'admin', server: base });
    const token = JSON.parse((await import('node:fs')).readFileSync(path.join(cli.configDir, 'session.json'), 'utf8')).token as string;

    const logout = await cli.run(['logout']);
    expect(logout.code).toBe(0);
    const after = await fetch(`${base}/on-reco/v1/users`, { headers: { Authorization: `Bearer ${token}` } });
    expect(after.status).toBe(401); // revoked on the server, not only forgotten here
    expect((await cli.run(['whoami'])).code).toBe(1);

    // ONRECO_SERVER and ONRECO_TOKEN override the file.
    const signedIn = cliSandbox();
    await signedIn.run(['login', '--server', base, '--login-id', 'admin', '--password-stdin'], { stdin: `${password}\n` });
    const saved = JSON.parse((await import('node:fs')).readFileSync(path.join(signedIn.configDir, 'session.json'), 'utf8')).token as string;
    const scripted = cliSandbox({ ONRECO_SERVER: base, ONRECO_TOKEN: saved });
    expect((await scripted.run(['whoami', '--json'])).json()).toMatchObject({ login_id: 'admin' });
    const expired = cliSandbox({ ONRECO_SERVER: base, ONRECO_TOKEN: 'not-a-token' });
    const refused = await expired.run(['stores', 'list']);
    expect(refused.code).toBe(1);
    oneLine(refused.stderr);
    expect(refused.stderr).toContain('not signed in or the session expired');
  });
});

describe('onreco: stores, PINs, gateways, alerts', () => {
  const admin = cliSandbox();
  beforeAll(async () => {
    const login = await admin.run(['login', '--server', base, '--login-id', 'admin', '--password-stdin'], { stdin: password });
    expect(login.code, login.stderr).toBe(0);
  });

  it('lists every store as a table and as the API\'s JSON, and shows one', async () => {
    const list = await admin.run(['stores', 'list', '--json']);
    expect(list.code, list.stderr).toBe(0);
    const answer = list.json<{ all_count: number; stores: { store_id: string }[] }>();
    expect(answer.stores.length).toBe(answer.all_count);
    expect(answer.all_count).toBeGreaterThan(0);
    const table = await admin.run(['stores', 'list']);
    expect(table.stdout.split('\n')[0]).toMatch(/^STORE ID\s+NO\s+NAME/);
    const page = await admin.run(['stores', 'list', '--page', '1', '--page-size', '2', '--json']);
    expect(page.json<{ stores: unknown[] }>().stores.length).toBeLessThanOrEqual(2);

    const show = await admin.run(['stores', 'show', answer.stores[0].store_id, '--json']);
    expect(show.code).toBe(0);
    expect(show.json()).toMatchObject({ store_id: answer.stores[0].store_id });
    const missing = await admin.run(['stores', 'show', 'NOSUCHSTORE']);
    expect(missing.code).toBe(1);
    oneLine(missing.stderr);
  });

  it('--status alert lists exactly the stores in alarm (000 §4 status 3), each labelled alert', async () => {
    type Listed = { all_count: number; stores: { store_id: string; store_status: number; working_state: number | null }[] };
    const all = (await admin.run(['stores', 'list', '--json'])).json<Listed>();
    const inAlarm = all.stores.filter((store) => store.store_status === STORE_STATUS.warning).map((store) => store.store_id).sort();
    // The demo chain has stores in alarm and stores without: the filter has something to tell apart.
    expect(inAlarm.length).toBeGreaterThan(0);
    expect(inAlarm.length).toBeLessThan(all.all_count);
    const alarmed = await admin.run(['stores', 'list', '--status', 'alert', '--json']);
    expect(alarmed.code, alarmed.stderr).toBe(0);
    expect(alarmed.json<Listed>().stores.map((store) => store.store_id).sort()).toEqual(inAlarm);

    const table = (await admin.run(['stores', 'list', '--status', 'alert'])).stdout.split('\n');
    // Columns are padded by display width (two per kanji): split on the two-space gaps instead.
    expect(table[0].split(/\s{2,}/)[3]).toBe('STATUS');
    expect(table.slice(1, 1 + inAlarm.length).map((row) => row.split(/\s{2,}/)[3])).toEqual(inAlarm.map(() => 'alert'));
    const removed = all.stores.find((store) => store.working_state === WORKING_STATE.removed);
    if (removed) {
      const closed = (await admin.run(['stores', 'list', '--status', 'closed', '--json'])).json<Listed>();
      expect(closed.stores.map((store) => store.store_id)).toContain(removed.store_id);
    }
  });

  it('creates, updates, pairs, exchanges and removes a store; field errors are listed', async () => {
    const list = (await admin.run(['stores', 'list', '--json'])).json<{ stores: { store_id: string }[] }>();
    const model = (await admin.run(['stores', 'show', list.stores[0].store_id, '--json'])).json<any>();
    const storeId = `CLI${Date.now() % 1_000_000}`;
    const flags = ['--store-no', String(Date.now() % 1_000_000_000), '--name', `CLI試験店 ${storeId}`, '--company', model.company_id, '--storegroup', model.storegroup_id, '--prefecture', String(model.prefecture_id), '--address', '東京都新宿区西新宿1-1-1', '--opening', '2026-12-01', '--usergroup', model.usergroup.map((group: { usergroup_id: number }) => group.usergroup_id).join(','), '--gateway', `GW-${storeId}`];

    const bad = await admin.run(['stores', 'create', storeId, ...flags, '--tel', '03-1234']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/tel_no: /);
    expect((await admin.run(['stores', 'show', storeId])).code).toBe(1); // nothing written

    const created = await admin.run(['stores', 'create', storeId, ...flags, '--json']);
    expect(created.code, created.stderr).toBe(0);
    expect(created.json()).toMatchObject({ store_id: storeId, working_state: 0 });
    expect((await admin.run(['stores', 'create', storeId, ...flags])).code).toBe(2); // exists: use update

    const updated = await admin.run(['stores', 'update', storeId, '--tel', '0312345678', '--json']);
    expect(updated.code, updated.stderr).toBe(0);
    expect(updated.json()).toMatchObject({ tel_no: '0312345678', store_name: `CLI試験店 ${storeId}` });

    const pin = await admin.run(['pins', 'issue', storeId, '--json']);
    expect(pin.code, pin.stderr).toBe(0);
    const { pin_code } = pin.json<{ pin_code: string }>();
    expect(pin_code).toMatch(/^\d{6}$/);
    expect((await admin.run(['pins', 'show', storeId])).stdout).toContain(pin_code);

    const notYet = await admin.run(['gateways', 'remove', storeId]);
    expect(notYet.code).toBe(1); // waiting for its first upload: not operating yet
    oneLine(notYet.stderr);

    const token = await pairOverApi(base, storeId, pin_code);
    await postReading(base, token, 'AA:BB:CC:DD:EE:FF', minuteAgo(1), 4.2).catch(() => undefined);
    // The gateway's first upload makes the store operating (working state 1).
    expect((await admin.run(['stores', 'show', storeId, '--json'])).json<{ working_state: number }>().working_state).toBe(1);
    const taken = await admin.run(['gateways', 'exchange', storeId, model.gateway_info]);
    expect(taken.code).toBe(1);
    expect(taken.stderr).toMatch(/gateway_info: /); // another store's gateway: the field and the reason

    const removed = await admin.run(['stores', 'remove', storeId, '--json']);
    expect(removed.code, removed.stderr).toBe(0);
    expect(removed.json()).toMatchObject({ working_state: 2 });
    const exchanged = await admin.run(['gateways', 'exchange', storeId, `GW-${storeId}-2`, '--json']);
    expect(exchanged.code, exchanged.stderr).toBe(0);
    expect(exchanged.json()).toMatchObject({ gateway_info: `GW-${storeId}-2`, working_state: 0 });
    expect((await admin.run(['gateways', 'remove', storeId])).code).toBe(1); // waiting again: nothing to remove
  });

  it('lists a store\'s alerts and refuses to stop one of a sensor of another store', async () => {
    const list = (await admin.run(['stores', 'list', '--status', 'alert', '--json'])).json<{ stores: { store_id: string }[] }>();
    const storeId = list.stores[0].store_id;
    const alerts = await admin.run(['alerts', 'list', storeId, '--json']);
    expect(alerts.code, alerts.stderr).toBe(0);
    expect(alerts.json<{ all_count: number; alerts: unknown[] }>().alerts.length).toBe(alerts.json<{ all_count: number }>().all_count);
    const table = await admin.run(['alerts', 'list', storeId, '--from', '2026-01-01', '--to', '2026-01-02']);
    expect(table.code).toBe(0);
    expect(table.stdout).toContain('no alerts in this period');
    const wrongSensor = await admin.run(['alerts', 'stop', storeId, '999999', 'OE00000001']);
    expect(wrongSensor.code).toBe(1);
    expect(wrongSensor.stderr).toContain('is not a sensor of store');
  });

  it('a store user may not do what the console does not let them do', async () => {
    const staff = cliSandbox();
    expect((await staff.run(['login', '--server', base, '--login-id', 'storeuser', '--password-stdin'], { stdin: password })).code).toBe(0);
    const stores = (await staff.run(['stores', 'list', '--json'])).json<{ stores: { store_id: string }[] }>().stores;
    const refused = await staff.run(['pins', 'issue', stores[0].store_id]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('not allowed');
    expect((await staff.run(['notices', 'create', '--title', 't', '--content', 'c'])).code).toBe(1);
  });

  it('posts a notice and lists it; a title too long is refused with its field', async () => {
    const title = `CLI ${Date.now() % 100000}`;
    const posted = await admin.run(['notices', 'create', '--title', title, '--content', '本日 2:00 から点検します', '--json']);
    expect(posted.code, posted.stderr).toBe(0);
    expect(posted.json()).toMatchObject({ title });
    const list = await admin.run(['notices', 'list', '--json']);
    expect(list.json<{ title: string }[]>().map((notice) => notice.title)).toContain(title);
    const tooLong = await admin.run(['notices', 'create', '--title', 'あ'.repeat(31), '--content', 'c']);
    expect(tooLong.code).toBe(1);
    expect(tooLong.stderr).toMatch(/title: タイトルは30文字以内で入力してください/);
  });
});

describe('onreco: sensors, users, alert-stops', () => {
  const admin = cliSandbox();
  let storeId = '';
  beforeAll(async () => {
    const login = await admin.run(['login', '--server', base, '--login-id', 'admin', '--password-stdin'], { stdin: password });
    expect(login.code, login.stderr).toBe(0);
    const stores = (await admin.run(['stores', 'list', '--json'])).json<{ stores: { store_id: string }[] }>().stores;
    for (const store of stores) {
      const sensors = (await admin.run(['sensors', 'list', store.store_id, '--json'])).json<{ equipments: unknown[] }>();
      if (sensors.equipments.length > 0) {
        storeId = store.store_id;
        break;
      }
    }
    expect(storeId).not.toBe('');
  });

  it('lists a store\'s sensors, shows one and updates its limits and defrost ranges', async () => {
    const table = await admin.run(['sensors', 'list', storeId]);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout.split('\n')[0]).toMatch(/^\s*ID\s+NO\s+NAME/);
    const sensor = (await admin.run(['sensors', 'list', storeId, '--json'])).json<{ equipments: { equipment_id: number }[] }>().equipments[0];
    const show = await admin.run(['sensors', 'show', String(sensor.equipment_id), '--json']);
    expect(show.code, show.stderr).toBe(0);
    const before = show.json<{ updated_at: string; store_id: string }>();
    expect(before.store_id).toBe(storeId);
    const updated = await admin.run(['sensors', 'update', String(sensor.equipment_id), '--lower', '-2.5', '--upper', '8', '--guard', '30', '--snooze', '60', '--defrost', '14:00-14:30,02:00-02:30', '--json']);
    expect(updated.code, updated.stderr).toBe(0);
    expect(updated.json<{ updated_at: string }>().updated_at).not.toBe(before.updated_at);
    const after = (await admin.run(['sensors', 'show', String(sensor.equipment_id), '--json'])).json<any>();
    expect(after).toMatchObject({ lower_limit: -2.5, upper_limit: 8, guard_time: 30, snoozing_time: 60, def_time: [{ start: '02:00', end: '02:30' }, { start: '14:00', end: '14:30' }] });
    expect((await admin.run(['sensors', 'show', String(sensor.equipment_id)])).stdout).toContain('02:00-02:30,14:00-14:30');
    const refused = await admin.run(['sensors', 'update', String(sensor.equipment_id), '--lower', '9', '--upper', '8']);
    expect(refused.code).toBe(1);
    oneLine(refused.stderr);
    expect(refused.stderr).toContain('lower_limit');
    expect((await admin.run(['sensors', 'update', String(sensor.equipment_id), '--defrost', '2am'])).code).toBe(2);
    expect((await admin.run(['sensors', 'show', '999999999'])).code).toBe(1);
  });

  it('lists user groups and users; creates, updates, shows and disables a user', async () => {
    const groups = await admin.run(['usergroups', 'list', '--json']);
    expect(groups.code, groups.stderr).toBe(0);
    expect(groups.json<unknown[]>().length).toBeGreaterThan(0);
    const users = await admin.run(['users', 'list', '--json']);
    expect(users.code, users.stderr).toBe(0);
    const model = users.json<{ users: { company_id: string | null; usergroups: { usergroup_id: number; usergroup_authority: number }[] }[] }>().users.find((user) => user.company_id && user.usergroups.some((group) => group.usergroup_authority > 2))!;
    const group = model.usergroups.find((item) => item.usergroup_authority > 2)!;
    expect((await admin.run(['users', 'list'])).stdout.split('\n')[0]).toMatch(/^\s*ID\s+LOGIN ID\s+NAME/);
    const loginId = `cli${Date.now() % 1_000_000}`;
    const bad = await admin.run(['users', 'create', '--login-id', loginId, '--name', '田中 一郎', '--company', model.company_id!, '--usergroup', String(group.usergroup_id)]);
    expect(bad.code).toBe(1); // no mail address
    expect(bad.stderr).toContain('mailaddress1');
    const created = await admin.run(['users', 'create', '--login-id', loginId, '--name', '田中 一郎', '--company', model.company_id!, '--mail', `${loginId}@example.jp`, '--usergroup', String(group.usergroup_id), '--json']);
    expect(created.code, created.stderr).toBe(0);
    const userId = created.json<{ user_id: number }>().user_id;
    const updated = await admin.run(['users', 'update', String(userId), '--tel', '0312345678', '--json']);
    expect(updated.code, updated.stderr).toBe(0);
    expect(updated.json()).toMatchObject({ tel_no: '0312345678', user_name: '田中 一郎' });
    expect((await admin.run(['users', 'show', String(userId)])).stdout).toMatch(/login id\s+cli/);
    const disabled = await admin.run(['users', 'disable', String(userId), '--json']);
    expect(disabled.code, disabled.stderr).toBe(0);
    expect(disabled.json()).toMatchObject({ valid_flg: 0 });
    expect((await admin.run(['users', 'show', '999999999'])).code).toBe(1);
  });

  it('creates, lists and deletes an alert-stop schedule; a time off the grid is refused', async () => {
    const day = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    const offGrid = await admin.run(['alert-stops', 'create', storeId, '--from', day, '--times', '01:15-02:00']);
    expect(offGrid.code).toBe(1);
    expect(offGrid.stderr).toContain('times');
    const created = await admin.run(['alert-stops', 'create', storeId, '--from', day, '--times', '01:00-05:00', '--json']);
    expect(created.code, created.stderr).toBe(0);
    const scheduleId = created.json<{ schedule_id: number }>().schedule_id;
    const list = await admin.run(['alert-stops', 'list', storeId, '--json']);
    expect(list.json<{ schedules: { schedule_id: number }[] }>().schedules.map((schedule) => schedule.schedule_id)).toContain(scheduleId);
    expect((await admin.run(['alert-stops', 'list', storeId])).stdout).toContain('01:00-05:00');
    const deleted = await admin.run(['alert-stops', 'delete', storeId, String(scheduleId), '--json']);
    expect(deleted.code, deleted.stderr).toBe(0);
    expect((await admin.run(['alert-stops', 'delete', storeId, String(scheduleId)])).code).toBe(1);
  });
  it('runs a month report with the real worker, waits for it and downloads it; lists the history and settings', async () => {
    const worker = startWorker({ DATABASE_URL: inject('databaseUrl') });
    try {
      const out = path.join(admin.configDir, 'report.csv');
      const run = await admin.run(['reports', 'run', storeId, '--type', 'month', '--month', '2026-10', '--format', 'csv', '--out', out, '--json']);
      expect(run.code, run.stderr).toBe(0);
      const made = run.json<{ history_no: number; state: string; saved_to: string; bytes: number }>();
      expect(made).toMatchObject({ state: 'done', saved_to: out });
      expect(statSync(out).size).toBe(made.bytes);
      expect(made.bytes).toBeGreaterThan(0);
      // --out - writes the file itself to stdout, byte for byte, and nothing after it.
      const piped = await admin.run(['reports', 'run', storeId, '--type', 'month', '--month', '2026-10', '--format', 'csv', '--out', '-']);
      expect(piped.code, piped.stderr).toBe(0);
      expect(piped.stdoutBytes.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf])); // the CSV's BOM first
      const firstLine = (bytes: Buffer) => bytes.toString('utf8').split('\n')[0];
      expect(firstLine(piped.stdoutBytes)).toBe(firstLine(readFileSync(out)));
      expect(piped.stdout).not.toContain('Saved report');
      const history = await admin.run(['reports', 'history', storeId, '--json']);
      expect(history.json<{ histories: { history_no: number }[] }>().histories.map((item) => item.history_no)).toContain(made.history_no);
      expect((await admin.run(['reports', 'history', storeId])).stdout.split('\n')[0]).toMatch(/^\s*NO\s+MADE\s+FILE/);
      const settings = await admin.run(['reports', 'settings', storeId, '--json']);
      expect(settings.code, settings.stderr).toBe(0);
      expect(Array.isArray(settings.json())).toBe(true);
      expect((await admin.run(['reports', 'run', storeId, '--type', 'month'])).code).toBe(2); // --month missing
      // --no-appendix: the same day's PDF without its pages of raw values (decision 307).
      const dayPdf = async (...extra: string[]) => {
        const pdf = await admin.run(['reports', 'run', storeId, '--type', 'day', '--date', '2026-10-05', '--format', 'pdf', '--out', '-', ...extra]);
        expect(pdf.code, pdf.stderr).toBe(0);
        expect(pdf.stdoutBytes.subarray(0, 5).toString()).toBe('%PDF-');
        return pdf.stdoutBytes.length;
      };
      expect(await dayPdf('--no-appendix')).toBeLessThan(await dayPdf());
    } finally {
      await stopProcess(worker);
    }
  }, 120_000);
});

describe('onreco: the calls it makes are the server\'s', () => {
  it('every /on-reco call the CLI imports is in /on-reco/openapi.json with the same method and path', async () => {
    const { readdirSync, readFileSync } = await import('node:fs');
    const cliDir = path.resolve('cli');
    const files = [...readdirSync(cliDir).map((name) => path.join(cliDir, name)), ...readdirSync(path.join(cliDir, 'commands')).map((name) => path.join(cliDir, 'commands', name))].filter((file) => file.endsWith('.ts'));
    const used: { id: string; method: string; path: string }[] = [];
    for (const file of files) {
      for (const match of readFileSync(file, 'utf8').matchAll(/import \{([^}]+)\} from '\.\.\/\.\.\/app\/domain\/api\/([\w-]+)'/g)) {
        const area = (await import(`../../app/domain/api/${match[2]}.ts`)) as Record<string, { id?: string; method?: string; path?: string }>;
        for (const name of match[1].split(',').map((part) => part.trim().split(/\s+as\s+/)[0]).filter(Boolean)) {
          const call = area[name];
          if (call?.method && call.path && call.id) used.push({ id: call.id, method: call.method, path: call.path });
        }
      }
    }
    expect(used.length).toBeGreaterThan(20);
    const document = (await (await fetch(`${base}/on-reco/openapi.json`)).json()) as { paths: Record<string, Record<string, { operationId: string }>> };
    for (const call of used) {
      expect(document.paths[call.path]?.[call.method.toLowerCase()]?.operationId, `${call.method} ${call.path}`).toBe(call.id);
    }
  });
});

describe('onreco: completion', () => {
  it('prints a bash and a zsh script that know the commands', async () => {
    const cli = cliSandbox();
    const bash = await cli.run(['completion', 'bash']);
    expect(bash.code).toBe(0);
    expect(bash.stdout).toContain('complete -o default -F _onreco_completion onreco');
    expect(bash.stdout).toContain('"stores") words="list show create update remove');
    const zsh = await cli.run(['completion', 'zsh']);
    expect(zsh.stdout).toContain('bashcompinit');
    expect((await cli.run(['completion', 'fish'])).code).toBe(2);
  });
});

describe('onreco db: on DATABASE_URL directly', () => {
  it('migrates a new database, says what ran and what is pending, seeds the demo once, keeps partitions ahead', async () => {
    const suiteUrl = new URL(inject('databaseUrl'));
    const name = `onreco_cli_db_${process.pid}`;
    const pg = (await import('pg')).default;
    const admin = new pg.Client({ connectionString: suiteUrl.toString() });
    await admin.connect();
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.query(`create database ${name}`);
    const url = new URL(suiteUrl);
    url.pathname = `/${name}`;
    try {
      expect((await cliSandbox().run(['db', 'status'])).stderr).toContain('set DATABASE_URL');
      const cli = cliSandbox({ DATABASE_URL: url.toString() });
      const before = await cli.run(['db', 'status', '--json']);
      expect(before.code, before.stderr).toBe(0);
      expect(before.json<{ pending: number }>().pending).toBeGreaterThan(0);
      const migrate = await cli.run(['db', 'migrate']);
      expect(migrate.code, migrate.stderr).toBe(0);
      expect(migrate.stdout).toMatch(/^Ran \d+ migration/);
      expect((await cli.run(['db', 'migrate'])).stdout).toContain('up to date');
      expect((await cli.run(['db', 'status', '--json'])).json<{ pending: number }>().pending).toBe(0);
      const partitions = await cli.run(['db', 'partitions', '--months', '4']);
      expect(partitions.code, partitions.stderr).toBe(0);
      const seed = await cli.run(['db', 'seed', '--demo', '--days', '1']);
      expect(seed.code, seed.stderr).toBe(0);
      expect(seed.stdout).toMatch(/^Seeded \d+ stores/);
      const again = await cli.run(['db', 'seed', '--demo']);
      expect(again.code).toBe(1);
      expect(again.stderr).toContain('only into an empty one');
    } finally {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  }, 180_000);
});
