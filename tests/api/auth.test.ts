import { beforeEach, describe, expect, it } from 'vitest';
import { hashToken } from '~/models/access-tokens.server';
import { action as tokenAction } from '~/routes/on-reco+/token';
import { loader as usersLoader } from '~/routes/on-reco+/v1.users';
import { loader as unknownLoader } from '~/routes/on-reco+/v1.$';
import { action as logoutAction } from '~/routes/_auth+/logout';
import { action as loginAction, loader as loginLoader } from '~/routes/_auth+/login';
import { loader as layoutLoader } from '~/routes/_app+/_layout';
import { TEST_PASSWORD, createUser } from '../fixtures/chain';
import { resetDb, testDb } from '../support/db';
import { call, get, postForm, tokenFor } from '../support/requests';

const db = testDb();
beforeEach(() => resetDb());

describe('POST /on-reco/token', () => {
  it('answers the auth info of the specification for a right password', async () => {
    const userId = await createUser(db, 'admin', 1);
    const response = await call(tokenAction, postForm('/on-reco/token', { grant_type: 'password', username: 'admin', password: TEST_PASSWORD }));
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(Object.keys(body).sort()).toEqual(['.expires', '.issued', 'access_token', 'authority', 'expires_in', 'token_type', 'user_id'].sort());
    expect(body).toMatchObject({ token_type: 'bearer', expires_in: 12 * 3600, user_id: userId, authority: 1 });
    expect(new Date(body['.expires']).getTime() - new Date(body['.issued']).getTime()).toBe(12 * 3600_000);
    // At least 128 bits of randomness, and only a hash is stored.
    expect(Buffer.from(body.access_token, 'base64url').length).toBeGreaterThanOrEqual(16);
    const stored = await db.selectFrom('access_tokens').selectAll().execute();
    expect(stored).toHaveLength(1);
    expect(stored[0].token_hash.equals(hashToken(body.access_token))).toBe(true);
    expect(stored[0].token_hash.toString()).not.toContain(body.access_token);
  });

  it('takes the most privileged authority among the user groups', async () => {
    const userId = await createUser(db, 'mixed', 30);
    const group = await db.insertInto('usergroups').values({ usergroup_name: 'maint', usergroup_authority: 10 }).returning('usergroup_id').executeTakeFirstOrThrow();
    await db.insertInto('user_usergroups').values({ user_id: userId, usergroup_id: group.usergroup_id }).execute();
    const response = await call(tokenAction, postForm('/on-reco/token', { grant_type: 'password', username: 'mixed', password: TEST_PASSWORD }));
    expect((await response.json()).authority).toBe(10);
  });

  it('answers 400 {error, error_description} for a wrong password, an unknown user and an inactive user', async () => {
    await createUser(db, 'admin', 1);
    await createUser(db, 'retired', 1, { validFlg: 0 });
    for (const [username, password] of [['admin', 'wrong_password_x'], ['nobody', TEST_PASSWORD], ['retired', TEST_PASSWORD]]) {
      const response = await call(tokenAction, postForm('/on-reco/token', { grant_type: 'password', username, password }));
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ error: 'invalid_grant', error_description: 'The user name or password is incorrect.' });
    }
    expect(await db.selectFrom('access_tokens').selectAll().execute()).toHaveLength(0);
  });

  it('rejects another grant type and missing fields with the field named', async () => {
    let response = await call(tokenAction, postForm('/on-reco/token', { grant_type: 'client_credentials', username: 'a', password: 'b' }));
    expect(response.status).toBe(400);
    expect((await response.json()).error).toBe('unsupported_grant_type');
    response = await call(tokenAction, postForm('/on-reco/token', { grant_type: 'password', username: 'a' }));
    expect(response.status).toBe(400);
    expect((await response.json()).fields).toHaveProperty('password');
  });
});

describe('bearer tokens on /on-reco/v1', () => {
  it('answers 401 JSON without a token, with a bad one and with an expired one', async () => {
    const userId = await createUser(db, 'admin', 1);
    const token = await tokenFor('admin', TEST_PASSWORD);
    for (const request of [get(`/on-reco/v1/users?user_id=${userId}`), get(`/on-reco/v1/users?user_id=${userId}`, 'not-a-token')]) {
      const response = await call(usersLoader, request);
      expect(response.status).toBe(401);
      expect((await response.json()).error).toBe('invalid_token');
    }
    await db.updateTable('access_tokens').set({ expires_at: new Date(Date.now() - 1000) }).execute();
    const expired = await call(usersLoader, get(`/on-reco/v1/users?user_id=${userId}`, token));
    expect(expired.status).toBe(401);
    expect((await expired.json()).error_description).toMatch(/expired/);
  });

  it('answers 401 then 404 JSON for an unknown v1 path', async () => {
    await createUser(db, 'admin', 1);
    expect((await call(unknownLoader, get('/on-reco/v1/nothing'))).status).toBe(401);
    const token = await tokenFor('admin', TEST_PASSWORD);
    const response = await call(unknownLoader, get('/on-reco/v1/nothing', token));
    expect(response.status).toBe(404);
    expect((await response.json()).error).toBe('not_found');
  });
});

