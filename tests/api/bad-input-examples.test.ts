import { beforeAll, describe, expect, it } from 'vitest';
import { callById } from '~/domain/api';
import { buildSweepWorld, changedTables, handlerOf, type SweepWorld, tableChecksums } from '../support/bad-input';
import { resetDb, testDb } from '../support/db';
import { BASE, call } from '../support/requests';
import { toShiftJis } from '../support/shift-jis';

// The 500s the bad-input sweep found (issue 10), one fixed example each: what was sent, and the
// refusal it gets now. Each answered 500 before (or, for the content types, went through).

const db = testDb();
let world: SweepWorld;
beforeAll(async () => {
  await resetDb();
  world = await buildSweepWorld(db);
});

type Sent = { query?: string; type?: string; body?: string; token?: 'admin' | 'gateway' | 'none' };

async function send(callId: string, sent: Sent): Promise<{ status: number; body: Record<string, unknown> }> {
  const declared = callById(callId)!;
  const token = sent.token === 'none' ? undefined : sent.token === 'gateway' ? world.gatewayToken : world.adminToken;
  const headers: Record<string, string> = token ? { Authorization: `Bearer ${token}` } : {};
  if (sent.type) headers['Content-Type'] = sent.type;
  const init: RequestInit = { method: declared.method, headers };
  if (sent.body !== undefined) init.body = new TextEncoder().encode(sent.body);
  const response = await call((await handlerOf(declared)) as never, new Request(`${BASE}${declared.path}${sent.query ? `?${sent.query}` : ''}`, init));
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const json = (value: unknown) => ({ type: 'application/json', body: JSON.stringify(value) });

describe('the bad inputs that were 500s', () => {
  const cases: [string, string, () => Sent, number, string, string?][] = [
    // Bodies of a type the call does not read: 415 before reading, not undici's TypeError.
    ['a text/plain body', 'createNotice', () => ({ type: 'text/plain', body: '{"title":"a","content":"b"}' }), 415, 'unsupported_media_type'],
    ['an XML body', 'pairGateway', () => ({ type: 'application/xml', body: '<pair/>' }), 415, 'unsupported_media_type'],
    ['a body without a content type', 'reissueStorePin', () => ({ body: `{"store_id":"${world.storeId}"}` }), 415, 'unsupported_media_type'],
    ['JSON under another JSON type (was read as JSON)', 'reissueStorePin', () => ({ type: 'application/json-patch+json', body: `{"store_id":"${world.storeId}"}` }), 415, 'unsupported_media_type'],
    ['multipart without a boundary', 'createNotice', () => ({ type: 'multipart/form-data', body: 'title=a' }), 400, 'invalid_request', '_'],
    ['a truncated multipart body', 'requestPasscode', () => ({ type: 'multipart/form-data; boundary=x', body: '--x\r\nContent-Disposition: form-data; name="login_id"\r\n\r\n', token: 'none' }), 400, 'invalid_request', '_'],
    ['a gateway batch as a form (was stored)', 'postReadings', () => ({ type: 'application/x-www-form-urlencoded', body: '{"readings":[]}', token: 'gateway' }), 415, 'unsupported_media_type'],
    ['a gateway batch without a content type (was stored)', 'postReadings', () => ({ body: '{"readings":[]}', token: 'gateway' }), 415, 'unsupported_media_type'],
    // Text PostgreSQL cannot store (dbText): NUL, and halves of surrogate pairs.
    ['NUL in a JSON text field', 'createNotice', () => json({ title: 'a\u0000b', content: 'c' }), 400, 'invalid_request', 'title'],
    ['NUL in a form text field', 'requestPasscode', () => ({ type: 'application/x-www-form-urlencoded', body: 'login_id=a%00b', token: 'none' }), 400, 'invalid_request', 'login_id'],
    ['NUL in the sign-in user name', 'issueToken', () => ({ type: 'application/x-www-form-urlencoded', body: 'grant_type=password&username=a%00&password=x', token: 'none' }), 400, 'invalid_request', 'username'],
    ['NUL in a gateway_info to pair', 'pairGateway', () => ({ ...json({ gateway_info: 'GW\u0000', pin_code: '123456' }), token: 'none' }), 400, 'invalid_request', 'gateway_info'],
    ['NUL in a query', 'getStore', () => ({ query: 'store_id=S0%0001' }), 400, 'invalid_request', 'store_id'],
    ['NUL in a store list filter', 'listStores', () => ({ query: 'store_name=%00' }), 400, 'invalid_request', 'store_name'],
    ['a lone surrogate in a stop comment (a jsonb audit row)', 'stopAlert', () => ({ type: 'application/json', body: `{"equipment_id":${world.equipmentId},"alert_id":"${world.alertId}","comment":"\\ud800"}` }), 400, 'invalid_request', 'comment'],
    ['a lone surrogate in a notice (was stored as U+FFFD)', 'createNotice', () => ({ type: 'application/json', body: '{"title":"\\udc00","content":"c"}' }), 400, 'invalid_request', 'title'],
    // Numbers past their column (smallint region and prefecture ids, integer ids, the page offset).
    ['a region id past smallint', 'listPrefectures', () => ({ query: 'region_id=32768' }), 400, 'invalid_request', 'region_id'],
    ['a prefecture id past smallint', 'listStores', () => ({ query: 'prefecture_id=40000' }), 400, 'invalid_request', 'prefecture_id'],
    ['a user id past integer', 'getUser', () => ({ query: 'user_id=2147483648' }), 400, 'invalid_request', 'user_id'],
    ['a page past any offset', 'listStores', () => ({ query: 'page_no=1e20' }), 400, 'invalid_request', 'page_no'],
    // An object whose toString is not a function: Number() throws in z.coerce.number.
    ['an object as a coerced number', 'stopAlert', () => json({ equipment_id: { toString: 'x' }, alert_id: world.alertId }), 400, 'invalid_request', 'equipment_id'],
    ['an object as a store\'s user group', 'saveStore', () => json({ store_id: 'S9', usergroup: [{ valueOf: 1, toString: 2 }] }), 400, 'invalid_request', 'usergroup.0'],
  ];

  it.each(cases)('%s (%s)', async (_name, callId, sent, status, error, field) => {
    const before = await tableChecksums(db);
    const answer = await send(callId, sent());
    expect(answer.status, JSON.stringify(answer.body)).toBe(status);
    expect(answer.body).toMatchObject({ error, error_description: expect.any(String) });
    if (field) expect(Object.keys(answer.body.fields as object)).toContain(field);
    expect(changedTables(before, await tableChecksums(db))).toEqual([]);
  });
});

describe('issue 30\'s bad inputs, answered as they are refused now', () => {
  it('a JSON body in Shift_JIS (CP932) is refused naming the encoding, never stored as U+FFFD', async () => {
    const before = await tableChecksums(db);
    const body = toShiftJis(JSON.stringify({ title: '点検のお知らせ', content: '明日10時に点検します' }));
    const response = await call((await handlerOf(callById('createNotice')!)) as never, new Request(`${BASE}/on-reco/v1/notice`, { method: 'POST', headers: { Authorization: `Bearer ${world.adminToken}`, 'Content-Type': 'application/json' }, body: body as BodyInit }));
    expect(response.status).toBe(400);
    expect((await response.json()).fields).toEqual({ _: 'the body is Shift_JIS (CP932) text, not UTF-8: send JSON in UTF-8' });
    expect(changedTables(before, await tableChecksums(db))).toEqual([]);
  });

  it.each([['a line break', '新宿店\r\nBcc: probe@evil.example'], ['a tab', '新宿店\t'], ['an escape', '\u001b[31m新宿店'], ['C1\'s NEL', '新宿店\u0085']])('a sensor name with %s is refused at its field', async (_name, equipmentName) => {
    const answer = await send('saveEquipment', json({ store_id: world.storeId, serial_no: 'AA:BB:5E:00:09:01', equipment_name: equipmentName, icon_kind: 3 }));
    expect(answer.status, JSON.stringify(answer.body)).toBe(400);
    expect(answer.body.fields).toMatchObject({ equipment_name: '改行や制御文字は使用できません' });
  });
});
