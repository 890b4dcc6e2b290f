import { type Kysely, sql } from 'kysely';

// On Citus (docs/decisions/186) a distributed table's unique keys must hold store_id: the unique
// index on sensors.equipment_id alone would be refused. equipment_id comes from the table's
// identity (generated always), so it stays unique without the index; the API's lookups of a
// sensor by equipment_id alone keep a plain index to find it.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create index sensors_equipment on sensors (equipment_id);
    drop index sensors_equipment_id;
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    create unique index sensors_equipment_id on sensors (equipment_id);
    drop index sensors_equipment;
  `.execute(db);
}
