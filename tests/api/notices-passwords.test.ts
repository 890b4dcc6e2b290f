import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { action as noticeAction, loader as noticeLoader } from '~/routes/on-reco+/v1.notice';
import { action as passcodeAction } from '~/routes/on-reco+/v1.user.passcode';
import { PasscodeThrottled, issueTemporaryPassword } from '~/services/passwords.server';
import { action as passAction } from '~/routes/on-reco+/v1.user.pass';
import { action as tokenAction } from '~/routes/on-reco+/token';
import { TEST_PASSWORD, countRows, createUser } from '../fixtures/chain';
import { resetDb, testDb } from '../support/db';
import { call, get, postForm, postJson, tokenFor } from '../support/requests';
import { startSmtpServer } from '../support/smtp';

const db = testDb();
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
beforeAll(async () => {
  smtp = await startSmtpServer();
  process.env.SMTP_URL = smtp.url; // read once by getEnv(), before any mail is sent in this file
});
afterAll(async () => {
  // The API files share one process: later files must not send to this closed server.
  delete process.env.SMTP_URL;
  await smtp.close();
});
beforeEach(async () => {
  await resetDb();
  smtp.received.length = 0;
});

describe('notices', () => {
  it('lets administrators post, lists newest first with the limit, and formats the time', async () => {
    await createUser(db, 'admin', 1);
    const token = await tokenFor('admin', TEST_PASSWORD);
    for (const title of ['一件目', '二件目', '三件目']) {
      const response = await call(noticeAction, postJson('/on-reco/v1/notice', { title, content: `${title}の本文` }, token));
      expect(response.status).toBe(201);
    }
    const list = await (await call(noticeLoader, get('/on-reco/v1/notice?limit=2', token))).json();
    expect(list.map((notice: { title: string }) => notice.title)).toEqual(['三件目', '二件目']);
    expect(list[0].created_datetime).toMatch(/^\d{14}$/);
  });

  it('enforces the title and body limits with the specification messages, and changes nothing', async () => {
    await createUser(db, 'admin', 1);
    const token = await tokenFor('admin', TEST_PASSWORD);
    const response = await call(noticeAction, postJson('/on-reco/v1/notice', { title: 'あ'.repeat(31), content: 'い'.repeat(101) }, token));
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.fields).toEqual({ title: 'タイトルは30文字以内で入力してください', content: '本文は100文字以内で入力してください' });
    expect(await countRows(db, 'notices')).toBe(0);
    const ok = await call(noticeAction, postJson('/on-reco/v1/notice', { title: 'あ'.repeat(30), content: 'い'.repeat(100) }, token));
    expect(ok.status).toBe(201);
  });

  it('refuses notice creation to everyone but administrators', async () => {
    for (const [login, authority] of [['maint', 10], ['case', 20], ['area', 30], ['store', 101]] as const) {
      await createUser(db, login, authority);
      const token = await tokenFor(login, TEST_PASSWORD);
      expect((await call(noticeAction, postJson('/on-reco/v1/notice', { title: 't', content: 'c' }, token))).status).toBe(403);
      expect((await call(noticeLoader, get('/on-reco/v1/notice?limit=10', token))).status).toBe(200);
    }
    expect(await countRows(db, 'notices')).toBe(0);
  });

  it('checks the limit parameter', async () => {
    await createUser(db, 'admin', 1);
    const token = await tokenFor('admin', TEST_PASSWORD);
    const response = await call(noticeLoader, get('/on-reco/v1/notice?limit=ten', token));
    expect(response.status).toBe(400);
    expect((await response.json()).fields).toHaveProperty('limit');
  });
});

