import { beforeEach, describe, expect, it } from 'vitest';
import { loader as companyLoader, action as companyAction } from '~/routes/on-reco+/v1.company.edit';
import { loader as storegroupLoader, action as storegroupAction } from '~/routes/on-reco+/v1.storegroup.edit';
import { loader as lookupLoader } from '~/routes/on-reco+/v1.usergroups';
import { loader as usergroupLoader, action as usergroupAction } from '~/routes/on-reco+/v1.usergroups.edit';
import { TEST_PASSWORD, countRows, createCompany, createStore, createUser } from '../fixtures/chain';
import { resetDb, testDb } from '../support/db';
import { call, deleteByQuery, get, postJson, tokenFor } from '../support/requests';

// The system masters' calls (001 §7, issue 13 items 3–5): administrators only, every refusal
// changes nothing, deleting what is in use says why, duplicates are 001 §8's error, and every
// change is one audit row with before and after.

const db = testDb();
let tokens: Record<string, string>;

beforeEach(async () => {
  await resetDb();
  await createStore(db, 'S001', { store_name: '新宿店' });
  await createUser(db, 'admin', 1);
  await createUser(db, 'maint', 10);
  await createUser(db, 'case', 20, { storeIds: ['S001'] });
  await createUser(db, 'area', 30, { storeIds: ['S001'] });
  await createUser(db, 'store1', 101, { storeIds: ['S001'] });
  tokens = {};
  for (const login of ['admin', 'maint', 'case', 'area', 'store1']) tokens[login] = await tokenFor(login, TEST_PASSWORD);
});

// As the Express adapter hands a DELETE over: an empty body stream, no Content-Type.
const del = (path: string, token: string) => deleteByQuery(path, token);
const groupId = async (name: string) => (await db.selectFrom('usergroups').select('usergroup_id').where('usergroup_name', '=', name).executeTakeFirstOrThrow()).usergroup_id;
const audits = (action: string) => db.selectFrom('audit_log').select(['action', 'target_id', 'details', 'user_id']).where('action', '=', action).execute();

async function snapshot() {
  return Promise.all(['companies', 'storegroups', 'usergroups', 'user_usergroups', 'store_usergroups', 'audit_log'].map((table) => countRows(db, table)));
}

describe('who may call', () => {
  it('refuses the /edit calls to everyone but administrators (403), changing nothing', async () => {
    const before = await snapshot();
    for (const login of ['maint', 'case', 'area', 'store1']) {
      const token = tokens[login];
      expect((await call(usergroupLoader, get('/on-reco/v1/usergroups/edit', token))).status).toBe(403);
      expect((await call(usergroupAction, postJson('/on-reco/v1/usergroups/edit', { usergroup_name: 'x', usergroup_authority: 1 }, token))).status).toBe(403);
      expect((await call(usergroupAction, del(`/on-reco/v1/usergroups/edit?usergroup_id=${await groupId('store1 group')}`, token))).status).toBe(403);
      expect((await call(companyLoader, get('/on-reco/v1/company/edit', token))).status).toBe(403);
      expect((await call(companyAction, postJson('/on-reco/v1/company/edit', { company_id: 'NEW1', company_name: 'x' }, token))).status).toBe(403);
      expect((await call(companyAction, del('/on-reco/v1/company/edit?company_id=C001', token))).status).toBe(403);
      expect((await call(storegroupLoader, get('/on-reco/v1/storegroup/edit', token))).status).toBe(403);
      expect((await call(storegroupAction, postJson('/on-reco/v1/storegroup/edit', { storegroup_id: 'N1', company_id: 'C001', storegroup_name: 'x' }, token))).status).toBe(403);
      expect((await call(storegroupAction, del('/on-reco/v1/storegroup/edit?storegroup_id=G01', token))).status).toBe(403);
    }
    expect((await call(companyLoader, get('/on-reco/v1/company/edit'))).status).toBe(401);
    expect(await snapshot()).toEqual(before);
  });

  it('lists the user groups one may name: all for staff, one\'s own and one\'s stores\' for others', async () => {
    const admin = (await (await call(lookupLoader, get('/on-reco/v1/usergroups', tokens.admin))).json()) as { usergroup_name: string }[];
    expect(admin.map((group) => group.usergroup_name)).toEqual(['admin group', 'maint group', 'case group', 'area group', 'store1 group']);
    const area = (await (await call(lookupLoader, get('/on-reco/v1/usergroups', tokens.area))).json()) as { usergroup_name: string }[];
    expect(area.map((group) => group.usergroup_name)).toEqual(['case group', 'area group', 'store1 group']);
  });
});

