import type { ColumnType, Generated } from 'kysely';

// The typed Database interface. Table interfaces are used only here and in models' queries;
// models map rows to domain objects. pg parsers are set in db.server.ts so that int8,
// numeric and timestamptz arrive as number/number/Date.

type CreatedAt = ColumnType<Date, Date | string | undefined, Date | string>;
type Timestamp = ColumnType<Date, Date | string, Date | string>;
type DateColumn = ColumnType<string, string, string>; // date columns as 'YYYY-MM-DD'
type Identity = ColumnType<number, never, never>;
type Json<T> = ColumnType<T, string | undefined, string>;

export interface RegionTable { region_id: number; region_name: string }
export interface PrefectureTable { prefecture_id: number; prefecture_name: string; region_id: number }
export interface AuthorityTable { authority: number; authority_name: string }

export interface CompanyTable {
  company_id: string;
  company_name: string;
  created_at: CreatedAt;
  updated_at: CreatedAt;
}

export interface StoregroupTable {
  storegroup_id: string;
  company_id: string;
  storegroup_name: string;
  created_at: CreatedAt;
  updated_at: CreatedAt;
}

export interface UsergroupTable {
  usergroup_id: Identity;
  usergroup_name: string;
  usergroup_authority: number;
  created_at: CreatedAt;
  updated_at: CreatedAt;
}

export interface UserTable {
  user_id: Identity;
  login_id: string;
  user_name: string;
  company_id: string | null;
  tel_no: string | null;
  mailaddress1: string | null;
  mailaddress2: string | null;
  mailaddress3: string | null;
  language: Generated<'JP' | 'US'>;
  valid_flg: Generated<number>;
  notice_flg: Generated<number>;
  alert_filter: Generated<number>;
  password_hash: string | null;
  password_changed_at: Timestamp | null;
  temporary_password_hash: string | null;
  temporary_password_expires_at: Timestamp | null;
  created_at: CreatedAt;
  updated_at: CreatedAt;
  /** Set when the user was deleted: the row stays as a tombstone so history keeps the name (migration 2026-11-24-30). */
  deleted_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** Quiet hours, minutes of the day in Japan time, both or neither (migration 2026-11-29-30, decision 315). */
  quiet_start_minute: Generated<number | null>;
  quiet_end_minute: Generated<number | null>;
}

export interface UserUsergroupTable { user_id: number; usergroup_id: number }

export interface AccessTokenTable {
  token_hash: Buffer;
  user_id: number;
  issued_at: CreatedAt;
  expires_at: Timestamp;
  revoked_at: Timestamp | null;
}

export interface DiagramTable {
  diagram_id: Identity;
  store_id: string | null;
  diagram_name: string;
  content_type: string;
  byte_size: number;
  content: Buffer;
  created_by: number | null;
  created_at: CreatedAt;
}

export interface StoreTable {
  store_id: string;
  store_no: string;
  store_name: string;
  company_id: string;
  storegroup_id: string;
  prefecture_id: number;
  address: string;
  tel_no: string | null;
  opening_date: DateColumn;
  closing_date: DateColumn | null;
  gateway_info: string | null;
  working_state: number | null;
  store_status: Generated<number>;
  diagram_id: number | null;
  receive_sensitivity: number | null;
  last_gateway_contact_at: Timestamp | null;
  gateway_down: Generated<boolean>;
  /** last_gateway_contact_at is not null, generated (migration 2026-11-24-95): read-only here. */
  gateway_contacted: ColumnType<boolean, never, never>;
  created_at: CreatedAt;
  updated_at: CreatedAt;
}

/** The dashboard's list keys, kept from stores by trigger (migration 2026-11-24-80): read-only here. */
export interface StoreListEntryTable {
  store_id: string;
  store_no: string;
  store_name: string;
  store_name_folded: string;
  store_status: number;
  in_alarm: boolean;
  prefecture_id: number;
  company_id: string;
  storegroup_id: string;
}

export interface StoreUsergroupTable { store_id: string; usergroup_id: number }

export interface GatewayPinTable {
  store_id: string;
  pin_code: string;
  effective_time: Timestamp;
  issued_at: CreatedAt;
}

