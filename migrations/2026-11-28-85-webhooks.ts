import { type Kysely, sql } from 'kysely';

// Webhook endpoints as a channel of escalation steps, and their own durable outbox (issue 28
// part 3, docs/decisions/285-webhooks.md). A delivery is queued in the transaction that fires a
// step (or records a recovery) with its body already rendered, so every retry sends the same bytes
// under the same idempotency key. Ids are sequences owned by their column (decision 225); one
// statement per step.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table webhook_endpoints (
      endpoint_id serial primary key,
      endpoint_name varchar(100) not null,
      url varchar(500) not null,
      format varchar(10) not null,
      secret varchar(100) not null,
      created_at timestamptz not null default now(),
      created_by integer references users on delete set null
    )`.execute(db);
  await sql`
    create table webhook_deliveries (
      delivery_id bigserial primary key,
      endpoint_id integer not null references webhook_endpoints on delete cascade,
      store_id varchar(20) not null,
      alert_history_id bigint not null,
      event varchar(20) not null,
      step_no integer,
      idempotency_key uuid not null unique,
      body text not null,
      state varchar(10) not null default 'pending',
      attempts integer not null default 0,
      next_attempt_at timestamptz not null default now(),
      last_status integer,
      last_error varchar(500),
      delivered_at timestamptz,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index webhook_deliveries_due on webhook_deliveries (next_attempt_at) where state = 'pending'`.execute(db);
  await sql`create index webhook_deliveries_alert on webhook_deliveries (store_id, alert_history_id)`.execute(db);
  await sql`create index webhook_deliveries_dead on webhook_deliveries (delivery_id) where state = 'dead'`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table webhook_deliveries`.execute(db);
  await sql`drop table webhook_endpoints`.execute(db);
}