describe('user groups', () => {
  it('lists a page with all_count, filters by id and searches by name (with % taken literally)', async () => {
    for (let i = 1; i <= 25; i += 1) await db.insertInto('usergroups').values({ usergroup_name: `検索グループ${String(i).padStart(2, '0')}`, usergroup_authority: 101 }).execute();
    const first = await (await call(usergroupLoader, get('/on-reco/v1/usergroups/edit?page_no=1&page_count=20&usergroup_name=検索', tokens.admin))).json();
    expect(first.all_count).toBe(25);
    expect(first.usergroups).toHaveLength(20);
    const last = await (await call(usergroupLoader, get('/on-reco/v1/usergroups/edit?page_no=2&page_count=20&usergroup_name=検索', tokens.admin))).json();
    expect(last.usergroups.map((group: { usergroup_name: string }) => group.usergroup_name)).toEqual(['検索グループ21', '検索グループ22', '検索グループ23', '検索グループ24', '検索グループ25']);
    const id = await groupId('area group');
    const one = await (await call(usergroupLoader, get(`/on-reco/v1/usergroups/edit?usergroup_id=${id}`, tokens.admin))).json();
    expect(one).toEqual({ all_count: 1, usergroups: [{ usergroup_id: id, usergroup_name: 'area group', usergroup_authority: 30 }] });
    expect((await (await call(usergroupLoader, get('/on-reco/v1/usergroups/edit?usergroup_name=%25', tokens.admin))).json()).all_count).toBe(0);
  });

  it('creates and updates with an audit row of before and after', async () => {
    const created = await call(usergroupAction, postJson('/on-reco/v1/usergroups/edit', { usergroup_name: '新宿エリア', usergroup_authority: 30 }, tokens.admin));
    expect(created.status).toBe(201);
    const { usergroup_id } = await created.json();
    const updated = await call(usergroupAction, postJson('/on-reco/v1/usergroups/edit', { usergroup_id, usergroup_name: '新宿・渋谷エリア', usergroup_authority: 20 }, tokens.admin));
    expect(updated.status).toBe(200);
    expect(await updated.json()).toEqual({ usergroup_id, usergroup_name: '新宿・渋谷エリア', usergroup_authority: 20, created: false });
    const [create] = await audits('usergroup.create');
    expect(create.details).toEqual({ before: null, after: { usergroup_id, usergroup_name: '新宿エリア', usergroup_authority: 30 } });
    const [update] = await audits('usergroup.update');
    expect(update.details).toEqual({ before: { usergroup_id, usergroup_name: '新宿エリア', usergroup_authority: 30 }, after: { usergroup_id, usergroup_name: '新宿・渋谷エリア', usergroup_authority: 20 } });
  });

  it('refuses bad input with the field (400): a name missing or over 50, an unknown authority, and an unknown id (404)', async () => {
    const before = await snapshot();
    const refusal = async (body: unknown) => {
      const response = await call(usergroupAction, postJson('/on-reco/v1/usergroups/edit', body, tokens.admin));
      return { status: response.status, body: await response.json() };
    };
    expect(await refusal({ usergroup_name: '', usergroup_authority: 30 })).toMatchObject({ status: 400, body: { fields: { usergroup_name: '入力してください' } } });
    expect(await refusal({ usergroup_name: 'あ'.repeat(51), usergroup_authority: 30 })).toMatchObject({ status: 400, body: { fields: { usergroup_name: '50文字以内で入力してください' } } });
    expect(await refusal({ usergroup_name: '名前' })).toMatchObject({ status: 400, body: { fields: { usergroup_authority: '選択してください' } } });
    expect(await refusal({ usergroup_name: '名前', usergroup_authority: 7 })).toMatchObject({ status: 400, body: { fields: { usergroup_authority: '選択してください' } } });
    expect((await refusal({ usergroup_id: 99999, usergroup_name: '名前', usergroup_authority: 30 })).status).toBe(404);
    expect(await snapshot()).toEqual(before);
  });

  it('refuses to delete a group with members or stores (409 with the reason), deletes an unused one', async () => {
    const before = await snapshot();
    const withMembers = await call(usergroupAction, del(`/on-reco/v1/usergroups/edit?usergroup_id=${await groupId('admin group')}`, tokens.admin));
    expect(withMembers.status).toBe(409);
    expect(await withMembers.json()).toMatchObject({ error: 'in_use', reason: 'usergroup_has_members' });
    // A group linked to a store, without members.
    const linked = await db.insertInto('usergroups').values({ usergroup_name: '店舗だけ', usergroup_authority: 101 }).returning('usergroup_id').executeTakeFirstOrThrow();
    await db.insertInto('store_usergroups').values({ store_id: 'S001', usergroup_id: linked.usergroup_id }).execute();
    const middle = await snapshot();
    const withStores = await call(usergroupAction, del(`/on-reco/v1/usergroups/edit?usergroup_id=${linked.usergroup_id}`, tokens.admin));
    expect(withStores.status).toBe(409);
    expect(await withStores.json()).toMatchObject({ reason: 'usergroup_has_stores', error_description: 'このユーザーグループは店舗に紐づいています。' });
    expect(await snapshot()).toEqual(middle);
    expect(before[2] + 1).toBe(middle[2]);
    await db.deleteFrom('store_usergroups').where('usergroup_id', '=', linked.usergroup_id).execute();
    const done = await call(usergroupAction, del(`/on-reco/v1/usergroups/edit?usergroup_id=${linked.usergroup_id}`, tokens.admin));
    expect(done.status).toBe(200);
    expect(await done.json()).toEqual({ deleted: true });
    const [row] = await audits('usergroup.delete');
    expect(row.details).toEqual({ before: { usergroup_id: linked.usergroup_id, usergroup_name: '店舗だけ', usergroup_authority: 101 }, after: null });
    expect((await call(usergroupAction, del(`/on-reco/v1/usergroups/edit?usergroup_id=${linked.usergroup_id}`, tokens.admin))).status).toBe(404);
  });

  it('refuses an authority change that leaves no valid administrator (409), changing nothing', async () => {
    const before = await snapshot();
    const response = await call(usergroupAction, postJson('/on-reco/v1/usergroups/edit', { usergroup_id: await groupId('admin group'), usergroup_name: 'admin group', usergroup_authority: 30 }, tokens.admin));
    expect(response.status).toBe(409);
    expect(await response.json()).toMatchObject({ reason: 'last_administrator' });
    expect(await snapshot()).toEqual(before);
    expect((await db.selectFrom('usergroups').select('usergroup_authority').where('usergroup_name', '=', 'admin group').executeTakeFirstOrThrow()).usergroup_authority).toBe(1);
  });
});

