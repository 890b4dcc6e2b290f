import { gzipSync } from 'node:zlib';
import { beforeEach, describe, expect, it } from 'vitest';
import { toCompactDateTime } from '~/domain/japan-time';
import { GatewayListQuerySchema } from '~/domain/gateway-health';
import { gatewayHealthPurgeJob } from '~/jobs/gateway-health-purge.server';
import { listGateways } from '~/models/gateway-health.server';
import type { Viewer } from '~/models/users.server';
import { action as healthAction } from '~/routes/on-reco+/v1.gateway.health';
import { action as pairAction } from '~/routes/on-reco+/v1.gateway.pair';
import { action as readingsAction } from '~/routes/on-reco+/v1.gateway.readings';
import { createSensor, createStore, createUser, issuePin } from '../fixtures/chain';
import { resetDb, testDb } from '../support/db';
import { BASE, call, postJson } from '../support/requests';

const db = testDb();
beforeEach(() => resetDb());

async function pairedStore(storeId: string) {
  await createStore(db, storeId, { working_state: 0 });
  const pin = await issuePin(db, storeId);
  const response = await call(pairAction, postJson('/on-reco/v1/gateway/pair', { gateway_info: `GW-${storeId}`, pin_code: pin }));
  expect(response.status).toBe(200);
  return (await response.json()).gateway_token as string;
}

const report = (extra: object = {}) => ({
  reported_at: toCompactDateTime(new Date()), version: '0.2.0', uptime_seconds: 7200, buffer_depth: 12, buffer_capacity: 1000,
  oldest_unsent_at: toCompactDateTime(new Date(Date.now() - 120_000)), disk_free_bytes: 8_000_000_000, disk_total_bytes: 16_000_000_000,
  ble_adapter: 'on', sensors_heard: 18, lte_rssi: -82, dropped_total: 0, ...extra,
});