export interface GatewayTokenTable {
  store_id: string;
  token_hash: Buffer;
  gateway_info: string;
  issued_at: CreatedAt;
  revoked_at: Timestamp | null;
}

export interface EquipmentKindTable { equipmentkind_id: number; equipmentkind_name: string }
export interface SensorModelTable { model_id: number; model_name: string; equipmentkind_id: number }
export interface MeasureTargetEquipmentKindTable {
  measure_target_equipment_kind_id: number;
  measure_target_equipment_kind_name: string;
}

export interface DefrostRange { start: string; end: string }

export interface SensorTable {
  store_id: string;
  equipment_id: Identity;
  equipment_name: string;
  serial_no: string;
  model_id: number | null;
  icon_kind: number;
  location_no: number | null;
  lower_limit: number | null;
  upper_limit: number | null;
  guard_time: number | null;
  snoozing_time: number | null;
  time_constant: number | null;
  def_time: Json<DefrostRange[]>;
  disp_flg: Generated<number>;
  comment_required: Generated<number>;
  installation_datetime: DateColumn | null;
  removal_datetime: DateColumn | null;
  measure_target_equipment_kind_id: number | null;
  measure_target_name: string | null;
  measure_target_serial_no: string | null;
  position_x: Generated<number>;
  position_y: Generated<number>;
  encryption_key: string | null;
  created_at: CreatedAt;
  updated_at: CreatedAt;
}

export interface MeasurementTable {
  store_id: string;
  equipment_id: number;
  measured_at: Timestamp;
  temperature: number | null;
  error: Generated<boolean>;
  battery: number | null;
  receive_sensitivity: number | null;
  received_at: CreatedAt;
}

/** Readings rounded to the nearest 10 minutes, kept by their writers (app/models/measurement-buckets.server.ts, decision 283). */
export interface MeasurementBucketTable {
  store_id: string;
  equipment_id: number;
  bucket: Timestamp;
  temperature_sum: number;
  temperature_count: number;
  gap_count: Generated<number>;
  value_count: Generated<number>;
  value_tenths: Generated<string>;
  value_min: number | null;
  min_at: Timestamp | null;
  value_max: number | null;
  max_at: Timestamp | null;
  mark_at: Timestamp | null;
  mark_temperature: number | null;
  mark_error: boolean | null;
}

export interface MeasurementCommentTable {
  store_id: string;
  equipment_id: number;
  measured_at: Timestamp;
  comment: string;
  user_id: number | null;
  created_at: CreatedAt;
}

export interface SensorStateTable {
  store_id: string;
  equipment_id: number;
  last_measured_at: Timestamp | null;
  last_temperature: number | null;
  last_error: Generated<boolean>;
  last_battery: number | null;
  last_receive_sensitivity: number | null;
  status: Generated<number>;
  alert_codes: ColumnType<string[], string[] | undefined, string[]>;
  engine_state: Json<unknown>;
  updated_at: CreatedAt;
}

export interface AlertHistoryTable {
  store_id: string;
  alert_history_id: ColumnType<number, never, never>;
  equipment_id: number | null;
  alert_id: string;
  alert_data1: string | null;
  temperature: number | null;
  /** The simulated (damped) value a temperature alert was checked with (decision 278). */
  simulated_temperature: Generated<number | null>;
  lower_limit: number | null;
  upper_limit: number | null;
  started_at: Timestamp;
  recovered_at: Timestamp | null;
  stopped_at: Timestamp | null;
  stopped_by: number | null;
  stop_comment: string | null;
  last_notified_at: Timestamp | null;
  acknowledged_at: Generated<Date | null>;
  acknowledged_by: Generated<number | null>;
  corrective_action: Generated<string | null>;
  acknowledge_note: Generated<string | null>;
}

export interface EscalationPolicyTable {
  policy_id: Identity;
  policy_name: string;
  storegroup_id: string | null;
  store_id: string | null;
  alert_codes: string[];
  /** EscalationStep[] (app/domain/escalation.ts), validated on write. */
  steps: ColumnType<unknown, string, string>;
  updated_at: Generated<Date>;
}

export interface AlertEscalationTable {
  store_id: string;
  alert_history_id: number;
  step_no: number;
  fired_at: Timestamp;
  user_ids: number[];
}

