// How the schema spreads over a Citus cluster (issue 17, decision 186): every table of the schema
// is declared here, and tests/api/distribution.test.ts holds the catalog and the models' queries
// to it on plain PostgreSQL. scripts/distribute.ts runs the Citus calls from this declaration.
//
// - distributed: hash-distributed by store_id, all co-located with the anchor, so that a store's
//   rows of every table sit on one node and a store's queries and joins stay on it.
// - reference: small, rarely written, copied to every node; joins with any store table stay local.
// - coordinator: stays on the coordinator only (a Citus local table when it references a reference
//   table): sign-in, the mail queue, the audit chain, the migrations.

export const DISTRIBUTION_COLUMN = 'store_id';

/** The table the others are co-located with (create_distributed_table's colocate_with). */
export const COLOCATION_ANCHOR = 'sensors';

export type Placement = 'distributed' | 'reference' | 'coordinator';

export interface TableDistribution {
  placement: Placement;
  why: string;
}

const distributed = (why: string): TableDistribution => ({ placement: 'distributed', why });
const reference = (why: string): TableDistribution => ({ placement: 'reference', why });
const coordinator = (why: string): TableDistribution => ({ placement: 'coordinator', why });

const LOOKUP = 'a fixed lookup of a few rows, seeded by the first migration';

/** Every table of the schema (partitions follow their parent). */
export const TABLES: Readonly<Record<string, TableDistribution>> = {
  // ---- the store's data: distributed by store_id, co-located ----
  sensors: distributed('the anchor: twenty per store; every reading, state and alert joins it on (store_id, equipment_id)'),
  measurements: distributed('the readings (month partitions): 6,700 rows/s at 20,000 stores, the reason to distribute at all'),
  measurement_buckets: distributed('the 10-minute buckets (month partitions), kept by the writers of measurements in the same transaction (decision 283), in the same shard'),
  measurement_comments: distributed('comments on readings, read with the readings of one sensor'),
  sensor_states: distributed('each sensor\'s last reading and engine state, written by every ingest batch of its store'),
  sensor_settings_history: distributed('the limits in force over time, per sensor'),
  equipment_indicators: distributed('each sensor\'s daily equipment indicators, written by the nightly job per store'),
  equipment_drift_flags: distributed('each sensor\'s drifting indicators per day, written by the nightly job per store'),
  heard_sensors: distributed('what a store\'s gateway heard, written by its ingest'),
  alert_history: distributed('the store\'s alerts, opened and closed by its ingest'),
  alert_schedules: distributed('the store\'s alert-stop schedules'),
  alert_schedule_times: distributed('the ranges of a schedule, keyed by (store_id, schedule_id)'),
  regular_reports: distributed('the store\'s report settings'),
  report_history: distributed('produced reports with their content (the largest rows after readings)'),
  alert_escalations: distributed('the escalation steps fired for the store\'s alerts, written with their messages'),
  haccp_signoffs: distributed('the store\'s daily HACCP sign-offs'),
  gateway_health: distributed('the gateway\'s last health message, one row per store, written by its gateway'),
  gateway_update_failures: distributed('a box\'s failed updates (rolled back by itself), written by its gateway'),
  gateway_health_history: distributed('the gateway\'s health messages over time'),

  // ---- reference tables: small, written by people or pairing, read with every store query ----
  stores: reference(
    'kept whole on every node so that store_no, store_name and gateway_info stay unique chain-wide (Citus cannot enforce a unique key without store_id on a distributed table); 20,000 rows. Its connection columns, written by each ingest batch, must move to a distributed table before the move (docs/scale-out.md)',
  ),
  store_list_entries: reference('the dashboard\'s keys of each store (decision 180), kept from stores by its trigger: placed as stores is, so the trigger writes where stores is written; 20,000 narrow rows'),
  store_usergroups: reference('who sees which store: read by user group (a user\'s stores), never by one store; stores × groups rows'),
  gateway_pins: reference('pairing finds the PIN through the gateway\'s serial before the store is known; one row per store'),
  gateway_tokens: reference('a gateway\'s request is authenticated by its token hash before the store is known; one live row per store'),
  diagrams: reference('chain-wide templates have no store (store_id null), and stores.diagram_id refers to it (a reference table may not refer to a distributed one)'),
  companies: reference('the chain\'s companies: stores and users refer to them'),
  storegroups: reference('store groups: stores refer to them'),
  settings_templates: reference('one settings template per furniture kind (22 rows at most), joined with the sensors of any store when a template is applied or compared'),
  users: reference('the store tables refer to their writers (stopped_by, created_by, user_id); tens of thousands of rows, written by people'),
  usergroups: reference('user groups: store_usergroups and user_usergroups refer to them'),
  user_usergroups: reference('a user\'s groups, joined to store_usergroups to find the user\'s stores'),
  escalation_policies: reference('a few policies per store group (and store overrides), written by administrators, read with every escalation'),
  gateway_rollouts: reference('the desired gateway version per store group, a row per group written by administrators, read with each gateway\'s config'),
  corrective_actions: reference('the chain\'s corrective-action list per furniture kind, a few dozen rows'),
  regions: reference(LOOKUP),
  prefectures: reference(LOOKUP),
  authorities: reference(LOOKUP),
  equipment_kinds: reference(LOOKUP),
  sensor_models: reference(LOOKUP),
  measure_target_equipment_kinds: reference(LOOKUP),

  // ---- the coordinator's own ----
  access_tokens: coordinator('written by every sign-in and read by every request, which the coordinator serves anyway; copying it to every node would buy nothing'),
  known_sign_in_addresses: coordinator('written by sign-in, read by sign-in'),
  request_limits: coordinator('the rate limiter\'s counters, written by every sign-in attempt'),
  gateway_releases: coordinator('a few signed bundles of a few MB, written by administrators or CI and served to gateways by the coordinator; copying them to every node would buy nothing'),
  notices: coordinator('a few notices, shown by the console on the coordinator'),
  job_runs: coordinator('the worker\'s claim of each periodic tick, one row per job and tick: no store in it'),
  mail_outbox: coordinator('one queue swept in send_after order across all stores by the worker; store_id is null for mail of no store'),
  webhook_endpoints: coordinator('a few endpoints of the chain with their signing secrets, written by administrators, read by the webhook worker'),
  webhook_deliveries: coordinator('the webhook outbox: one queue swept in next_attempt_at order across all stores by the worker, as mail_outbox is'),
  audit_log: coordinator('one hash chain in one order (decision 130): it cannot be split by store'),
  audit_chain_head: coordinator('the audit chain\'s head, locked by each append'),
  audit_checkpoint: coordinator('the audit walk\'s checkpoint'),
  worker_heartbeats: coordinator('one row per worker process, beaten every few seconds and read by /readyz: no store in it'),
  kysely_migration: coordinator('the migrations run'),
  kysely_migration_lock: coordinator('the migrations\' lock'),
};

