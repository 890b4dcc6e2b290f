import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sendPendingMails } from '~/services/outbox.server';
import { logger } from '~/services/logger.server';
import { loader as authorityLoader } from '~/routes/on-reco+/v1.authority';
import { loader as storesLoader } from '~/routes/on-reco+/v1.stores';
import { action as usersAction, loader as usersLoader } from '~/routes/on-reco+/v1.users.edit';
import { action as loginAction } from '~/routes/_auth+/login';
import { loader as choicesLoader } from '~/routes/resources+/usergroup-choices';
import { TEST_PASSWORD, countRows, createStore, createUser } from '../fixtures/chain';
import { resetDb, testDb } from '../support/db';
import { call, deleteByQuery, get, postForm, postJson, tokenFor } from '../support/requests';
import { startSmtpServer } from '../support/smtp';

const db = testDb();
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;

beforeAll(async () => {
  smtp = await startSmtpServer();
  process.env.SMTP_URL = smtp.url; // read once by getEnv(), before any mail is sent in this file
});
afterAll(async () => {
  delete process.env.SMTP_URL;
  await smtp.close();
});
beforeEach(async () => {
  await resetDb();
  smtp.received.length = 0;
});

const groupOf = async (loginId: string) =>
  (await db.selectFrom('usergroups').select('usergroup_id').where('usergroup_name', '=', `${loginId} group`).executeTakeFirstOrThrow()).usergroup_id;

/** S001 and S002 (same company C001); admin, maint, a case and an area manager of S001, store users of S001 and S002. */
async function chain() {
  await createStore(db, 'S001', { store_name: '新宿店' });
  await createStore(db, 'S002', { store_name: '渋谷店' });
  const ids: Record<string, number> = {};
  ids.admin = await createUser(db, 'admin', 1);
  ids.maint = await createUser(db, 'maint', 10);
  ids.case = await createUser(db, 'case', 20, { storeIds: ['S001'] });
  ids.area = await createUser(db, 'area', 30, { storeIds: ['S001'] });
  ids.store1 = await createUser(db, 'store1', 101, { storeIds: ['S001'] });
  ids.store2 = await createUser(db, 'store2', 101, { storeIds: ['S002'] });
  const tokens: Record<string, string> = {};
  for (const login of ['admin', 'maint', 'case', 'area', 'store1', 'store2']) tokens[login] = await tokenFor(login, TEST_PASSWORD);
  return { ids, tokens };
}

const list = (token: string, query = '') => call(usersLoader, get(`/on-reco/v1/users/edit${query}`, token));
const save = (token: string, body: Record<string, unknown>) => call(usersAction, postJson('/on-reco/v1/users/edit', body, token));
const remove = (token: string, userId: number) => call(usersAction, postJson('/on-reco/v1/users/edit', { user_id: userId }, token, 'DELETE'));

const newUser = async (overrides: Record<string, unknown> = {}) => ({
  login_id: 'yamada01',
  user_name: '山田 太郎',
  company_id: 'C001',
  tel_no: '0312345678',
  mailaddress1: 'yamada@example.com',
  mailaddress2: null,
  mailaddress3: null,
  language: 'JP',
  valid_flg: 1,
  notice_flg: 1,
  alert_filter: 1,
  usergroup: [await groupOf('store1')],
  ...overrides,
});

/** Every table a refused write must leave as it was. */
const checksum = async () => Promise.all(['users', 'user_usergroups', 'access_tokens', 'audit_log', 'mail_outbox'].map((table) => countRows(db, table)));

