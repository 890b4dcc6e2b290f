import { type Kysely, sql } from 'kysely';

// Escalation until acknowledged (issue 28, docs/decisions/236-escalation.md). A policy belongs to
// a store group or, as its override, to one store, and lists the alert codes it covers and its
// ordered steps (delay, who, channels) as JSON. alert_escalations records each step fired for an
// alert in the transaction that queues its messages, so a killed worker neither skips nor repeats
// a step. The alert history row gains its acknowledgement with the corrective action taken.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table escalation_policies (
      policy_id integer generated always as identity primary key,
      policy_name varchar(100) not null,
      storegroup_id varchar(5) references storegroups on delete cascade,
      store_id varchar(20) references stores on delete cascade,
      alert_codes varchar(10)[] not null,
      steps jsonb not null,
      updated_at timestamptz not null default now(),
      check ((storegroup_id is null) <> (store_id is null))
    )`.execute(db);
  await sql`create index escalation_policies_scope on escalation_policies (storegroup_id, store_id)`.execute(db);
  await sql`
    create table alert_escalations (
      store_id varchar(20) not null references stores on delete cascade,
      alert_history_id bigint not null,
      step_no integer not null,
      fired_at timestamptz not null,
      user_ids integer[] not null,
      primary key (store_id, alert_history_id, step_no)
    )`.execute(db);
  await sql`alter table alert_history add column acknowledged_at timestamptz, add column acknowledged_by integer references users on delete set null, add column corrective_action varchar(100), add column acknowledge_note varchar(200)`.execute(db);
  await sql`
    create table corrective_actions (
      action_id integer generated always as identity primary key,
      equipmentkind_id smallint references equipment_kinds on delete cascade,
      label varchar(100) not null,
      sort_no integer not null default 0
    )`.execute(db);
  // The chain's starting list (HACCP 改善措置), editable; null kind: offered for every furniture.
  await sql`
    insert into corrective_actions (equipmentkind_id, label, sort_no) values
      (null, '扉の閉め忘れを直した', 1),
      (null, '商品を別の冷機器へ移した', 2),
      (null, '温度の高い商品を廃棄した', 3),
      (null, '設定温度を確認・修正した', 4),
      (null, '保守業者へ連絡した', 5)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table corrective_actions`.execute(db);
  await sql`alter table alert_history drop column acknowledged_at, drop column acknowledged_by, drop column corrective_action, drop column acknowledge_note`.execute(db);
  await sql`drop table alert_escalations`.execute(db);
  await sql`drop table escalation_policies`.execute(db);
}
