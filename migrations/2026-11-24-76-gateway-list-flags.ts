import { type Kysely, sql } from 'kysely';

// The ゲートウェイ一覧's filters as indexed facts (docs/decisions/165): the latest report carries
// "buffer over 50 %" and "weak signal", written with it (domain gatewayListFlags), each with a
// partial index, and stores get one on the offline candidates (the gateway-down flag, or never a
// batch), so every filter and every combination of them starts from an index and not from a
// walk over all stores. The backfill is the rule as of this migration (frozen, as migrations are:
// fill over half of the capacity; RSSI below −85 dBm or unknown).
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    alter table gateway_health add column buffer_over_half boolean, add column weak_signal boolean;
    update gateway_health set buffer_over_half = buffer_capacity > 0 and buffer_depth > buffer_capacity * 0.5,
                              weak_signal = lte_rssi is null or lte_rssi < -85;
    alter table gateway_health alter column buffer_over_half set not null, alter column weak_signal set not null;
    create index gateway_health_buffer_over_half on gateway_health (store_id) where buffer_over_half;
    create index gateway_health_weak_signal on gateway_health (store_id) where weak_signal;
    create index stores_gateway_offline on stores (store_id) where gateway_down or last_gateway_contact_at is null;
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    drop index if exists stores_gateway_offline;
    alter table gateway_health drop column buffer_over_half, drop column weak_signal;
  `.execute(db);
}