describe('GET /v1/users/edit', () => {
  it('lists every user for administrators, 20 per page, with all_count and the filters of 001 §7', async () => {
    const { tokens } = await chain();
    const all = await (await list(tokens.admin)).json();
    expect(all.all_count).toBe(6);
    expect(all.users.map((user: { login_id: string }) => user.login_id)).toEqual(['admin', 'maint', 'case', 'area', 'store1', 'store2']);
    expect(all.users[4]).toMatchObject({ login_id: 'store1', user_name: 'store1 さん', company_id: null, language: 'JP', valid_flg: 1, authority: 101, usergroups: [{ usergroup_name: 'store1 group' }] });
    expect((await (await list(tokens.admin, '?user_name=STORE')).json()).all_count).toBe(2);
    expect((await (await list(tokens.admin, '?mailaddress=CASE@')).json()).users.map((u: { login_id: string }) => u.login_id)).toEqual(['case']);
    expect((await (await list(tokens.admin, `?usergroup_id=${await groupOf('area')}`)).json()).users.map((u: { login_id: string }) => u.login_id)).toEqual(['area']);
    expect((await (await list(tokens.admin, '?valid_flg=0')).json()).all_count).toBe(0);
    expect((await (await list(tokens.admin, '?alert_filter=1')).json()).all_count).toBe(6);
    const page2 = await (await list(tokens.admin, '?page_no=2&page_count=4')).json();
    expect(page2).toMatchObject({ all_count: 6 });
    expect(page2.users).toHaveLength(2);
    expect((await list(tokens.admin, '?page_count=101')).status).toBe(400);
  });

  it('shows a case or area manager only their groups\' members and the store users of their stores; maintenance and store users 403', async () => {
    const { tokens } = await chain();
    expect((await (await list(tokens.case)).json()).users.map((u: { login_id: string }) => u.login_id)).toEqual(['case', 'store1']);
    expect((await (await list(tokens.area)).json()).users.map((u: { login_id: string }) => u.login_id)).toEqual(['area', 'store1']);
    expect((await list(tokens.maint)).status).toBe(403);
    expect((await list(tokens.store1)).status).toBe(403);
  });
});

describe('the pages of the list', () => {
  const logins = async (token: string, query: string) => ((await (await list(token, query)).json()).users as { login_id: string }[]).map((user) => user.login_id);

  it('gives every page in user_id order, the later ones read from the end of the order, and nothing past the end', async () => {
    const { tokens } = await chain();
    const all = await logins(tokens.admin, '');
    for (const size of [1, 2, 4, 5]) {
      const pages: string[] = [];
      for (let page = 1; page <= Math.ceil(all.length / size); page += 1) pages.push(...(await logins(tokens.admin, `?page_no=${page}&page_count=${size}`)));
      expect(pages, `page_count ${size}`).toEqual(all);
      expect(await logins(tokens.admin, `?page_no=${Math.ceil(all.length / size) + 1}&page_count=${size}`)).toEqual([]);
    }
    // A manager's last page comes from their own users only.
    expect(await logins(tokens.area, '?page_no=2&page_count=1')).toEqual(['store1']);
  });
});

describe('/resources/usergroup-choices (the group filter, loaded when opened)', () => {
  const choices = async (loginId: string) => {
    const login = await call(loginAction, postForm('/login', { username: loginId, password: TEST_PASSWORD }));
    const cookie = login.headers.get('Set-Cookie')!.split(';')[0];
    return call(choicesLoader, get('/resources/usergroup-choices', undefined, { Cookie: cookie }));
  };

  it('offers an administrator every group and a manager only the groups they may assign; a store user 403', async () => {
    await chain();
    const labels = async (loginId: string) => ((await (await choices(loginId)).json()) as { label: string }[]).map((option) => option.label);
    expect(await labels('admin')).toEqual(['admin group', 'maint group', 'case group', 'area group', 'store1 group', 'store2 group']);
    expect(await labels('area')).toEqual(['area group', 'store1 group']);
    expect((await choices('store1')).status).toBe(403);
  });
});

describe('GET /v1/authority', () => {
  it('answers only the authorities the caller may give', async () => {
    const { tokens } = await chain();
    const admin = await (await call(authorityLoader, get('/on-reco/v1/authority', tokens.admin))).json();
    expect(admin.map((a: { authority: number }) => a.authority)).toContain(1);
    expect(admin[0]).toEqual({ authority: 1, authorityName: expect.any(String) });
    const area = await (await call(authorityLoader, get('/on-reco/v1/authority', tokens.area))).json();
    expect(area.map((a: { authority: number }) => a.authority)).toEqual([30, 101]);
    const caseManager = await (await call(authorityLoader, get('/on-reco/v1/authority', tokens.case))).json();
    expect(caseManager.map((a: { authority: number }) => a.authority)).toEqual([20, 30, 101]);
    expect((await call(authorityLoader, get('/on-reco/v1/authority', tokens.maint))).status).toBe(403);
  });
});

