import { type Kysely, sql } from 'kysely';

// Counters of failed sign-ins, passcode mails and pairing attempts, shared by every web process
// (the table layout is rate-limiter-flexible's RateLimiterPostgres), and the addresses each
// account signed in from, which an attacker's failures do not lock out. The pairing attempts'
// own table goes: its count per gateway let anyone who knew a gateway_info lock it out.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table request_limits (
      key varchar(255) primary key,
      points integer not null default 0,
      expire bigint
    );
    create table known_sign_in_addresses (
      user_id integer not null references users on delete cascade,
      address_hash varchar(64) not null,
      last_signed_in_at timestamptz not null,
      primary key (user_id, address_hash)
    );
    drop table gateway_pair_attempts;
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    drop table known_sign_in_addresses;
    drop table request_limits;
    create table gateway_pair_attempts (
      gateway_info varchar(255) not null,
      attempted_at timestamptz not null default now(),
      client varchar(64)
    );
    create index gateway_pair_attempts_recent on gateway_pair_attempts (gateway_info, attempted_at);
  `.execute(db);
}
