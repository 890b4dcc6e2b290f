import { type Kysely, sql } from 'kysely';

// The user master's scoped list (issue 13 figures, docs/decisions/135-list-figures.md): a case or
// area manager sees the members of their groups, read as user_usergroups by usergroup_id. With
// user_id in the index those members come from the index alone (an index-only scan) instead of one
// heap page per member.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index user_usergroups_members on user_usergroups (usergroup_id, user_id)`.execute(db);
  await sql`drop index user_usergroups_group`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`create index user_usergroups_group on user_usergroups (usergroup_id)`.execute(db);
  await sql`drop index user_usergroups_members`.execute(db);
}