describe('POST /v1/users/edit', () => {
  it('creates a user with one audit row and a welcome mail in their language with a temporary password that signs in', async () => {
    const { tokens } = await chain();
    const response = await save(tokens.admin, await newUser({ language: 'US', mailaddress1: null, mailaddress2: 'yamada@example.com' }));
    expect(response.status).toBe(201);
    const user = await response.json();
    expect(user).toMatchObject({ login_id: 'yamada01', user_name: '山田 太郎', company_name: 'テスト商事', mailaddress1: null, mailaddress2: 'yamada@example.com', authority: 101 });
    const rows = await db.selectFrom('audit_log').select(['action', 'details', 'user_id']).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0].action).toBe('user.create');
    expect(JSON.stringify(rows[0].details)).not.toContain('password');
    expect((rows[0].details as { before: unknown; after: { login_id: string } }).after.login_id).toBe('yamada01');
    await sendPendingMails(db, new Date(), logger);
    const [mail] = await smtp.waitFor(1);
    expect(mail.to).toEqual(['yamada@example.com']);
    expect(mail.subject).toBe('[On-Reco] Your account');
    const password = /Temporary password: (\S+)/.exec(mail.text)![1];
    expect(await tokenFor('yamada01', password)).toMatch(/.+/);
  });

  it('welcomes a JP user in Japanese', async () => {
    const { tokens } = await chain();
    expect((await save(tokens.admin, await newUser())).status).toBe(201);
    await sendPendingMails(db, new Date(), logger);
    const [mail] = await smtp.waitFor(1);
    expect(mail.subject).toBe('【On-Reco】アカウント登録のお知らせ');
    expect(mail.text).toContain('ログインID: yamada01');
  });

  it('saves an inactive user with notice_flg 0 and alert_filter 2, and deactivating ends their sessions at once', async () => {
    const { ids, tokens } = await chain();
    const before = await (await list(tokens.admin, `?user_id=${ids.store1}`)).json();
    const edited = { ...(await newUser()), user_id: ids.store1, login_id: 'store1', mailaddress1: 'store1@example.com', valid_flg: 0, notice_flg: 1, alert_filter: 0 };
    expect(before.users[0].valid_flg).toBe(1);
    const response = await save(tokens.admin, edited);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ valid_flg: 0, notice_flg: 0, alert_filter: 2 });
    expect((await call(storesLoader, get('/on-reco/v1/stores?store_id=S001', tokens.store1))).status).toBe(401);
    const audit = await db.selectFrom('audit_log').select('details').where('action', '=', 'user.update').executeTakeFirstOrThrow();
    expect(audit.details).toMatchObject({ before: { valid_flg: 1 }, after: { valid_flg: 0, alert_filter: 2 } });
  });

  it('refuses duplicates with the 001 §8 messages and changes nothing', async () => {
    const { tokens } = await chain();
    const sums = await checksum();
    const login = await save(tokens.admin, await newUser({ login_id: 'store2' }));
    expect(login.status).toBe(400);
    expect(await login.json()).toMatchObject({ error: 'duplicate_value', error_description: 'The same value can not be registered: login_id', fields: { login_id: 'このIDは既に使用されています' } });
    const mail = await save(tokens.admin, await newUser({ mailaddress1: 'STORE2@example.com' }));
    expect(await mail.json()).toMatchObject({ error_description: 'The same value can not be registered: mailaddress1', fields: { mailaddress1: 'このメールアドレスは既に使用されています' } });
    expect(await checksum()).toEqual(sums);
  });

  it('refuses bad input with the field and the 001 §5 reason', async () => {
    const { tokens } = await chain();
    const cases: [Record<string, unknown>, string, string][] = [
      [{ user_name: '' }, 'user_name', '入力してください'],
      [{ user_name: 'あ'.repeat(51) }, 'user_name', '50文字以内で入力してください'],
      [{ login_id: 'yamada-01' }, 'login_id', '半角英数を入力してください'],
      [{ company_id: '' }, 'company_id', '選択してください'],
      [{ tel_no: '03-1234-5678' }, 'tel_no', '半角数値を入力してください'],
      [{ mailaddress1: 'not-a-mail' }, 'mailaddress1', 'フォーマットが違います'],
      [{ mailaddress1: null }, 'mailaddress1', 'メールアドレスを1件以上入力してください'],
      [{ usergroup: [] }, 'usergroup', '選択してください'],
      [{ language: 'FR' }, 'language', '選択してください'],
      [{ company_id: 'NOPE' }, 'company_id', '存在しない会社です'],
    ];
    for (const [overrides, field, message] of cases) {
      const response = await save(tokens.admin, await newUser(overrides));
      expect(response.status, field).toBe(400);
      expect((await response.json()).fields[field], field).toBe(message);
    }
    expect(await countRows(db, 'users')).toBe(6);
  });

  it('keeps the login id on edit', async () => {
    const { ids, tokens } = await chain();
    const response = await save(tokens.admin, await newUser({ user_id: ids.store1, login_id: 'renamed', mailaddress1: 'store1@example.com' }));
    expect(response.status).toBe(400);
    expect((await response.json()).fields.login_id).toBe('ログインIDは変更できません');
  });
});

