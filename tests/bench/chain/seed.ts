import { sql } from 'kysely';
import type { Db } from '../../../app/db/db.server';
import { ensureMeasurementPartitions } from '../../../app/models/measurement-partitions.server';
import { insertMeasurementsWithBuckets } from '../../../app/models/measurement-buckets.server';
import { syncStoreListEntries } from '../../../app/models/stores.server';
import { createUser } from '../../fixtures/chain';

// The chain of the rig, generated in PostgreSQL (generate_series), never through the API:
// stores × sensors with their latest states, users and groups, gateway tokens, and readings.
// A month of minute readings for every store (17 billion rows at 20,000 stores) does not fit a
// 2-core machine, so (docs/decisions/190-chain-rig.md): a month for the `watched` stores the
// simulated users open (the area manager's), and the latest `recentMinutes` for every sensor.

export interface ChainShape {
  stores: number;
  sensorsPerStore: number;
  /** Stores with a month of readings: the area manager's, whose pages the users load. */
  watched: number;
  monthDays: number;
  recentMinutes: number;
}

export interface SeededChain {
  watchedStores: { storeId: string; storeName: string }[];
  /** The store of store number 1 … stores, by index (0-based). */
  storeId: (index: number) => string;
  regionId: number;
  seconds: Record<string, number>;
}

export const CHAIN_PASSWORD_USERS = { admin: 'chain-admin', area: 'chain-area' } as const;
export const AREA_MAIL = 'chain-area@example.com';
const COMPANIES = 4;
const STOREGROUPS = 200;
const MINUTE_MS = 60_000;
const READING_STORES_PER_CHUNK = 500;

/** The gateway token the seed gives a store (only its SHA-256 is stored, as pairing does). */
export const seededGatewayToken = (storeId: string) => `chain-rig-gateway-${storeId}`;
export const storeIdOf = (index: number) => `S${String(index + 1).padStart(5, '0')}`;
export const sensorSerial = (sensor: number) => `AA:BB:CC:DD:00:${sensor.toString(16).padStart(2, '0').toUpperCase()}`;

export async function seedChain(db: Db, shape: ChainShape, now: Date): Promise<SeededChain> {
  const seconds: Record<string, number> = {};
  const timed = async (name: string, step: () => Promise<unknown>) => {
    const t = performance.now();
    await step();
    seconds[name] = Math.round((performance.now() - t) / 100) / 10;
  };
  const monthStart = new Date(now.getTime() - shape.monthDays * 1440 * MINUTE_MS);
  await ensureMeasurementPartitions(db, monthStart, new Date(now.getTime() + 62 * 86400_000));
  await timed('stores_sensors_states', () => seedStores(db, shape, now));
  await timed('users', () => seedUsers(db, shape));
  await timed('month_of_watched_stores', () => seedReadings(db, { firstStore: 0, stores: shape.watched }, monthStart, now));
  await timed('recent_minutes_of_all', () =>
    seedReadings(db, { firstStore: shape.watched, stores: shape.stores - shape.watched }, new Date(now.getTime() - shape.recentMinutes * MINUTE_MS), now),
  );
  await timed('alert_history', () => seedAlertHistory(db, shape, monthStart, now));
  await timed('vacuum_analyze', () => sql`vacuum analyze`.execute(db));
  const watchedStores = await db.selectFrom('stores').select(['store_id as storeId', 'store_name as storeName']).where('store_id', '<=', storeIdOf(shape.watched - 1)).orderBy('store_id').execute();
  const { rows } = await sql<{ region_id: number }>`select region_id from prefectures where prefecture_id = 13`.execute(db);
  return { watchedStores, storeId: storeIdOf, regionId: rows[0].region_id, seconds };
}