describe('companies', () => {
  it('creates (201), finds by id (the create form\'s check), refuses a duplicate with 001 §8\'s error, updates (200)', async () => {
    const created = await call(companyAction, postJson('/on-reco/v1/company/edit', { company_id: 'NEWCO', company_name: '新商事', mode: 'create' }, tokens.admin));
    expect(created.status).toBe(201);
    const found = await (await call(companyLoader, get('/on-reco/v1/company/edit?page_no=1&page_count=20&company_id=NEWCO', tokens.admin))).json();
    expect(found).toEqual({ all_count: 1, companies: [{ company_id: 'NEWCO', company_name: '新商事' }] });
    const before = await snapshot();
    const duplicate = await call(companyAction, postJson('/on-reco/v1/company/edit', { company_id: 'NEWCO', company_name: '別商事', mode: 'create' }, tokens.admin));
    expect(duplicate.status).toBe(400);
    expect(await duplicate.json()).toMatchObject({ error: 'duplicate_value', error_description: 'The same value can not be registered: company_id', fields: { company_id: '既に使用されています' } });
    expect(await snapshot()).toEqual(before);
    // 001 §7's call without mode: create or update by the id.
    const updated = await call(companyAction, postJson('/on-reco/v1/company/edit', { company_id: 'NEWCO', company_name: '新商事ホールディングス' }, tokens.admin));
    expect(updated.status).toBe(200);
    const [row] = await audits('company.update');
    expect(row.details).toEqual({ before: { company_id: 'NEWCO', company_name: '新商事' }, after: { company_id: 'NEWCO', company_name: '新商事ホールディングス' } });
    expect((await call(companyAction, postJson('/on-reco/v1/company/edit', { company_id: 'NONE', company_name: 'x', mode: 'update' }, tokens.admin))).status).toBe(404);
  });

  it('refuses bad ids and names with the field (400): not alphanumeric, over 10, name over 20', async () => {
    const before = await snapshot();
    const fields = async (body: unknown) => (await (await call(companyAction, postJson('/on-reco/v1/company/edit', body, tokens.admin))).json()).fields;
    expect(await fields({ company_id: 'ＡＢＣ', company_name: '商事' })).toEqual({ company_id: '半角英数を入力してください' });
    expect(await fields({ company_id: 'A'.repeat(11), company_name: '商事' })).toEqual({ company_id: '10文字以内で入力してください' });
    expect(await fields({ company_id: 'A1', company_name: 'あ'.repeat(21) })).toEqual({ company_name: '20文字以内で入力してください' });
    expect(await fields({ company_id: '', company_name: '' })).toEqual({ company_id: '入力してください', company_name: '入力してください' });
    expect(await snapshot()).toEqual(before);
  });

  it('refuses to delete a company with stores or store groups (409), deletes an unused one', async () => {
    const before = await snapshot();
    const withStores = await call(companyAction, del('/on-reco/v1/company/edit?company_id=C001', tokens.admin));
    expect(withStores.status).toBe(409);
    expect(await withStores.json()).toMatchObject({ reason: 'company_has_stores' });
    await createCompany(db, 'C002', 'G02');
    const middle = await snapshot();
    const withGroups = await call(companyAction, del('/on-reco/v1/company/edit?company_id=C002', tokens.admin));
    expect(await withGroups.json()).toMatchObject({ reason: 'company_has_storegroups' });
    expect(await snapshot()).toEqual(middle);
    expect(before[0] + 1).toBe(middle[0]);
    await db.deleteFrom('storegroups').where('storegroup_id', '=', 'G02').execute();
    // A JSON body works as well as the query.
    const done = await call(companyAction, postJson('/on-reco/v1/company/edit', { company_id: 'C002' }, tokens.admin, 'DELETE'));
    expect(done.status).toBe(200);
    expect((await audits('company.delete'))[0].details).toEqual({ before: { company_id: 'C002', company_name: 'C002 商事' }, after: null });
  });
});