describe('privileges (DESIGN.md Scoped)', () => {
  it('lets an area manager create a store user in a store-user group of their store', async () => {
    const { tokens } = await chain();
    const response = await save(tokens.area, await newUser({ store_id: 'S001' }));
    expect(response.status).toBe(201);
    expect((await (await list(tokens.area)).json()).users.map((u: { login_id: string }) => u.login_id)).toContain('yamada01');
  });

  it('refuses a manager who puts anyone into an administrator or maintenance group (403), or a group more privileged than theirs', async () => {
    const { tokens } = await chain();
    const sums = await checksum();
    for (const group of ['admin', 'maint']) {
      const response = await save(tokens.case, await newUser({ usergroup: [await groupOf(group)] }));
      expect([403, 404], group).toContain(response.status);
    }
    // The case manager's group is linked to S001, like the area manager's: visible to the area manager, but more privileged.
    expect((await save(tokens.area, await newUser({ usergroup: [await groupOf('case')] }))).status).toBe(403);
    expect(await checksum()).toEqual(sums);
  });

  it('refuses a manager who edits a more privileged user (403) or one outside their groups (404), a store outside (404)', async () => {
    const { ids, tokens } = await chain();
    // The case manager shares the area manager's group: the area manager sees them, but they are more privileged.
    await db.insertInto('user_usergroups').values({ user_id: ids.case, usergroup_id: await groupOf('area') }).execute();
    const sums = await checksum();
    const editCase = await save(tokens.area, await newUser({ user_id: ids.case, login_id: 'case', mailaddress1: 'case@example.com', usergroup: [await groupOf('case')] }));
    expect(editCase.status).toBe(403);
    const editAdmin = await save(tokens.case, await newUser({ user_id: ids.admin, login_id: 'admin', mailaddress1: 'admin@example.com', usergroup: [await groupOf('admin')] }));
    expect(editAdmin.status).toBe(404);
    const editOther = await save(tokens.case, await newUser({ user_id: ids.store2, login_id: 'store2', mailaddress1: 'store2@example.com', usergroup: [await groupOf('store2')] }));
    expect(editOther.status).toBe(404);
    expect((await save(tokens.case, await newUser({ store_id: 'S002' }))).status).toBe(404);
    expect((await remove(tokens.case, ids.store2)).status).toBe(404);
    expect((await remove(tokens.area, ids.case)).status).toBe(403);
    expect(await checksum()).toEqual(sums);
  });

  it('refuses a manager who changes their own authority (403)', async () => {
    const { ids, tokens } = await chain();
    const sums = await checksum();
    const response = await save(tokens.case, await newUser({ user_id: ids.case, login_id: 'case', mailaddress1: 'case@example.com', usergroup: [await groupOf('store1')] }));
    expect(response.status).toBe(403);
    expect((await response.json()).error_description).toContain('own authority');
    expect(await checksum()).toEqual(sums);
    // Their own other fields may change.
    expect((await save(tokens.case, await newUser({ user_id: ids.case, login_id: 'case', user_name: '新しい名前', mailaddress1: 'case@example.com', usergroup: [await groupOf('case')] }))).status).toBe(200);
  });
});

