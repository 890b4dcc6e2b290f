import { type Kysely, sql } from 'kysely';

// The value that opened a temperature alert as the engine checked it: the simulated (damped)
// product temperature, beside the raw reading in `temperature` (issue 30 item 7, decision 278).
// Tenths, like the limits it was checked against. Null for other alerts and for rows written before it.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table alert_history add column simulated_temperature numeric(5, 1)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table alert_history drop column simulated_temperature`.execute(db);
}