describe('POST /v1/user/passcode', () => {
  it('mails a temporary password that signs in beside the own password', async () => {
    await createUser(db, 'store1', 101, { mail: 'store1@example.com' });
    const response = await call(passcodeAction, postJson('/on-reco/v1/user/passcode', { login_id: 'store1@example.com' }));
    expect(response.status).toBe(200);
    const [mail] = await smtp.waitFor(1);
    expect(mail.to).toEqual(['store1@example.com']);
    expect(mail.subject).toBe('【On-Reco】仮パスワードの発行');
    const temporary = /仮パスワード: (\S+)/.exec(mail.text)![1];
    // The hash is stored when the mail was accepted (the transaction commits a moment after it).
    const signIn = (password: string) => call(tokenAction, postForm('/on-reco/token', { grant_type: 'password', username: 'store1', password })).then((login) => login.status);
    await expect.poll(() => signIn(temporary)).toBe(200);
    expect(await signIn(TEST_PASSWORD)).toBe(200);
  });

  it('writes the mail in English for US users', async () => {
    await createUser(db, 'us1', 101, { language: 'US' });
    await call(passcodeAction, postJson('/on-reco/v1/user/passcode', { login_id: 'us1' }));
    const [mail] = await smtp.waitFor(1);
    expect(mail.subject).toBe('[On-Reco] Temporary password');
  });

  it('answers an unknown account as a known one, and sends nothing', async () => {
    await createUser(db, 'store1', 101);
    const known = await call(passcodeAction, postJson('/on-reco/v1/user/passcode', { login_id: 'store1' }));
    const unknown = await call(passcodeAction, postJson('/on-reco/v1/user/passcode', { login_id: 'nobody@example.com' }));
    expect([unknown.status, await unknown.json()]).toEqual([known.status, await known.json()]);
    await smtp.waitFor(1);
    // An unknown id's delivery is settled with the answer: there is no mail still to come.
    expect(await (await issueTemporaryPassword(db, 'nobody@example.com', { address: '192.0.2.9' })).delivery).toBe(false);
    expect(smtp.received.map((mail) => mail.to)).toEqual([['store1@example.com']]);
  });

  it('stores no temporary password when the SMTP server refuses the mail', async () => {
    await createUser(db, 'store1', 101);
    await smtp.close();
    const { delivery } = await issueTemporaryPassword(db, 'store1', { address: '192.0.2.1' });
    expect(await delivery).toBe(false);
    const user = await db.selectFrom('users').select('temporary_password_hash').executeTakeFirstOrThrow();
    expect(user.temporary_password_hash).toBeNull();
    smtp = await startSmtpServer(Number(new URL(smtp.url).port));
  });

  it('mails an account at most 3 times an hour, and answers an address at most 10 times', async () => {
    await createUser(db, 'store1', 101);
    const ask = (address: string) => issueTemporaryPassword(db, 'store1', { address }).then(({ delivery }) => delivery);
    const delivered = [];
    for (const address of ['192.0.2.1', '192.0.2.2', '192.0.2.3', '192.0.2.4']) delivered.push(await ask(address));
    expect(delivered).toEqual([true, true, true, false]);
    for (let i = 0; i < 9; i += 1) await ask('192.0.2.1'); // the 10th request of this address
    await expect(ask('192.0.2.1')).rejects.toThrow(PasscodeThrottled);
    const answer = await passcodeAction({ request: postJson('/on-reco/v1/user/passcode', { login_id: 'store1' }), params: {}, context: { clientAddress: '192.0.2.1' } });
    expect((answer as Response).status).toBe(429);
    expect((answer as Response).headers.get('Retry-After')).toMatch(/^\d+$/);
  });
});

describe('POST /v1/user/pass', () => {
  it('applies the rules and messages of 001 §5 and §8', async () => {
    await createUser(db, 'store1', 101);
    const token = await tokenFor('store1', TEST_PASSWORD);
    const attempt = (old_pass: string, new_pass: string, new_pass_verification = new_pass) =>
      call(passAction, postJson('/on-reco/v1/user/pass', { login_id: 'store1', old_pass, new_pass, new_pass_verification }, token));
    let response = await attempt(TEST_PASSWORD, 'short_pw');
    expect((await response.json()).fields).toEqual({ new_pass: '12 文字以上の半角英数字を使用してください' });
    response = await attempt(TEST_PASSWORD, 'has-a-hyphen-123');
    expect((await response.json()).fields.new_pass).toBe('12 文字以上の半角英数字を使用してください');
    response = await attempt(TEST_PASSWORD, 'a_good_password_1', 'a_good_password_2');
    expect((await response.json()).fields).toEqual({ new_pass: '新しいパスワードと一致しません' });
    response = await attempt('wrong_current_pw', 'a_good_password_1');
    expect(response.status).toBe(400);
    expect((await response.json()).fields).toEqual({ old_pass: 'パスワードが正しくありません' });
    response = await attempt(TEST_PASSWORD, 'a_good_password_1');
    expect(response.status).toBe(200);
    // The change ends the old token; the new password signs in.
    expect((await attempt('a_good_password_1', 'another_password_9')).status).toBe(401);
    await tokenFor('store1', 'a_good_password_1');
  });
});

describe('audit rows of password events (issue 30 item 6)', () => {
  const auditRows = () => db.selectFrom('audit_log').select(['action', 'user_id', 'target_id', 'details']).orderBy('audit_id').execute();

  it('records a temporary-password issue (the account, the address asked from) and an own password change, never the password', async () => {
    const userId = await createUser(db, 'store1', 101, { mail: 'store1@example.com' });
    expect((await call(passcodeAction, postJson('/on-reco/v1/user/passcode', { login_id: 'store1' }))).status).toBe(200);
    await smtp.waitFor(1);
    await expect.poll(async () => (await auditRows()).map((row) => row.action)).toEqual(['user.temporary_password']);
    const token = await tokenFor('store1', TEST_PASSWORD);
    const changed = await call(passAction, postJson('/on-reco/v1/user/pass', { login_id: 'store1', old_pass: TEST_PASSWORD, new_pass: 'a_good_password_1', new_pass_verification: 'a_good_password_1' }, token));
    expect(changed.status).toBe(200);
    const rows = await auditRows();
    expect(rows.map((row) => [row.action, row.user_id, row.target_id])).toEqual([
      ['user.temporary_password', null, String(userId)],
      ['user.password_change', userId, String(userId)],
    ]);
    expect(JSON.stringify(rows)).not.toMatch(/a_good_password_1|仮パスワード/);
  });
});