export interface WebhookEndpointTable {
  endpoint_id: Identity;
  endpoint_name: string;
  url: string;
  /** WebhookFormat (app/domain/webhooks.ts). */
  format: string;
  /** The HMAC key, kept as is: signing needs it (shown once, when created). */
  secret: string;
  created_at: CreatedAt;
  created_by: number | null;
}

export interface WebhookDeliveryTable {
  delivery_id: ColumnType<number, never, never>;
  endpoint_id: number;
  store_id: string;
  alert_history_id: number;
  /** WebhookEvent (app/domain/webhooks.ts). */
  event: string;
  step_no: number | null;
  idempotency_key: string;
  /** The request body, rendered once when queued: every retry sends the same bytes. */
  body: string;
  /** WebhookDeliveryState (app/domain/webhooks.ts). */
  state: Generated<string>;
  attempts: Generated<number>;
  next_attempt_at: CreatedAt;
  last_status: number | null;
  last_error: string | null;
  delivered_at: Timestamp | null;
  created_at: CreatedAt;
}

export interface CorrectiveActionTable {
  action_id: Identity;
  equipmentkind_id: number | null;
  label: string;
  sort_no: Generated<number>;
}

export interface AlertScheduleTable {
  store_id: string;
  schedule_id: Identity;
  schedule_type: number;
  term_type: number;
  start_date: DateColumn;
  end_date: DateColumn | null;
  sun_flg: number;
  mon_flg: number;
  tue_flg: number;
  wed_flg: number;
  thu_flg: number;
  fri_flg: number;
  sat_flg: number;
  time_target_type: number;
  created_at: CreatedAt;
  updated_at: CreatedAt;
}

export interface AlertScheduleTimeTable {
  store_id: string;
  schedule_id: number;
  equipment_id: number | null;
  start_minute: number;
  end_minute: number;
}

export interface NoticeTable {
  notice_id: Identity;
  title: string;
  content: string;
  created_by: number | null;
  created_at: CreatedAt;
}

export interface RegularReportTable {
  store_id: string;
  setting_no: Identity;
  setting_name: string;
  file_name: string;
  report_type: number;
  regular_report: number;
  data_interval: number | null;
  manual_data_interval: ColumnType<string[], string[] | undefined, string[]>;
  start_time: Timestamp;
  end_time: Timestamp;
  output_format: number;
  mail_flg: Generated<number>;
  option1: Generated<number>;
  option2: Generated<number>;
  option3: Generated<number>;
  option4: Generated<number>;
  option5: Generated<number>;
  equipment_ids: ColumnType<number[], number[], number[]>;
  mail_addresses: ColumnType<string[], string[] | undefined, string[]>;
  attachment_flg: Generated<number>;
  /** 1: the PDF carries the raw values as an appendix (付録). */
  appendix: Generated<number>;
  created_by: number | null;
  created_at: CreatedAt;
  updated_at: CreatedAt;
}

export interface ReportHistoryTable {
  store_id: string;
  history_no: Identity;
  setting_no: number | null;
  file_name: string;
  report_type: number;
  start_time: Timestamp;
  end_time: Timestamp;
  output_format: number;
  content_type: string | null;
  content: Buffer | null;
  created_by: number | null;
  create_datetime: CreatedAt;
  /** The row is the report's job (migration 2026-11-24-40): pending (作成中), done, failed. */
  state: ColumnType<'pending' | 'done' | 'failed', 'pending' | 'done' | 'failed' | undefined, 'pending' | 'done' | 'failed'>;
  request: Json<unknown> | null;
  attempts: Generated<number>;
  last_error: string | null;
  finished_at: Timestamp | null;
}

export interface MailOutboxTable {
  mail_id: ColumnType<number, never, never>;
  to_address: string;
  subject: string;
  body: string;
  store_id: string | null;
  created_at: CreatedAt;
  send_after: CreatedAt;
  attempts: Generated<number>;
  last_error: string | null;
  sent_at: Timestamp | null;
  alert_history_id: number | null;
  /** A produced report attached by reference (report_history), not copied into the row. */
  attachment_store_id: ColumnType<string | null, string | null | undefined, string | null>;
  attachment_history_no: ColumnType<number | null, number | null | undefined, number | null>;
}