export const tablesPlaced = (placement: Placement): string[] =>
  Object.entries(TABLES).filter(([, table]) => table.placement === placement).map(([name]) => name);

/**
 * The model functions whose queries are chain-wide on purpose (multi-shard on Citus), keyed
 * `path#function` under app/ (the innermost named function of the query's async stack). The query check (tests/api/distribution.test.ts) fails on
 * any other query that scans a distributed table without store_id.
 */
export const CHAIN_WIDE_QUERIES: Readonly<Record<string, string>> = {
  // The chain's sweeps and the console's view of all stores.
  'models/sensor-states.server.ts#findStoresToCheckForSilence': 'the no-communication sweep looks at every store once a minute',
  'models/escalation.server.ts#listEscalationCandidates': 'the escalation sweep looks at the open alerts of every store a policy covers (the partial index of open alerts on each shard)',
  // listDueRegularSettings returns its query's promise unawaited: the stack names its caller.
  'services/reports.server.ts#scheduleRegularReports': 'report scheduling finds the regular reports due in every store',
  'models/report-history.server.ts#claimNextReportJob': 'the report workers take the oldest pending job of any store',
  'models/gateway-releases.server.ts#groupGateways': 'a rollout\'s waves are the gateways of a store group, whose stores sit on every shard (one query per config fetch of a box in a rollout, and the fleet screen)',
  'models/gateway-health.server.ts#purgeHealthHistory': 'the worker drops old health messages of every store at once',
  'models/measurement-partitions.server.ts#attachMonth': 'a month\'s partition is made for all stores at once (on Citus each shard\'s partition)',
  'models/measurement-partitions.server.ts#dropMonthsBefore': 'retention drops a month of all stores at once (and the default partition\'s older rows)',
  'models/measurements.server.ts#deleteCommentsBefore': 'retention removes the comments of every store older than the period',
  'models/equipment-indicators.server.ts#chainIndicatorsOfDay': 'the drift rule compares each sensor with the same furniture kind across the chain that day (decision 312)',
  'models/equipment-indicators.server.ts#storesWithSensors': 'the nightly equipment indicators job lists the stores it then reads one by one (decision 298)',
  'models/chain-overview.server.ts#getChainOverview': 'the chain overview counts the stores a viewer may see across the chain (by status, alert, region, group and furniture kind; decision 292)',
  'models/settings-templates.server.ts#listDifferences': 'a settings template is previewed and compared over the sensors of a store group, whose stores sit on every shard',
  'models/settings-templates.server.ts#applyTemplate': 'a settings template is applied to the sensors of a store group in one statement (one transaction across its shards)',
  // The /on-reco API names a sensor by its equipment_id, and a report file by its history_no,
  // without the store (the specification's API): the first query finds the store, one index
  // probe per shard on Citus; the queries after it carry store_id.
  'models/sensor-settings.server.ts#getSensorDetail': 'the API names the sensor by equipment_id alone',
  'models/measurements.server.ts#readMeasurements': 'the API names the sensor by equipment_id alone',
  'models/graph.server.ts#resolveCsvSensors': 'the API names the sensors by equipment_id alone',
  'models/graph.server.ts#saveMeasurementComment': 'the API names the sensor by equipment_id alone',
  'models/alert-history.server.ts#findVisibleSensors': 'the API names the sensors by equipment_id alone',
  'models/diagrams.server.ts#findVisibleSensors': 'the API names the sensors by equipment_id alone',
  'models/sensors.server.ts#listActiveAlerts': 'the API names the sensors by equipment_id alone (the join to alert_history matches store_id)',
  'models/report-history.server.ts#getReportFileInfo': 'the API names the report file by history_no alone',
};