const postHealth = (token: string, body: unknown) =>
  new Request(`${BASE}/on-reco/v1/gateway/health`, { method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

const latest = (storeId: string) => db.selectFrom('gateway_health').selectAll().where('store_id', '=', storeId).executeTakeFirst();
const history = (storeId: string) => db.selectFrom('alert_history').select(['alert_id', 'alert_data1', 'equipment_id', 'recovered_at']).where('store_id', '=', storeId).orderBy('alert_history_id').execute();

describe('POST /on-reco/v1/gateway/health', () => {
  it('stores the latest report, its history and the store\'s LTE signal', async () => {
    const token = await pairedStore('H001');
    const response = await call(healthAction, postHealth(token, report()));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ stored: true });
    expect(await latest('H001')).toMatchObject({ version: '0.2.0', buffer_depth: 12, buffer_capacity: 1000, lte_rssi: -82, ble_adapter: 'on', sensors_heard: 18, buffer_alarm: false });
    await call(healthAction, postHealth(token, report({ lte_rssi: null, buffer_depth: 30 })));
    expect(await db.selectFrom('gateway_health_history').select('buffer_depth').where('store_id', '=', 'H001').orderBy('received_at').execute()).toEqual([{ buffer_depth: 12 }, { buffer_depth: 30 }]);
    // 000 §3 receive_sensitivity of the store: null when the modem does not say (never made up).
    expect((await db.selectFrom('stores').select('receive_sensitivity').where('store_id', '=', 'H001').executeTakeFirstOrThrow()).receive_sensitivity).toBeNull();
  });

  it('writes only the store of the token: another store\'s token cannot write this store\'s health', async () => {
    const tokenA = await pairedStore('H001');
    await pairedStore('H002');
    await call(healthAction, postHealth(tokenA, report({ version: 'from-A' })));
    expect(await latest('H002')).toBeUndefined();
    expect((await latest('H001'))?.version).toBe('from-A');
    // A store_id in the body changes nothing: the token names the store.
    const sneaky = await call(healthAction, postHealth(tokenA, { ...report({ version: 'sneaky' }), store_id: 'H002' }));
    expect(sneaky.status).toBe(200);
    expect(await latest('H002')).toBeUndefined();
    expect((await call(healthAction, postHealth('not-a-token', report()))).status).toBe(401);
  });

  it('refuses missing and absurd fields with the field and the reason, and changes nothing', async () => {
    const token = await pairedStore('H001');
    const cases: [object, string, RegExp][] = [
      [report({ buffer_depth: -1 }), 'buffer_depth', /negative/],
      [report({ version: 'x'.repeat(65) }), 'version', /64/],
      [report({ buffer_depth: 2000 }), 'buffer_depth', /exceed/],
      [report({ lte_rssi: 40 }), 'lte_rssi', /-150 to 0/],
      [report({ ble_adapter: 'melted' }), 'ble_adapter', /./],
      [{ ...report(), version: undefined }, 'version', /./],
    ];
    for (const [body, field, reason] of cases) {
      const response = await call(healthAction, postHealth(token, body));
      expect(response.status, field).toBe(400);
      const answer = await response.json();
      expect(answer.fields?.[field], JSON.stringify(answer)).toMatch(reason);
    }
    expect(await latest('H001')).toBeUndefined();
    // A 1 MB version string: refused, naming the field.
    const huge = await call(healthAction, postHealth(token, report({ version: 'v'.repeat(1024 * 1024) })));
    expect(huge.status).toBe(400);
    expect((await huge.json()).fields.version).toMatch(/64/);
    expect((await call(healthAction, postHealth(token, report({ version: 'a\u0000b' })))).status).toBe(400);
    expect(await latest('H001')).toBeUndefined();
  });

  it('raises OE00000006 past 80 % with a mail, recovers under 70 %, and OE00000007 with how many readings were lost', async () => {
    const token = await pairedStore('H001');
    await createUser(db, 'health-mgr', 30, { storeIds: ['H001'], mail: 'health@example.com' });
    const send = async (extra: object) => expect((await call(healthAction, postHealth(token, report(extra)))).status).toBe(200);
    await send({ buffer_depth: 790 });
    expect(await history('H001')).toEqual([]);
    await send({ buffer_depth: 810 });
    await send({ buffer_depth: 750 }); // still above 70 %: stays open
    expect(await history('H001')).toEqual([{ alert_id: 'OE00000006', alert_data1: null, equipment_id: null, recovered_at: null }]);
    const mails = await db.selectFrom('mail_outbox').select(['to_address', 'subject', 'body']).where('store_id', '=', 'H001').execute();
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toContain('ゲートウェイのバッファ残量低下');
    await send({ buffer_depth: 1000, dropped_total: 37 });
    const rows = await history('H001');
    expect(rows[1]).toMatchObject({ alert_id: 'OE00000007', alert_data1: '37', recovered_at: null });
    const lostMail = await db.selectFrom('mail_outbox').select('body').where('store_id', '=', 'H001').orderBy('mail_id', 'desc').executeTakeFirstOrThrow();
    expect(lostMail.body).toContain('欠損件数: 37件');
    await send({ buffer_depth: 100, dropped_total: 37 });
    const recovered = await history('H001');
    expect(recovered.every((row) => row.recovered_at !== null)).toBe(true);
    // A nearly full disk raises the same alarm.
    await send({ buffer_depth: 0, dropped_total: 37, disk_free_bytes: 50_000_000 });
    expect((await history('H001')).filter((row) => row.alert_id === 'OE00000006')).toHaveLength(2);
  });

  it('keeps the list\'s filter flags with the latest report: a report that drains the buffer clears "over 50 %"', async () => {
    const token = await pairedStore('H001');
    const send = async (extra: object) => expect((await call(healthAction, postHealth(token, report(extra)))).status).toBe(200);
    const flags = async () => db.selectFrom('gateway_health').select(['buffer_over_half', 'weak_signal']).where('store_id', '=', 'H001').executeTakeFirstOrThrow();
    const admin: Viewer = { userId: 1, loginId: 'admin', userName: '管理者', authority: 1, language: 'JP', mailaddress1: null };
    const listed = async (filters: Record<string, string>) => (await listGateways(db, admin, GatewayListQuerySchema.parse(filters))).gateways.map((g) => g.store_id);
    await send({ buffer_depth: 600, lte_rssi: -88 });
    expect(await flags()).toEqual({ buffer_over_half: true, weak_signal: true });
    expect(await listed({ buffer: '1', weak: '1' })).toEqual(['H001']);
    await send({ buffer_depth: 120, lte_rssi: -88 });
    expect(await flags()).toEqual({ buffer_over_half: false, weak_signal: true });
    expect(await listed({ buffer: '1' })).toEqual([]);
    expect(await listed({ weak: '1' })).toEqual(['H001']);
    // The flag follows the stored (rounded) RSSI, as the icon draws it: −85.4 is stored as −85, two bars.
    await send({ buffer_depth: 120, lte_rssi: -85.4 });
    expect(await flags()).toEqual({ buffer_over_half: false, weak_signal: false });
    await send({ buffer_depth: 120, lte_rssi: null });
    expect(await flags()).toEqual({ buffer_over_half: false, weak_signal: true });
    // A paired gateway that never reported: unknown signal (weak) and never heard from (offline);
    // a gateway-down store is offline whatever its report says.
    await pairedStore('H002');
    await db.updateTable('stores').set({ gateway_down: true }).where('store_id', '=', 'H001').execute();
    expect((await listed({ weak: '1' })).sort()).toEqual(['H001', 'H002']);
    expect((await listed({ offline: '1' })).sort()).toEqual(['H001', 'H002']);
    expect(await listed({ offline: '1', buffer: '1', weak: '1' })).toEqual([]);
  });

  it('takes the report beside a readings batch; a bad one costs nothing but itself', async () => {
    const token = await pairedStore('H001');
    await createSensor(db, 'H001', 'AA:BB:CC:00:00:01');
    const reading = { serial_no: 'AA:BB:CC:00:00:01', measured_at: toCompactDateTime(new Date(Math.floor(Date.now() / 60_000) * 60_000 - 60_000)), temperature: 4.2, error: false, battery: 90, receive_sensitivity: -60 };
    const batch = (health: unknown) =>
      new Request(`${BASE}/on-reco/v1/gateway/readings`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' },
        body: gzipSync(JSON.stringify({ readings: [reading], health })),
      });
    const good = await call(readingsAction, batch(report({ version: 'with-batch' })));
    expect(await good.json()).toEqual({ accepted: 1, duplicates: 0, rejected: [] });
    expect((await latest('H001'))?.version).toBe('with-batch');
    const bad = await call(readingsAction, batch(report({ buffer_depth: -5, version: 'bad' })));
    const answer = await bad.json();
    expect(answer).toMatchObject({ accepted: 0, duplicates: 1 });
    expect(answer.health_error).toMatch(/health\.buffer_depth: buffer_depth cannot be negative/);
    expect((await latest('H001'))?.version).toBe('with-batch');
  });

  it('keeps 30 days of history: the purge job removes older rows, never the latest report', async () => {
    const token = await pairedStore('H001');
    await call(healthAction, postHealth(token, report()));
    await db.insertInto('gateway_health_history').values({ ...(await db.selectFrom('gateway_health_history').selectAll().executeTakeFirstOrThrow()), received_at: new Date(Date.now() - 31 * 86_400_000) }).execute();
    const log = { info: () => undefined } as never;
    await gatewayHealthPurgeJob.run({ db, now: new Date(), log });
    expect(await db.selectFrom('gateway_health_history').select('received_at').execute()).toHaveLength(1);
    expect(await latest('H001')).toBeDefined();
  });
});