export interface AuditLogTable {
  audit_id: ColumnType<number, never, never>;
  at: CreatedAt;
  user_id: number | null;
  action: string;
  target_type: string;
  target_id: string | null;
  store_id: string | null;
  details: Json<unknown>;
  /** The writer's name when the row was written (kept when the user is deleted). */
  user_name: string | null;
  /** The hash chain (decision 130): the previous row's row_hash, and this row's. Written only by audit_append(). */
  prev_hash: string | null;
  row_hash: string | null;
}

/** The audit chain's head: the last row appended and its hash (one row, locked by each append). */
export interface AuditChainHeadTable {
  chain: number;
  last_id: number;
  last_hash: string;
}

export interface AuditCheckpointTable {
  chain: number;
  last_id: number;
  last_hash: string;
  checked: number;
  broken: unknown;
  changes: number;
  walked_at: Date;
  full_walk_at: Date;
}

/** A periodic job's scheduled moment, written by the worker that runs it (migration 84). */
export interface JobRunTable {
  job: string;
  tick: Date;
  worker: string;
  started_at: Generated<Date>;
  finished_at: Date | null;
}

export interface Database {
  regions: RegionTable;
  prefectures: PrefectureTable;
  authorities: AuthorityTable;
  companies: CompanyTable;
  storegroups: StoregroupTable;
  usergroups: UsergroupTable;
  users: UserTable;
  user_usergroups: UserUsergroupTable;
  access_tokens: AccessTokenTable;
  diagrams: DiagramTable;
  stores: StoreTable;
  store_usergroups: StoreUsergroupTable;
  store_list_entries: StoreListEntryTable;
  gateway_pins: GatewayPinTable;
  gateway_tokens: GatewayTokenTable;
  equipment_kinds: EquipmentKindTable;
  sensor_models: SensorModelTable;
  measure_target_equipment_kinds: MeasureTargetEquipmentKindTable;
  sensors: SensorTable;
  measurements: MeasurementTable;
  measurement_buckets: MeasurementBucketTable;
  measurement_comments: MeasurementCommentTable;
  sensor_states: SensorStateTable;
  alert_history: AlertHistoryTable;
  alert_schedules: AlertScheduleTable;
  escalation_policies: EscalationPolicyTable;
  alert_escalations: AlertEscalationTable;
  corrective_actions: CorrectiveActionTable;
  alert_schedule_times: AlertScheduleTimeTable;
  notices: NoticeTable;
  regular_reports: RegularReportTable;
  report_history: ReportHistoryTable;
  mail_outbox: MailOutboxTable;
  webhook_endpoints: WebhookEndpointTable;
  webhook_deliveries: WebhookDeliveryTable;
  audit_log: AuditLogTable;
  audit_chain_head: AuditChainHeadTable;
  request_limits: RequestLimitTable;
  known_sign_in_addresses: KnownSignInAddressTable;
  sensor_settings_history: SensorSettingsHistoryTable;
  equipment_indicators: EquipmentIndicatorTable;
  equipment_drift_flags: EquipmentDriftFlagTable;
  settings_templates: SettingsTemplateTable;
  heard_sensors: HeardSensorTable;
  haccp_signoffs: HaccpSignoffTable;
  gateway_health: GatewayHealthTable;
  gateway_health_history: GatewayHealthHistoryTable;
  audit_checkpoint: AuditCheckpointTable;
  job_runs: JobRunTable;
  worker_heartbeats: WorkerHeartbeatTable;
  gateway_releases: GatewayReleaseTable;
  gateway_rollouts: GatewayRolloutTable;
  gateway_update_failures: GatewayUpdateFailureTable;
}

/** rate-limiter-flexible's RateLimiterPostgres layout: points used until `expire` (epoch ms). */
export interface RequestLimitTable {
  key: string;
  points: number;
  expire: number | null;
}

export interface KnownSignInAddressTable {
  user_id: number;
  address_hash: string;
  last_signed_in_at: Date;
}