describe('mail changes by someone else (issue 30 item 1, decision 241)', () => {
  const outbox = () => db.selectFrom('mail_outbox').select(['to_address', 'subject', 'body']).orderBy('mail_id').execute();

  it('refuses a manager who changes the mail of a peer of the same rank (403) and changes nothing', async () => {
    const { tokens } = await chain();
    const peer = await createUser(db, 'area2', 30);
    await db.deleteFrom('user_usergroups').where('user_id', '=', peer).execute();
    await db.insertInto('user_usergroups').values({ user_id: peer, usergroup_id: await groupOf('area') }).execute();
    const sums = await checksum();
    const response = await save(tokens.area, await newUser({ user_id: peer, login_id: 'area2', mailaddress1: 'attacker@example.net', usergroup: [await groupOf('area')] }));
    expect(response.status).toBe(403);
    expect((await response.json()).error_description).toContain('mail address');
    expect(await checksum()).toEqual(sums);
  });

  it('refuses a manager who changes the mail of a user who also belongs to a group outside their scope (403)', async () => {
    const { ids, tokens } = await chain();
    await db.insertInto('user_usergroups').values({ user_id: ids.store1, usergroup_id: await groupOf('store2') }).execute();
    const sums = await checksum();
    const groups = [await groupOf('store1'), await groupOf('store2')];
    const response = await save(tokens.area, await newUser({ user_id: ids.store1, login_id: 'store1', mailaddress1: 'attacker@example.net', usergroup: groups }));
    expect(response.status).toBe(403);
    expect(await checksum()).toEqual(sums);
    // The same user's other fields still change; their own address stays.
    const rename = await save(tokens.area, await newUser({ user_id: ids.store1, login_id: 'store1', user_name: '新しい名前', mailaddress1: 'store1@example.com', usergroup: groups }));
    expect(rename.status).toBe(200);
  });

  it('lets a manager change the mail of a store user wholly in their scope, and tells the old address', async () => {
    const { ids, tokens } = await chain();
    const response = await save(tokens.area, await newUser({ user_id: ids.store1, login_id: 'store1', mailaddress1: 'store1.new@example.com', usergroup: [await groupOf('store1')] }));
    expect(response.status).toBe(200);
    const mails = await outbox();
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ to_address: 'store1@example.com', subject: '【On-Reco】メールアドレス変更のお知らせ' });
    expect(mails[0].body).toContain('store1.new@example.com');
    expect(mails[0].body).toContain('area さん');
  });

  it('lets an administrator change anyone\'s mail (audited) and tells the old address; the user changing their own mail is not told', async () => {
    const { ids, tokens } = await chain();
    expect((await save(tokens.admin, await newUser({ user_id: ids.case, login_id: 'case', mailaddress1: 'case.new@example.com', usergroup: [await groupOf('case')] }))).status).toBe(200);
    expect((await outbox()).map((mail) => mail.to_address)).toEqual(['case@example.com']);
    const audit = await db.selectFrom('audit_log').select('details').where('action', '=', 'user.update').executeTakeFirstOrThrow();
    expect(JSON.stringify(audit.details)).toContain('case.new@example.com');
    expect((await save(tokens.case, await newUser({ user_id: ids.case, login_id: 'case', mailaddress1: 'case.mine@example.com', usergroup: [await groupOf('case')] }))).status).toBe(200);
    expect(await outbox()).toHaveLength(1);
  });
});

