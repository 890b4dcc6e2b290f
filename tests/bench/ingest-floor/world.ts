import type { createDb } from '../../../app/db/db.server';
import { toCompactDateTime } from '../../../app/domain/japan-time';
import { bleAddress } from '../../fixtures/chain';

// The ingest benches' chain: stores B0… with SENSORS sensors each (serials CC:…), a PIN to pair
// each store's gateway, and the readings a gateway sends for a span of minutes.

export const SENSORS = 20;

export async function seedStores(db: ReturnType<typeof createDb>, stores: number) {
  await db.insertInto('companies').values({ company_id: 'B1', company_name: 'ベンチ' }).execute();
  await db.insertInto('storegroups').values({ storegroup_id: 'B1', company_id: 'B1', storegroup_name: 'ベンチ' }).execute();
  for (let i = 0; i < stores; i += 1) {
    const storeId = `B${i}`;
    await db.insertInto('stores').values({ store_id: storeId, store_no: String(90000 + i), store_name: `ベンチ店${i}`, company_id: 'B1', storegroup_id: 'B1', prefecture_id: 13, address: '東京都', opening_date: '2024-01-01', working_state: 1, gateway_info: `GW-B${i}` }).execute();
    await db.insertInto('gateway_pins').values({ store_id: storeId, pin_code: '123456', effective_time: new Date(Date.now() + 3600_000) }).execute();
    await db.insertInto('sensors').values(Array.from({ length: SENSORS }, (_, s) => ({
      store_id: storeId, equipment_name: `センサ${s}`, serial_no: bleAddress('CC', s), icon_kind: 3, lower_limit: 0, upper_limit: 10, guard_time: 10, snoozing_time: 60, def_time: '[]',
    }))).execute();
  }
}

/** `minutes` minutes of every sensor from `fromMs`; sensor 0 of every store has an excursion every few hours, so alerts open and recover. */
export function batch(store: number, fromMs: number, minutes: number) {
  const readings = [];
  for (let m = 0; m < minutes; m += 1) {
    const at = fromMs + m * 60_000;
    for (let s = 0; s < SENSORS; s += 1) {
      const excursion = s === 0 && Math.floor(at / 3600_000) % 5 === 0;
      readings.push({ serial_no: bleAddress('CC', s), measured_at: toCompactDateTime(new Date(at)), temperature: Math.round((excursion ? 13 : 4 + Math.sin(at / 600_000 + store + s)) * 10) / 10, error: false, battery: 90, receive_sensitivity: -70 });
    }
  }
  return { readings };
}