/** A sensor's settings while they were in force (effective_to null: in force now). */
/** A furniture kind's settings template (issue 32, migration 2026-11-28-92); one per kind. */
export interface SettingsTemplateTable {
  template_id: Identity;
  template_name: string;
  icon_kind: number;
  lower_limit: number | null;
  upper_limit: number | null;
  guard_time: number | null;
  snoozing_time: number | null;
  time_constant: number;
  def_time: Json<DefrostRange[]>;
  updated_at: Date;
  updated_by: number | null;
}

export interface SensorSettingsHistoryTable {
  store_id: string;
  equipment_id: number;
  effective_from: Timestamp;
  effective_to: Timestamp | null;
  lower_limit: number | null;
  upper_limit: number | null;
  guard_time: number | null;
  snoozing_time: number | null;
  time_constant: number | null;
  def_time: Json<DefrostRange[]>;
}

/** One sensor's daily equipment indicators (decision 298); day is the Japan date. */
export interface EquipmentIndicatorTable {
  store_id: string;
  equipment_id: number;
  day: DateColumn;
  recovery_minutes: number | null;
  minutes_above_midpoint: number | null;
  night_average: number | null;
  damped_range: number | null;
  computed_at: Timestamp;
}

/** One drifting indicator of a sensor's Japan day (decision 312); flagged from the second day running. */
export interface EquipmentDriftFlagTable {
  store_id: string;
  equipment_id: number;
  day: DateColumn;
  indicator: string;
  value: number;
  own_median: number;
  own_z: number;
  peer_median: number;
  peer_z: number;
  flagged: boolean;
  computed_at: Timestamp;
}

/** The latest report of a BLE address a store's gateway hears that is not one of its sensors. */
export interface HeardSensorTable {
  store_id: string;
  serial_no: string;
  format: string;
  temperature: number | null;
  receive_sensitivity: number | null;
  heard_at: Timestamp;
  reported_at: CreatedAt;
}

/** A sign-off of a store's HACCP daily record (migration 2026-11-24-41). */
export interface HaccpSignoffTable {
  store_id: string;
  signoff_id: Identity;
  day: DateColumn;
  user_id: number | null;
  user_name: string;
  signed_at: Timestamp;
  note: string | null;
  issue_count: number;
}

/** A gateway's health report as stored (migration 2026-11-24-50): the latest per store. */
export interface GatewayHealthColumns {
  store_id: string;
  reported_at: Timestamp;
  received_at: Timestamp;
  version: string;
  uptime_seconds: number;
  buffer_depth: number;
  buffer_capacity: number;
  oldest_unsent_at: Timestamp | null;
  disk_free_bytes: number | null;
  disk_total_bytes: number | null;
  ble_adapter: string;
  sensors_heard: number;
  lte_rssi: number | null;
  dropped_total: number;
}

export interface GatewayHealthTable extends GatewayHealthColumns {
  buffer_alarm: Generated<boolean>;
  loss_alarm: Generated<boolean>;
  /** The list's filter facts (migration 2026-11-24-76, domain gatewayListFlags); no default: every writer sets them. */
  buffer_over_half: boolean;
  weak_signal: boolean;
}

/** 30 days of reports (purged by jobs/gateway-health-purge.server.ts). */
export type GatewayHealthHistoryTable = GatewayHealthColumns;

/** A worker process's heartbeat: its lane, when it started, its latest beat, when it stopped cleanly. */
export interface WorkerHeartbeatTable {
  worker: string;
  lane: string;
  started_at: Date;
  beat_at: Date;
  stopped_at: Date | null;
}

/** A gateway release: the bundle (a .tar.gz of the daemon's install tree) and its ed25519 signature (base64), made outside the console. */
export interface GatewayReleaseTable {
  version: string;
  bundle: Buffer;
  sha256: string;
  signature: string;
  size_bytes: number;
  uploaded_at: Date;
  uploaded_by: number | null;
}

/** A store group's desired gateway version, rolled out in two waves (wave_percent of its gateways first). */
export interface GatewayRolloutTable {
  storegroup_id: string;
  version: string;
  wave_percent: number;
  paused: Generated<boolean>;
  started_at: Date;
  updated_at: Date;
  updated_by: number | null;
}

/** A box that took a version and rolled back by itself, with why. */
export interface GatewayUpdateFailureTable {
  store_id: string;
  version: string;
  reason: string;
  reported_at: Date;
}
