import { sql } from 'kysely';
import { beforeEach, describe, expect, it } from 'vitest';
import { action as loginAction } from '~/routes/_auth+/login';
import { action as tokenAction } from '~/routes/on-reco+/token';
import { TEST_PASSWORD, createUser } from '../fixtures/chain';
import { resetDb, testDb } from '../support/db';
import { postForm } from '../support/requests';

// Sign-in throttling (docs/decisions/090-sign-in-limits.md), through POST /on-reco/token and the
// console's login form, with the client address the web server hands the routes.

const db = testDb();
beforeEach(() => resetDb());

async function signIn(username: string, password: string, address: string): Promise<Response> {
  const request = postForm('/on-reco/token', { grant_type: 'password', username, password });
  return (await tokenAction({ request, params: {}, context: { clientAddress: address } })) as Response;
}

async function failTimes(count: number, username: string, address: (i: number) => string) {
  for (let i = 0; i < count; i += 1) expect((await signIn(username, 'wrong-password', address(i))).status).toBe(400);
}

describe('sign-in throttling', () => {
  it('stops an account and address pair after 10 failures, even with the right password, with Retry-After', async () => {
    await createUser(db, 'alice', 30);
    await failTimes(10, 'alice', () => '203.0.113.5');
    const refused = await signIn('alice', TEST_PASSWORD, '203.0.113.5');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('Retry-After'))).toBeGreaterThan(800);
    expect((await refused.json()).error).toBe('too_many_attempts');
  });

  it('lets the owner in from an address they signed in from while an attacker exhausts the account', async () => {
    await createUser(db, 'alice', 30);
    expect((await signIn('alice', TEST_PASSWORD, '198.51.100.7')).status).toBe(200); // the store's network
    await failTimes(10, 'alice', (i) => `203.0.113.${i}`); // many addresses, under each pair's limit
    expect((await signIn('alice', TEST_PASSWORD, '203.0.113.99')).status).toBe(429); // a new address waits
    expect((await signIn('alice', TEST_PASSWORD, '198.51.100.7')).status).toBe(200); // the owner does not
  });

  it('counts failures per address across accounts', async () => {
    for (let i = 0; i < 50; i += 1) expect((await signIn(`nobody${i}`, 'x', '192.0.2.1')).status).toBe(400);
    expect((await signIn('nobody-else', 'x', '192.0.2.1')).status).toBe(429);
    expect((await signIn('nobody-else', 'x', '192.0.2.2')).status).toBe(400);
  });

  it('accepts a correct password from an address the account signed in from while that address is limited for everyone else (issue 30 item 5)', async () => {
    await createUser(db, 'erin', 30);
    await createUser(db, 'frank', 30);
    expect((await signIn('erin', TEST_PASSWORD, '198.51.100.20')).status).toBe(200); // the office NAT, last week
    for (let i = 0; i < 50; i += 1) expect((await signIn(`typo${i}`, 'x', '198.51.100.20')).status).toBe(400);
    expect((await signIn('erin', TEST_PASSWORD, '198.51.100.20')).status).toBe(200); // her known device
    expect((await signIn('frank', TEST_PASSWORD, '198.51.100.20')).status).toBe(429); // never signed in from here
    // A wrong password on the known pair is refused like any other and counts: the pair's limit still holds.
    const wrong = await signIn('erin', 'wrong-password', '198.51.100.20');
    expect(wrong.status).toBe(429);
    for (let i = 0; i < 9; i += 1) expect((await signIn('erin', 'wrong-password', '198.51.100.20')).status).toBe(429);
    expect((await signIn('erin', TEST_PASSWORD, '198.51.100.20')).status).toBe(429);
  });

  it('forgets failures when the window ends, and a success clears its pair', async () => {
    await createUser(db, 'bob', 30);
    await failTimes(9, 'bob', () => '192.0.2.9');
    expect((await signIn('bob', TEST_PASSWORD, '192.0.2.9')).status).toBe(200);
    await failTimes(10, 'bob', () => '192.0.2.9');
    expect((await signIn('bob', TEST_PASSWORD, '192.0.2.9')).status).toBe(429);
    await sql`update request_limits set expire = ${Date.now() - 1}`.execute(db);
    expect((await signIn('bob', TEST_PASSWORD, '192.0.2.9')).status).toBe(200);
  });

  it('answers unknown, disabled and known ids alike', async () => {
    await createUser(db, 'carol', 30);
    await createUser(db, 'dave', 30, { validFlg: 0 });
    const bodies = await Promise.all(
      [['carol', 'wrong'], ['dave', TEST_PASSWORD], ['nobody', TEST_PASSWORD]].map(async ([user, password]) => {
        const response = await signIn(user, password, '192.0.2.50');
        return { status: response.status, body: await response.json() };
      }),
    );
    expect(new Set(bodies.map((answer) => JSON.stringify(answer))).size).toBe(1);
  });

  it('shows the console form the wait, in English as the login screen is', async () => {
    await createUser(db, 'erin', 30);
    const form = () => postForm('/login', { username: 'erin', password: 'wrong-password' });
    for (let i = 0; i < 10; i += 1) await loginAction({ request: form(), params: {}, context: { clientAddress: '192.0.2.77' } });
    const response = (await loginAction({ request: form(), params: {}, context: { clientAddress: '192.0.2.77' } })) as Response;
    expect(response.status).toBe(429);
    expect((await response.json()).error).toMatch(/^Too many failed sign-ins\. Try again in 1[45] minutes\.$/);
  });
});