describe('store groups', () => {
  it('lists with company and id filters and a name search, creates, refuses a duplicate, updates', async () => {
    await createCompany(db, 'C002', 'G02', '第二商事');
    const list = async (query: string) => (await call(storegroupLoader, get(`/on-reco/v1/storegroup/edit?page_no=1&page_count=20${query}`, tokens.admin))).json();
    expect((await list('')).all_count).toBe(2);
    expect(await list('&company_id=C002')).toEqual({ all_count: 1, storegroups: [{ storegroup_id: 'G02', storegroup_name: '第二商事 エリア', company_id: 'C002', company_name: '第二商事' }] });
    expect((await list('&storegroup_name=第二')).all_count).toBe(1);
    const created = await call(storegroupAction, postJson('/on-reco/v1/storegroup/edit', { storegroup_id: 'N1', company_id: 'C002', storegroup_name: '北エリア', mode: 'create' }, tokens.admin));
    expect(created.status).toBe(201);
    const before = await snapshot();
    const duplicate = await call(storegroupAction, postJson('/on-reco/v1/storegroup/edit', { storegroup_id: 'N1', company_id: 'C002', storegroup_name: '南', mode: 'create' }, tokens.admin));
    expect(await duplicate.json()).toMatchObject({ error_description: 'The same value can not be registered: storegroup_id', fields: { storegroup_id: '既に使用されています' } });
    const unknownCompany = await call(storegroupAction, postJson('/on-reco/v1/storegroup/edit', { storegroup_id: 'N2', company_id: 'NOPE', storegroup_name: '南' }, tokens.admin));
    expect(unknownCompany.status).toBe(400);
    expect(await snapshot()).toEqual(before);
    // Moving an unused group to another company is fine; one with stores may not move.
    expect((await call(storegroupAction, postJson('/on-reco/v1/storegroup/edit', { storegroup_id: 'N1', company_id: 'C001', storegroup_name: '北エリア', mode: 'update' }, tokens.admin))).status).toBe(200);
    const moved = await call(storegroupAction, postJson('/on-reco/v1/storegroup/edit', { storegroup_id: 'G01', company_id: 'C002', storegroup_name: '東京エリア', mode: 'update' }, tokens.admin));
    expect(moved.status).toBe(409);
    expect(await moved.json()).toMatchObject({ reason: 'storegroup_company_has_stores' });
    const [row] = await audits('storegroup.update');
    expect(row.details).toEqual({ before: { storegroup_id: 'N1', storegroup_name: '北エリア', company_id: 'C002' }, after: { storegroup_id: 'N1', storegroup_name: '北エリア', company_id: 'C001' } });
  });

  it('refuses bad input with the field: id over 5 or not alphanumeric, no company, name over 50', async () => {
    const fields = async (body: unknown) => (await (await call(storegroupAction, postJson('/on-reco/v1/storegroup/edit', body, tokens.admin))).json()).fields;
    expect(await fields({ storegroup_id: 'ABCDEF', company_id: 'C001', storegroup_name: 'x' })).toEqual({ storegroup_id: '5文字以内で入力してください' });
    expect(await fields({ storegroup_id: 'A-1', company_id: '', storegroup_name: 'あ'.repeat(51) })).toEqual({ storegroup_id: '半角英数を入力してください', company_id: '選択してください', storegroup_name: '50文字以内で入力してください' });
  });

  it('refuses to delete a store group with stores (409), deletes an unused one', async () => {
    const before = await snapshot();
    const response = await call(storegroupAction, del('/on-reco/v1/storegroup/edit?storegroup_id=G01', tokens.admin));
    expect(response.status).toBe(409);
    expect(await response.json()).toMatchObject({ reason: 'storegroup_has_stores', error_description: 'この店舗グループには店舗が登録されています。' });
    expect(await snapshot()).toEqual(before);
    await db.insertInto('storegroups').values({ storegroup_id: 'G09', company_id: 'C001', storegroup_name: '空' }).execute();
    expect((await call(storegroupAction, del('/on-reco/v1/storegroup/edit?storegroup_id=G09', tokens.admin))).status).toBe(200);
    expect(await audits('storegroup.delete')).toHaveLength(1);
  });
});