describe('DELETE /v1/users/edit', () => {
  it('deletes a user: gone from the list, sessions ended, the name kept on the history they wrote', async () => {
    const { ids, tokens } = await chain();
    await db.insertInto('audit_log').values({ user_id: ids.store1, action: 'sample.write', target_type: 'store', details: '{}' }).execute();
    const response = await remove(tokens.admin, ids.store1);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ user_id: ids.store1, deleted: true });
    expect((await (await list(tokens.admin)).json()).users.map((u: { login_id: string }) => u.login_id)).not.toContain('store1');
    expect((await call(storesLoader, get('/on-reco/v1/stores?store_id=S001', tokens.store1))).status).toBe(401);
    const written = await db
      .selectFrom('audit_log')
      .innerJoin('users', 'users.user_id', 'audit_log.user_id')
      .select('users.user_name')
      .where('audit_log.action', '=', 'sample.write')
      .executeTakeFirstOrThrow();
    expect(written.user_name).toBe('store1 さん');
    // The login id and mail are free again.
    expect((await save(tokens.admin, await newUser({ login_id: 'store1', mailaddress1: 'store1@example.com' }))).status).toBe(201);
    expect((await remove(tokens.admin, ids.store1)).status).toBe(404);
  });

  it('takes the user_id in the query too (001 §7: DELETE /v1/users/edit?user_id=), as the body form keeps working', async () => {
    const { ids, tokens } = await chain();
    const response = await call(usersAction, deleteByQuery(`/on-reco/v1/users/edit?user_id=${ids.store1}`, tokens.admin));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ user_id: ids.store1, deleted: true });
    expect((await call(usersAction, deleteByQuery(`/on-reco/v1/users/edit?user_id=${ids.store1}`, tokens.admin))).status).toBe(404);
    const bad = await call(usersAction, deleteByQuery('/on-reco/v1/users/edit?user_id=abc', tokens.admin));
    expect(bad.status).toBe(400);
    expect((await bad.json()).fields).toHaveProperty('user_id');
    expect((await remove(tokens.admin, ids.store2)).status).toBe(200);
  });

  it('refuses to delete, deactivate or demote the last administrator, and to delete or deactivate oneself', async () => {
    const { ids, tokens } = await chain();
    const other = await createUser(db, 'admin2', 1);
    const token2 = await tokenFor('admin2', TEST_PASSWORD);
    const sums = await checksum();
    expect((await remove(tokens.admin, ids.admin)).status).toBe(403);
    const deactivateSelf = await save(tokens.admin, await newUser({ user_id: ids.admin, login_id: 'admin', mailaddress1: 'admin@example.com', usergroup: [await groupOf('admin')], valid_flg: 0 }));
    expect(deactivateSelf.status).toBe(403);
    expect(await checksum()).toEqual(sums);
    // admin2 deletes admin: admin's sessions end; admin2 is now the last administrator.
    expect((await remove(token2, ids.admin)).status).toBe(200);
    expect((await remove(tokens.admin, other)).status).toBe(401);
    const thirdGroup = await createUser(db, 'admin3', 1, { validFlg: 0 });
    await db.insertInto('user_usergroups').values({ user_id: thirdGroup, usergroup_id: await groupOf('maint') }).execute();
    const sums2 = await checksum();
    const demote = await save(token2, await newUser({ user_id: other, login_id: 'admin2', mailaddress1: 'admin2@example.com', usergroup: [await groupOf('store1')] }));
    expect(demote.status).toBe(409);
    expect(await demote.json()).toMatchObject({ error: 'last_administrator', error_description: expect.stringContaining('last active administrator') });
    expect(await checksum()).toEqual(sums2);
    // An inactive administrator does not count; once admin3 is active, admin2 may step down.
    await db.updateTable('users').set({ valid_flg: 1 }).where('user_id', '=', thirdGroup).execute();
    expect((await save(token2, await newUser({ user_id: other, login_id: 'admin2', mailaddress1: 'admin2@example.com', usergroup: [await groupOf('store1')] }))).status).toBe(200);
  });
});
