import { type Kysely, sql } from 'kysely';

// The whole data model of both specifications. Frozen in time: no imports from the app.
// Every table that belongs to a store carries store_id in its primary key so the schema can
// be distributed by store_id later (lookups would become reference tables).

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table regions (
      region_id smallint primary key,
      region_name text not null
    );
    create table prefectures (
      prefecture_id smallint primary key,          -- JIS X 0401 code
      prefecture_name text not null,
      region_id smallint not null references regions
    );
    create table authorities (
      authority smallint primary key,
      authority_name text not null
    );
    create table companies (
      company_id varchar(10) primary key,
      company_name varchar(20) not null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create table storegroups (
      storegroup_id varchar(5) primary key,
      company_id varchar(10) not null references companies on update cascade,
      storegroup_name varchar(50) not null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index storegroups_company on storegroups (company_id);
    create table usergroups (
      usergroup_id integer generated always as identity primary key,
      usergroup_name varchar(50) not null,
      usergroup_authority smallint not null references authorities,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create table users (
      user_id integer generated always as identity primary key,
      login_id varchar(255) not null unique,
      user_name varchar(50) not null,
      company_id varchar(10) references companies on update cascade on delete set null,
      tel_no varchar(15),
      mailaddress1 varchar(255),
      mailaddress2 varchar(255),
      mailaddress3 varchar(255),
      language char(2) not null default 'JP' check (language in ('JP', 'US')),
      valid_flg smallint not null default 1 check (valid_flg in (0, 1)),
      notice_flg smallint not null default 1 check (notice_flg in (0, 1)),
      alert_filter smallint not null default 1 check (alert_filter in (0, 1, 2)),
      password_hash text,
      password_changed_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create unique index users_mailaddress1 on users (lower(mailaddress1));
    create table user_usergroups (
      user_id integer not null references users on delete cascade,
      usergroup_id integer not null references usergroups on delete cascade,
      primary key (user_id, usergroup_id)
    );
    create index user_usergroups_group on user_usergroups (usergroup_id);

    create table access_tokens (
      token_hash bytea primary key,                -- sha-256 of the bearer token
      user_id integer not null references users on delete cascade,
      issued_at timestamptz not null default now(),
      expires_at timestamptz not null,
      revoked_at timestamptz
    );
    create index access_tokens_user on access_tokens (user_id);

    create table diagrams (
      diagram_id integer generated always as identity primary key,
      store_id varchar(20),                        -- null: a chain-wide template
      diagram_name varchar(255) not null,
      content_type text not null,
      byte_size integer not null,
      content bytea not null,
      created_by integer references users on delete set null,
      created_at timestamptz not null default now()
    );
    create index diagrams_store on diagrams (store_id);

    create table stores (
      store_id varchar(20) primary key,
      store_no varchar(20) not null unique,
      store_name varchar(255) not null unique,
      company_id varchar(10) not null references companies on update cascade,
      storegroup_id varchar(5) not null references storegroups on update cascade,
      prefecture_id smallint not null references prefectures,
      address varchar(255) not null,
      tel_no varchar(15),
      opening_date date not null,
      closing_date date,
      gateway_info varchar(255) unique,
      working_state smallint check (working_state in (0, 1, 2)),
      store_status smallint not null default 0 check (store_status in (0, 1, 2, 3)),
      diagram_id integer references diagrams on delete set null,
      receive_sensitivity smallint,                -- LTE RSSI of the gateway
      last_gateway_contact_at timestamptz,
      gateway_down boolean not null default false,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index stores_company on stores (company_id);
    create index stores_storegroup on stores (storegroup_id);
    create index stores_prefecture on stores (prefecture_id);
    create index stores_status on stores (store_status);
    create index stores_store_no on stores (store_no);
    alter table diagrams add foreign key (store_id) references stores on update cascade on delete cascade;

    create table store_usergroups (
      store_id varchar(20) not null references stores on update cascade on delete cascade,
      usergroup_id integer not null references usergroups on delete cascade,
      primary key (store_id, usergroup_id)
    );
    create index store_usergroups_group on store_usergroups (usergroup_id, store_id);

    -- The store's current gateway PIN (one at a time; reissue replaces it).
    create table gateway_pins (
      store_id varchar(20) primary key references stores on update cascade on delete cascade,
      pin_code varchar(12) not null,
      effective_time timestamptz not null,         -- valid until
      issued_at timestamptz not null default now()
    );
    -- Gateway tokens: one live token per store; pairing again, exchange and removal revoke it.
    create table gateway_tokens (
      store_id varchar(20) not null references stores on update cascade on delete cascade,
      token_hash bytea not null,
      gateway_info varchar(255) not null,
      issued_at timestamptz not null default now(),
      revoked_at timestamptz,
      primary key (store_id, token_hash)
    );
    create unique index gateway_tokens_hash on gateway_tokens (token_hash);

    create table equipment_kinds (
      equipmentkind_id smallint primary key,
      equipmentkind_name text not null
    );
    create table sensor_models (
      model_id smallint primary key,
      model_name text not null,
      equipmentkind_id smallint not null references equipment_kinds
    );
    create table measure_target_equipment_kinds (
      measure_target_equipment_kind_id smallint primary key,
      measure_target_equipment_kind_name text not null
    );

    create table sensors (
      store_id varchar(20) not null references stores on update cascade on delete cascade,
      equipment_id integer generated always as identity,
      equipment_name varchar(30) not null,
      serial_no varchar(17) not null,              -- BLE address AA:BB:CC:DD:EE:FF
      model_id smallint references sensor_models,
      icon_kind smallint not null check (icon_kind between 1 and 22),
      location_no smallint,
      lower_limit numeric(4, 1) check (lower_limit >= -30),
      upper_limit numeric(4, 1) check (upper_limit <= 60),
      guard_time smallint check (guard_time between 1 and 360),
      snoozing_time smallint check (snoozing_time between 1 and 1440),
      time_constant smallint check (time_constant between 1 and 200),
      def_time jsonb not null default '[]',        -- [{start: "HH:mm", end: "HH:mm"}], sorted, no overlaps
      disp_flg smallint not null default 1 check (disp_flg in (0, 1)),
      comment_required smallint not null default 0 check (comment_required in (0, 1)),
      installation_datetime date,
      removal_datetime date,
      measure_target_equipment_kind_id smallint references measure_target_equipment_kinds,
      measure_target_name varchar(50),             -- the furniture's name
      measure_target_serial_no varchar(50),        -- the furniture's serial number
      position_x integer not null default 0,       -- 0,0: not placed on the diagram
      position_y integer not null default 0,
      encryption_key varchar(32),                  -- per-sensor BLE bind key (hex), sent to the gateway
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      primary key (store_id, equipment_id),
      check ((lower_limit is null) = (upper_limit is null)),
      check (lower_limit is null or lower_limit <= upper_limit)
    );
    create unique index sensors_equipment_id on sensors (equipment_id);
    create unique index sensors_store_serial on sensors (store_id, serial_no);

    -- Readings, range-partitioned by month; partitions are created ahead by the worker.
    create table measurements (
      store_id varchar(20) not null,
      equipment_id integer not null,
      measured_at timestamptz not null,
      temperature real,                            -- °C, one decimal; null when error
      error boolean not null default false,
      battery smallint,
      receive_sensitivity smallint,
      received_at timestamptz not null default now(),
      primary key (store_id, equipment_id, measured_at)
    ) partition by range (measured_at);
    create table measurements_default partition of measurements default;

    create table measurement_comments (
      store_id varchar(20) not null,
      equipment_id integer not null,
      measured_at timestamptz not null,
      comment varchar(200) not null,
      user_id integer references users on delete set null,
      created_at timestamptz not null default now(),
      primary key (store_id, equipment_id, measured_at),
      foreign key (store_id, equipment_id) references sensors on update cascade on delete cascade
    );

    -- Each sensor's latest reading and alert-engine state, so the dashboard is one indexed query.
    create table sensor_states (
      store_id varchar(20) not null,
      equipment_id integer not null,
      last_measured_at timestamptz,
      last_temperature real,
      last_error boolean not null default false,
      last_battery smallint,
      last_receive_sensitivity smallint,
      status smallint not null default 0 check (status in (0, 1, 2)),
      alert_codes varchar(10)[] not null default '{}',   -- open alerts, for the dashboard's messages
      engine_state jsonb not null default '{}',
      updated_at timestamptz not null default now(),
      primary key (store_id, equipment_id),
      foreign key (store_id, equipment_id) references sensors on update cascade on delete cascade
    );
    create index sensor_states_alerting on sensor_states (store_id) where status > 0;

    create table alert_history (
      store_id varchar(20) not null references stores on update cascade on delete cascade,
      alert_history_id bigint generated always as identity,
      equipment_id integer,                        -- null for a store-level alert (gateway down)
      alert_id varchar(10) not null,               -- OE00000001 …
      alert_data1 varchar(20),                     -- temperature text or ERROR
      temperature real,
      lower_limit numeric(4, 1),
      upper_limit numeric(4, 1),
      started_at timestamptz not null,
      recovered_at timestamptz,
      stopped_at timestamptz,
      stopped_by integer references users on delete set null,
      stop_comment varchar(200),
      last_notified_at timestamptz,
      primary key (store_id, alert_history_id)
    );
    create index alert_history_equipment on alert_history (equipment_id, started_at desc);
    create index alert_history_store_started on alert_history (store_id, started_at desc);
    create index alert_history_active on alert_history (store_id, equipment_id, alert_id) where recovered_at is null;

    create table alert_schedules (
      store_id varchar(20) not null references stores on update cascade on delete cascade,
      schedule_id integer generated always as identity,
      schedule_type smallint not null check (schedule_type in (1, 2)),
      term_type smallint not null check (term_type in (1, 2, 3)),
      start_date date not null,
      end_date date,
      sun_flg smallint not null default 0,
      mon_flg smallint not null default 0,
      tue_flg smallint not null default 0,
      wed_flg smallint not null default 0,
      thu_flg smallint not null default 0,
      fri_flg smallint not null default 0,
      sat_flg smallint not null default 0,
      time_target_type smallint not null check (time_target_type in (1, 2)),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      primary key (store_id, schedule_id)
    );
    create table alert_schedule_times (
      store_id varchar(20) not null,
      schedule_id integer not null,
      equipment_id integer,                        -- null: the store-wide ranges
      start_minute smallint not null check (start_minute between 0 and 1410),
      end_minute smallint not null check (end_minute between 30 and 1440),
      check (start_minute < end_minute),
      foreign key (store_id, schedule_id) references alert_schedules on update cascade on delete cascade
    );
    create index alert_schedule_times_schedule on alert_schedule_times (store_id, schedule_id);

    create table notices (
      notice_id integer generated always as identity primary key,
      title varchar(30) not null,
      content varchar(100) not null,
      created_by integer references users on delete set null,
      created_at timestamptz not null default now()
    );
    create index notices_created on notices (created_at desc);

    create table regular_reports (
      store_id varchar(20) not null references stores on update cascade on delete cascade,
      setting_no integer generated always as identity,
      setting_name varchar(50) not null,
      file_name varchar(100) not null,
      report_type smallint not null check (report_type between 1 and 4),
      regular_report smallint not null check (regular_report in (0, 1)),
      data_interval smallint,
      manual_data_interval text[] not null default '{}',
      start_time timestamptz not null,
      end_time timestamptz not null,
      output_format smallint not null check (output_format in (1, 2)),
      mail_flg smallint not null default 0,
      option1 smallint not null default 0,
      option2 smallint not null default 0,
      option3 smallint not null default 0,
      option4 smallint not null default 0,
      option5 smallint not null default 0,
      equipment_ids integer[] not null,
      mail_addresses text[] not null default '{}',
      attachment_flg smallint not null default 0,
      created_by integer references users on delete set null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      primary key (store_id, setting_no)
    );
    create table report_history (
      store_id varchar(20) not null references stores on update cascade on delete cascade,
      history_no integer generated always as identity,
      setting_no integer,
      file_name varchar(255) not null,
      report_type smallint not null,
      start_time timestamptz not null,
      end_time timestamptz not null,
      output_format smallint not null,
      content_type text,
      content bytea,
      created_by integer references users on delete set null,
      create_datetime timestamptz not null default now(),
      primary key (store_id, history_no)
    );
    create index report_history_created on report_history (store_id, create_datetime desc);

    -- Mail is written here in the transaction that caused it and sent by the worker.
    create table mail_outbox (
      mail_id bigint generated always as identity primary key,
      to_address varchar(255) not null,
      subject text not null,
      body text not null,
      store_id varchar(20),
      created_at timestamptz not null default now(),
      send_after timestamptz not null default now(),
      attempts integer not null default 0,
      last_error text,
      sent_at timestamptz
    );
    create index mail_outbox_pending on mail_outbox (send_after) where sent_at is null;

    create table audit_log (
      audit_id bigint generated always as identity primary key,
      at timestamptz not null default now(),
      user_id integer references users on delete set null,
      action text not null,
      target_type text not null,
      target_id text,
      store_id varchar(20),
      details jsonb not null default '{}'
    );
    create index audit_log_at on audit_log (at desc);
  `.execute(db);
  await seedReferenceData(db);
}

async function seedReferenceData(db: Kysely<any>): Promise<void> {
  await db.insertInto('regions').values(REGIONS.map(([region_id, region_name]) => ({ region_id, region_name }))).execute();
  await db
    .insertInto('prefectures')
    .values(PREFECTURES.map(([prefecture_id, prefecture_name, region_id]) => ({ prefecture_id, prefecture_name, region_id })))
    .execute();
  await db
    .insertInto('authorities')
    .values(AUTHORITIES.map(([authority, authority_name]) => ({ authority, authority_name })))
    .execute();
  await db.insertInto('equipment_kinds').values([{ equipmentkind_id: 1, equipmentkind_name: '温度センサ' }, { equipmentkind_id: 2, equipmentkind_name: '温湿度センサ' }]).execute();
  await db
    .insertInto('sensor_models')
    .values([
      { model_id: 1, model_name: 'OR-T1 (BTHome)', equipmentkind_id: 1 },
      { model_id: 2, model_name: 'RuuviTag', equipmentkind_id: 2 },
      { model_id: 3, model_name: 'LYWSD03MMC (pvvx)', equipmentkind_id: 2 },
      { model_id: 4, model_name: 'Govee H5075', equipmentkind_id: 2 },
      { model_id: 5, model_name: 'Inkbird IBS-TH2', equipmentkind_id: 1 },
      { model_id: 6, model_name: 'SwitchBot Meter', equipmentkind_id: 2 },
    ])
    .execute();
  await db
    .insertInto('measure_target_equipment_kinds')
    .values(FURNITURE_KINDS.map((name, i) => ({ measure_target_equipment_kind_id: i + 1, measure_target_equipment_kind_name: name })))
    .execute();
}

const REGIONS: [number, string][] = [
  [1, '北海道'], [2, '東北'], [3, '関東'], [4, '中部'], [5, '近畿'], [6, '中国'], [7, '四国'], [8, '九州・沖縄'],
];

const PREFECTURES: [number, string, number][] = [
  [1, '北海道', 1], [2, '青森県', 2], [3, '岩手県', 2], [4, '宮城県', 2], [5, '秋田県', 2], [6, '山形県', 2],
  [7, '福島県', 2], [8, '茨城県', 3], [9, '栃木県', 3], [10, '群馬県', 3], [11, '埼玉県', 3], [12, '千葉県', 3],
  [13, '東京都', 3], [14, '神奈川県', 3], [15, '新潟県', 4], [16, '富山県', 4], [17, '石川県', 4], [18, '福井県', 4],
  [19, '山梨県', 4], [20, '長野県', 4], [21, '岐阜県', 4], [22, '静岡県', 4], [23, '愛知県', 4], [24, '三重県', 5],
  [25, '滋賀県', 5], [26, '京都府', 5], [27, '大阪府', 5], [28, '兵庫県', 5], [29, '奈良県', 5], [30, '和歌山県', 5],
  [31, '鳥取県', 6], [32, '島根県', 6], [33, '岡山県', 6], [34, '広島県', 6], [35, '山口県', 6], [36, '徳島県', 7],
  [37, '香川県', 7], [38, '愛媛県', 7], [39, '高知県', 7], [40, '福岡県', 8], [41, '佐賀県', 8], [42, '長崎県', 8],
  [43, '熊本県', 8], [44, '大分県', 8], [45, '宮崎県', 8], [46, '鹿児島県', 8], [47, '沖縄県', 8],
];

const AUTHORITIES: [number, string][] = [
  [1, 'システム管理者'], [2, '本部管理者'], [3, '地域本部管理者'], [4, '品質管理者'], [5, '運用管理者'],
  [10, '保守担当'], [20, 'ケースマネージャー'], [30, 'エリアマネージャー'], [101, '店舗ユーザー'],
];

const FURNITURE_KINDS = [
  'リーチイン冷蔵ケース', '多段オープンケース', 'リーチイン冷凍ケース', '平型冷凍ケース', 'アイスストッカー',
  'ウォークイン冷蔵庫', 'ウォークイン冷凍庫', 'ドリンククーラー', 'ホットショーケース', '中華まんスチーマー',
  'バックヤード冷蔵庫', '売場', '屋外',
];

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'audit_log', 'mail_outbox', 'report_history', 'regular_reports', 'notices', 'alert_schedule_times', 'alert_schedules',
    'alert_history', 'sensor_states', 'measurement_comments', 'measurements', 'sensors', 'measure_target_equipment_kinds',
    'sensor_models', 'equipment_kinds', 'gateway_tokens', 'gateway_pins', 'store_usergroups', 'stores', 'diagrams',
    'access_tokens', 'user_usergroups', 'users', 'usergroups', 'storegroups', 'companies', 'authorities', 'prefectures', 'regions',
  ]) {
    await db.schema.dropTable(table).cascade().execute();
  }
}
