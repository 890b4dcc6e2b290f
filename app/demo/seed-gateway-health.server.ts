import { sql } from 'kysely';
import type { Db } from '~/db/db.server';
import { refreshGatewayListFlags } from '~/models/gateway-health.server';

// Demo data for the gateway health screens (issue 16): a health report for every demo store with
// a gateway, some history, and a few that stand out in the ゲートウェイ一覧 (a filling buffer, a weak
// or unknown LTE signal, an old version). Deterministic from the store number; the live simulator
// does not send health, so these stay as the last reports until a real gateway reports.
export async function seedGatewayHealth(db: Db, now: Date): Promise<void> {
  await sql`
    with s as (
      select store_id, row_number() over (order by store_no) as n, last_gateway_contact_at as contact
      from stores where gateway_info is not null
    )
    insert into gateway_health (store_id, reported_at, received_at, version, uptime_seconds, buffer_depth, buffer_capacity, oldest_unsent_at,
                                disk_free_bytes, disk_total_bytes, ble_adapter, sensors_heard, lte_rssi, dropped_total, buffer_alarm,
                                buffer_over_half, weak_signal)
    select store_id, coalesce(contact, ${now}), coalesce(contact, ${now}), case when n % 5 = 0 then '0.1.9' else '0.2.0' end,
           86400 * (3 + n % 20) + n * 611, case when n = 3 then 1720000 when n % 7 = 2 then 1100000 + n * 1000 else n % 40 end, 2000000,
           coalesce(contact, ${now}) - case when n = 3 then interval '29 hours' when n % 7 = 2 then interval '18 hours' else interval '1 minute' end,
           12884901888 - n * 104857600, 31138512896, 'on', 20 - n % 3,
           case when n % 6 = 4 then null when n % 5 = 1 then -87 - n % 3 else -62 - (n * 3) % 20 end, 0, n = 3,
           false, false -- the list flags: set from the rule below
    from s
    on conflict (store_id) do nothing
  `.execute(db);
  await sql`
    insert into gateway_health_history
    select h.store_id, h.received_at - k * interval '1 hour', h.reported_at - k * interval '1 hour', h.version, greatest(h.uptime_seconds - k * 3600, 0),
           h.buffer_depth, h.buffer_capacity, h.oldest_unsent_at, h.disk_free_bytes, h.disk_total_bytes, h.ble_adapter, h.sensors_heard, h.lte_rssi, h.dropped_total
    from gateway_health h, generate_series(1, 72) k
    on conflict do nothing
  `.execute(db);
  await refreshGatewayListFlags(db);
  await sql`update stores set receive_sensitivity = h.lte_rssi from gateway_health h where h.store_id = stores.store_id`.execute(db);
}