describe('GET /v1/users', () => {
  it('returns the user fields of the specification to the user themself', async () => {
    const userId = await createUser(db, 'store1', 101, { mail: 'store1@example.com' });
    const token = await tokenFor('store1', TEST_PASSWORD);
    const response = await call(usersLoader, get(`/on-reco/v1/users?user_id=${userId}`, token));
    expect(await response.json()).toEqual({ user_id: userId, login_id: 'store1', user_name: 'store1 さん', mailaddress1: 'store1@example.com' });
  });

  it('refuses another user to non-administrators, allows administrators, and checks the parameter', async () => {
    const other = await createUser(db, 'other', 101);
    await createUser(db, 'store1', 101);
    await createUser(db, 'admin', 1);
    const storeToken = await tokenFor('store1', TEST_PASSWORD);
    expect((await call(usersLoader, get(`/on-reco/v1/users?user_id=${other}`, storeToken))).status).toBe(403);
    const adminToken = await tokenFor('admin', TEST_PASSWORD);
    expect((await call(usersLoader, get(`/on-reco/v1/users?user_id=${other}`, adminToken))).status).toBe(200);
    expect((await call(usersLoader, get('/on-reco/v1/users?user_id=99999', adminToken))).status).toBe(404);
    const bad = await call(usersLoader, get('/on-reco/v1/users?user_id=abc', adminToken));
    expect(bad.status).toBe(400);
    expect((await bad.json()).fields).toHaveProperty('user_id');
  });
});

describe('console session', () => {
  it('logs in with a httpOnly SameSite=Lax cookie, opens the layout, and logout revokes the token', async () => {
    await createUser(db, 'admin', 1);
    const login = await call(loginAction, postForm('/login', { username: 'admin', password: TEST_PASSWORD }));
    expect(login.status).toBe(302);
    expect(login.headers.get('Location')).toBe('/dashboard');
    const setCookie = login.headers.get('Set-Cookie')!;
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    const cookie = setCookie.split(';')[0];
    const layout = await call(layoutLoader, get('/dashboard', undefined, { Cookie: cookie }));
    expect(layout.status).toBe(200);
    expect((await layout.json()).permissions.systemMenu).toBe(true);

    const logout = await call(logoutAction, new Request('http://localhost/logout', { method: 'POST', headers: { Cookie: cookie } }));
    expect(logout.headers.get('Location')).toBe('/login');
    const [token] = await db.selectFrom('access_tokens').select('revoked_at').execute();
    expect(token.revoked_at).not.toBeNull();
    const after = await call(layoutLoader, get('/dashboard', undefined, { Cookie: cookie }));
    expect(after.status).toBe(302);
    expect(after.headers.get('Location')).toBe('/login');
  });

  it('sends a signed-out visitor to /login and an expired session to the expiry notice', async () => {
    const anonymous = await call(layoutLoader, get('/dashboard'));
    expect(anonymous.headers.get('Location')).toBe('/login');
    await createUser(db, 'admin', 1);
    const login = await call(loginAction, postForm('/login', { username: 'admin', password: TEST_PASSWORD }));
    const cookie = login.headers.get('Set-Cookie')!.split(';')[0];
    await db.updateTable('access_tokens').set({ expires_at: new Date(Date.now() - 1000) }).execute();
    const expired = await call(layoutLoader, get('/dashboard', undefined, { Cookie: cookie }));
    expect(expired.headers.get('Location')).toBe('/login?expired=1');
  });

  it('brings a signed-out reader of a mail link back to that page after sign-in, and only to a page of this console', async () => {
    const page = '/stores/S1/temp_graphs?equipment_id=3&start_date=20261128';
    const anonymous = await call(layoutLoader, get(page));
    const location = anonymous.headers.get('Location')!;
    expect(location).toBe(`/login?redirectTo=${encodeURIComponent(page)}`);
    await createUser(db, 'admin', 1);
    const login = await call(loginAction, postForm(location, { username: 'admin', password: TEST_PASSWORD }));
    expect(login.status).toBe(302);
    expect(login.headers.get('Location')).toBe(page);
    // Already signed in: the login page itself forwards to the page asked for.
    const cookie = login.headers.get('Set-Cookie')!.split(';')[0];
    const again = await call(loginLoader, get(location, undefined, { Cookie: cookie }));
    expect(again.headers.get('Location')).toBe(page);
    for (const elsewhere of ['https://evil.example/x', '//evil.example/x', '/\\evil.example', 'javascript:alert(1)']) {
      const response = await call(loginAction, postForm(`/login?redirectTo=${encodeURIComponent(elsewhere)}`, { username: 'admin', password: TEST_PASSWORD }));
      expect(response.headers.get('Location'), elsewhere).toBe('/dashboard');
    }
  });

  it('keeps the page to come back to when the session expired', async () => {
    await createUser(db, 'admin', 1);
    const login = await call(loginAction, postForm('/login', { username: 'admin', password: TEST_PASSWORD }));
    const cookie = login.headers.get('Set-Cookie')!.split(';')[0];
    await db.updateTable('access_tokens').set({ expires_at: new Date(Date.now() - 1000) }).execute();
    const expired = await call(layoutLoader, get('/stores/S1/warning_histories', undefined, { Cookie: cookie }));
    expect(expired.headers.get('Location')).toBe(`/login?expired=1&redirectTo=${encodeURIComponent('/stores/S1/warning_histories')}`);
  });

  it('shows the server error text for a wrong password', async () => {
    await createUser(db, 'admin', 1);
    const response = await call(loginAction, postForm('/login', { username: 'admin', password: 'nope' }));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: 'The user name or password is incorrect.' });
  });
});