/** Stores spread over companies, store groups and prefectures, 2 % in alarm; sensors, their states and gateway tokens. */
async function seedStores(db: Db, shape: ChainShape, now: Date) {
  const statements = [
    sql`insert into companies (company_id, company_name) select 'CC' || c, 'チェーン商事' || c from generate_series(1, ${sql.lit(COMPANIES)}) c`,
    sql`insert into storegroups (storegroup_id, company_id, storegroup_name)
      select 'G' || g, 'CC' || (1 + g % ${sql.lit(COMPANIES)}), 'エリア' || g from generate_series(1, ${sql.lit(STOREGROUPS)}) g`,
    sql`insert into stores (store_id, store_no, store_name, company_id, storegroup_id, prefecture_id, address, opening_date, working_state, store_status, gateway_info, last_gateway_contact_at)
      select 'S' || lpad(i::text, 5, '0'), lpad(i::text, 8, '0'), 'チェーン店 ' || i, 'CC' || (1 + (1 + i % ${sql.lit(STOREGROUPS)}) % ${sql.lit(COMPANIES)}),
             'G' || (1 + i % ${sql.lit(STOREGROUPS)}), 1 + i % 47, '住所', '2024-01-01', 1,
             case when i % 50 = 0 then 3 else 2 end, 'GW-S' || lpad(i::text, 5, '0'), ${now}::timestamptz
      from generate_series(1, ${sql.lit(shape.stores)}) i`,
    sql`insert into sensors (store_id, equipment_name, serial_no, icon_kind, location_no, lower_limit, upper_limit, time_constant)
      select store_id, 'センサ' || s, 'AA:BB:CC:DD:00:' || upper(lpad(to_hex(s), 2, '0')), 1 + s % 22, s, 0, 10, 1
      from stores, generate_series(1, ${sql.lit(shape.sensorsPerStore)}) s
      order by store_id, s`,
    sql`insert into sensor_states (store_id, equipment_id, last_measured_at, last_temperature, last_battery, last_receive_sensitivity)
      select store_id, equipment_id, ${now}::timestamptz, 4.5, 90, -60 from sensors`,
    sql`insert into gateway_tokens (store_id, token_hash, gateway_info)
      select store_id, sha256(convert_to('chain-rig-gateway-' || store_id, 'UTF8')), gateway_info from stores`,
  ];
  for (const statement of statements) await statement.execute(db);
  await syncStoreListEntries(db, 'every store');
}

/** The administrator (no alert mail: it would get every store's) and an area manager over the watched stores, with mail. */
async function seedUsers(db: Db, shape: ChainShape) {
  const adminId = await createUser(db, CHAIN_PASSWORD_USERS.admin, 1);
  await db.updateTable('users').set({ notice_flg: 0 }).where('user_id', '=', adminId).execute();
  const watched = Array.from({ length: shape.watched }, (_, i) => storeIdOf(i));
  await createUser(db, CHAIN_PASSWORD_USERS.area, 30, { storeIds: watched, mail: AREA_MAIL });
}

/**
 * Minute readings of `stores` stores from `firstStore` over [from, to), time-major within a
 * chunk (a day of at most 500 stores) as gateways upload them, on two connections (the machine
 * has 2 cores). The graphs' 10-minute buckets are merged in the same statement, as live ingest keeps them.
 */
async function seedReadings(db: Db, range: { firstStore: number; stores: number }, from: Date, to: Date) {
  const chunks: { start: Date; end: Date; first: string; last: string }[] = [];
  for (let start = from; start < to; ) {
    const end = new Date(Math.min(to.getTime(), start.getTime() + 1440 * MINUTE_MS));
    for (let store = range.firstStore; store < range.firstStore + range.stores; store += READING_STORES_PER_CHUNK) {
      chunks.push({ start, end, first: storeIdOf(store), last: storeIdOf(Math.min(range.firstStore + range.stores, store + READING_STORES_PER_CHUNK) - 1) });
    }
    start = end;
  }
  let next = 0;
  await Promise.all(
    [0, 1].map(async () => {
      while (next < chunks.length) {
        const { start, end, first, last } = chunks[next++];
        await insertMeasurementsWithBuckets(db, sql`
          insert into measurements (store_id, equipment_id, measured_at, temperature, error, battery, receive_sensitivity, received_at)
          select s.store_id, s.equipment_id, t, round((4 + 2 * sin(extract(epoch from t) / 13751 + s.equipment_id))::numeric, 1)::real, false, 90, -60, t + interval '2 seconds'
          from generate_series(${start}::timestamptz, ${end}::timestamptz - interval '1 minute', interval '1 minute') t
          cross join sensors s
          where s.store_id between ${first} and ${last}
          returning store_id, equipment_id, measured_at, temperature, error`);
      }
    }),
  );
}

/** Three recovered upper-limit alerts a day in every watched store, for the alert history page. */
async function seedAlertHistory(db: Db, shape: ChainShape, from: Date, to: Date) {
  await sql`
    insert into alert_history (store_id, equipment_id, alert_id, alert_data1, temperature, lower_limit, upper_limit, started_at, recovered_at)
    select s.store_id, s.equipment_id, 'OE00000001', '12.4', 12.4, 0, 10, t, t + interval '40 minutes'
    from generate_series(${from}::timestamptz, ${to}::timestamptz, interval '8 hours') t
    join sensors s on s.store_id <= ${storeIdOf(shape.watched - 1)} and s.location_no = 1 + (extract(epoch from t)::bigint / 28800) % ${sql.lit(shape.sensorsPerStore)}`.execute(db);
}
