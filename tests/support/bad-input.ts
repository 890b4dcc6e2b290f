import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { sql } from 'kysely';
import { z } from 'zod';
import type { Db } from '../../app/db/db.server';
import { API_CALLS, type ApiCall, type Schema } from '../../app/domain/api';
import { toCompactDate, toCompactDateTime } from '../../app/domain/japan-time';
import { IMPORT_MAX_BYTES, IMPORT_MAX_SENSORS, IMPORT_MAX_STORES } from '../../app/domain/store-import';
import type { ApiRouteFunction } from '../../app/http/api-route.server';
import { TEST_PASSWORD, createSensor, createStore, createUser, issuePin } from '../fixtures/chain';
import { BASE, call } from './requests';
import { toShiftJis } from './shift-jis';

// The bad-input sweep (issue 10): cases generated from the API registry with fast-check. Every
// declared call gets malformed bodies, wrong content types, and its own fields replaced one at a
// time by values that no field of that kind may take (NUL, lone surrogates, 1 MB, numbers past
// the bounds, dates that do not exist, wrong JSON types, a required field left out), on top of a
// valid example that reaches the deepest code of the call — so a value the schema lets through
// reaches PostgreSQL, where it would be a 500. Read calls also get inputs that may be valid
// (unicode, control characters, SQL and HTML metacharacters) and must simply never fail.
// Issue 30's cases: a control character (CR/LF, TAB, ESC, DEL, C1) in any name a write takes, at
// any depth (a mail would get an extra line), a JSON body in Shift_JIS (CP932) rather than UTF-8,
// and imports past their size (more stores or sensors than allowed, a body that unpacks too large).

const ROUTES_DIR = fileURLToPath(new URL('../../app/routes/on-reco+', import.meta.url));
const MiB = 1024 * 1024;

// ---- the world the valid examples live in ---------------------------------------------------

export interface SweepWorld {
  adminLogin: string;
  adminToken: string;
  gatewayToken: string;
  storeId: string;
  gatewayInfo: string;
  pin: string;
  userId: number;
  usergroupId: number;
  /** A store users' group: a store's groups are never staff groups (decision 245). */
  storeUsergroupId: number;
  equipmentId: number;
  /** A reading of the sensor (YYYYMMDDHHmmss), which comments can name. */
  readingAt: string;
  /** The sensor's open alert. */
  alertId: string;
  /** That alert's history row (the acknowledgement names it). */
  alertHistoryId: number;
  /** An escalation policy, for the delete example. */
  escalationPolicyId: number;
  /** A webhook endpoint for the delete example, and a dead delivery (to another endpoint) for the retry example. */
  webhookEndpointId: number;
  webhookDeliveryId: number;
  /** A settings template (kind 3) for the template examples. */
  settingsTemplateId: number;
  deletableTemplateId: number;
  diagramId: number;
  /** An alert-stop schedule of the store (a day long past). */
  alertScheduleId: number;
  /** A regular report setting of the store and a produced report (history_no). */
  settingNo: number;
  historyNo: number;
}

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
const SERIAL = 'AA:BB:5E:00:00:01';

async function routeCall(file: string, method: string, pathname: string, body: unknown, token?: string): Promise<Response> {
  const handler = await handlerOfFile(file, method);
  const headers: Record<string, string> = { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) };
  return call(handler as never, new Request(BASE + pathname, { method, headers, body: JSON.stringify(body) }));
}

/** A store with a sensor that takes comments, a reading 30 minutes old above its limit (an open alert), a diagram, a paired gateway and an administrator. */
export async function buildSweepWorld(db: Db): Promise<SweepWorld> {
  const storeId = 'S001';
  await createStore(db, storeId);
  await createStore(db, 'S002');
  const equipmentId = await createSensor(db, storeId, SERIAL, { upper_limit: 10, lower_limit: 0, snoozing_time: 10, time_constant: 1 });
  await db.updateTable('sensors').set({ comment_required: 1 }).where('equipment_id', '=', equipmentId).execute();
  const adminLogin = 'sweeper';
  const userId = await createUser(db, adminLogin, 1, { storeIds: [storeId] });
  const { usergroup_id: usergroupId } = await db.selectFrom('user_usergroups').select('usergroup_id').where('user_id', '=', userId).executeTakeFirstOrThrow();
  const storeUserId = await createUser(db, 'sweeper-store', 101, { storeIds: [storeId] });
  const { usergroup_id: storeUsergroupId } = await db.selectFrom('user_usergroups').select('usergroup_id').where('user_id', '=', storeUserId).executeTakeFirstOrThrow();
  const pin = await issuePin(db, storeId);
  const paired = await routeCall('v1.gateway.pair', 'POST', '/on-reco/v1/gateway/pair', { gateway_info: `GW-${storeId}`, pin_code: pin });
  const { gateway_token: gatewayToken } = (await paired.json()) as { gateway_token: string };
  const readingAt = toCompactDateTime(new Date(Math.floor(Date.now() / 60_000) * 60_000 - 30 * 60_000));
  const reading = { serial_no: SERIAL, measured_at: readingAt, temperature: 14.2, error: false, battery: 80, receive_sensitivity: -70 };
  const ingested = await routeCall('v1.gateway.readings', 'POST', '/on-reco/v1/gateway/readings', { readings: [reading] }, gatewayToken);
  if (ingested.status !== 200) throw new Error(`the sweep's reading was refused: ${await ingested.text()}`);
  const { alert_id: alertId, alert_history_id: alertHistoryId } = await db.selectFrom('alert_history').select(['alert_id', 'alert_history_id']).where('equipment_id', '=', equipmentId).where('recovered_at', 'is', null).executeTakeFirstOrThrow();
  const diagram = await db
    .insertInto('diagrams')
    .values({ store_id: storeId, diagram_name: 'floor', content_type: 'image/png', byte_size: PNG.length, content: Buffer.from(PNG) })
    .returning('diagram_id')
    .executeTakeFirstOrThrow();
  const token = await handlerOfFile('token', 'POST');
  const signedIn = await call(token as never, new Request(`${BASE}/on-reco/token`, { method: 'POST', body: new URLSearchParams({ grant_type: 'password', username: adminLogin, password: TEST_PASSWORD }) }));
  const { access_token: adminToken } = (await signedIn.json()) as { access_token: string };
  // Masters nothing uses, for the system masters' delete examples.
  await sql`insert into companies (company_id, company_name) values ('C009', '削除用商事');
    insert into storegroups (storegroup_id, company_id, storegroup_name) values ('G09', 'C001', '削除用グループ');
    insert into usergroups (usergroup_id, usergroup_name, usergroup_authority) overriding system value values (900001, '削除用', 101)`.execute(db);
  // A gateway release and G01's rollout of it, paused (the rollout examples name them).
  await db.insertInto('gateway_releases').values({ version: '0.9.0', bundle: gzipSync('sweep'), sha256: '0'.repeat(64), signature: `${'A'.repeat(86)}==`, size_bytes: 25, uploaded_at: new Date(), uploaded_by: null }).execute();
  await db.insertInto('gateway_rollouts').values({ storegroup_id: 'G01', version: '0.9.0', wave_percent: 50, paused: true, started_at: new Date(), updated_at: new Date(), updated_by: null }).execute();
  const schedule = await db
    .insertInto('alert_schedules')
    .values({ store_id: storeId, schedule_type: 1, term_type: 2, start_date: '2020-01-01', end_date: '2020-01-01', time_target_type: 1, sun_flg: 0, mon_flg: 0, tue_flg: 0, wed_flg: 0, thu_flg: 0, fri_flg: 0, sat_flg: 0 })
    .returning('schedule_id')
    .executeTakeFirstOrThrow();
  const { policy_id: escalationPolicyId } = await db
    .insertInto('escalation_policies')
    .values({ policy_name: '削除用', storegroup_id: 'G01', store_id: null, alert_codes: ['OE00000001'], steps: JSON.stringify([{ delay_minutes: 0, store_staff: true, channels: ['mail'] }]) })
    .returning('policy_id')
    .executeTakeFirstOrThrow();
  const [{ endpoint_id: webhookEndpointId }, { endpoint_id: deliveredTo }] = await db
    .insertInto('webhook_endpoints')
    .values([
      { endpoint_name: '削除用', url: 'https://hooks.example.com/delete', format: 'json', secret: 'whsec_delete' },
      { endpoint_name: '再送用', url: 'https://hooks.example.com/retry', format: 'slack', secret: 'whsec_retry' },
    ])
    .returning('endpoint_id')
    .execute();
  const { delivery_id: webhookDeliveryId } = await db
    .insertInto('webhook_deliveries')
    .values({ endpoint_id: deliveredTo, store_id: storeId, alert_history_id: Number(alertHistoryId), event: 'alert.opened', step_no: 0, idempotency_key: '00000000-0000-4000-8000-000000000001', body: '{}', state: 'dead', attempts: 9, last_error: 'HTTP 500' })
    .returning('delivery_id')
    .executeTakeFirstOrThrow();
  const period = { start_time: new Date(), end_time: new Date(), report_type: 3, output_format: 2 };
  const { setting_no: settingNo } = await db
    .insertInto('regular_reports')
    .values({ store_id: storeId, setting_name: '日報', file_name: 'daily', regular_report: 1, data_interval: 10, equipment_ids: [equipmentId], ...period })
    .returning('setting_no')
    .executeTakeFirstOrThrow();
  const { history_no: historyNo } = await db
    .insertInto('report_history')
    .values({ store_id: storeId, setting_no: settingNo, file_name: 'daily', state: 'done', content_type: 'text/csv; charset=utf-8', content: Buffer.from('\uFEFF日時\r\n'), ...period })
    .returning('history_no')
    .executeTakeFirstOrThrow();
  const { template_id: settingsTemplateId } = await db
    .insertInto('settings_templates')
    .values({ template_name: 'チルド1 標準', icon_kind: 3, lower_limit: 1, upper_limit: 9, guard_time: 20, snoozing_time: 60, time_constant: 100, def_time: '[]', updated_at: new Date(), updated_by: null })
    .returning('template_id')
    .executeTakeFirstOrThrow();
  // The delete example takes a template of its own: the valid examples run in one world, and the
  // preview and apply examples need theirs after it.
  const { template_id: deletableTemplateId } = await db
    .insertInto('settings_templates')
    .values({ template_name: '冷凍 標準', icon_kind: 4, lower_limit: -25, upper_limit: -15, guard_time: 20, snoozing_time: 60, time_constant: 100, def_time: '[]', updated_at: new Date(), updated_by: null })
    .returning('template_id')
    .executeTakeFirstOrThrow();
  return { settingsTemplateId, deletableTemplateId, adminLogin, adminToken, gatewayToken, storeId, gatewayInfo: `GW-${storeId}`, pin, userId, usergroupId, storeUsergroupId, equipmentId, readingAt, alertId, alertHistoryId: Number(alertHistoryId), escalationPolicyId, webhookEndpointId, webhookDeliveryId: Number(webhookDeliveryId), diagramId: diagram.diagram_id, alertScheduleId: schedule.schedule_id, settingNo, historyNo };
}

type Example = Record<string, unknown>;

/**
 * A valid input of every call that takes one, reaching the deepest code of the call (the
 * control test checks each is accepted). A call added to the registry without one fails the sweep.
 */
export function validExamples(w: SweepWorld): Readonly<Record<string, Example>> {
  const today = new Date();
  const dayAgo = new Date(today.getTime() - 86_400_000);
  return {
    issueToken: { grant_type: 'password', username: w.adminLogin, password: TEST_PASSWORD },
    changePassword: { login_id: w.adminLogin, old_pass: TEST_PASSWORD, new_pass: 'sweep_password_2', new_pass_verification: 'sweep_password_2' },
    requestPasscode: { login_id: w.adminLogin },
    getUser: { user_id: w.userId },
    saveQuietHours: { quiet_start: '22:00', quiet_end: '06:00' },
    listPrefectures: { region_id: 3 },
    listStoregroups: { company_id: 'C001' },
    listNotices: { limit: 10 },
    createNotice: { title: 'お知らせ', content: '点検のお知らせです' },
    listStores: { page_no: 1, page_count: 10, region_id: 3, prefecture_id: 13, company_id: 'C001', storegroup_id: 'G01', store_status: 0, store_name: 'テスト', store_no: '1' },
    getChainOverview: { region_id: 3, company_id: 'C001', storegroup_id: 'G01', worst_count: 20 },
    getStore: { store_id: w.storeId },
    saveStore: {
      store_id: w.storeId,
      store_no: '4242',
      store_name: 'テスト店 改',
      company_id: 'C001',
      prefecture_id: 13,
      address: '東京都新宿区西新宿1-1-1',
      tel_no: '0312345678',
      opening_date: '20240401',
      closing_date: '20991231',
      storegroup_id: 'G01',
      usergroup: [w.storeUsergroupId],
      gateway_info: w.gatewayInfo,
    },
    getStorePin: { store_id: w.storeId },
    reissueStorePin: { store_id: w.storeId },
    removeGateway: { store_id: w.storeId, gateway_info: w.gatewayInfo },
    exchangeStoreGateway: { store_id: w.storeId, gateway_info: `${w.gatewayInfo}-NEW` },
    listStoreUsers: { store_id: w.storeId },
    listStoreSensors: { store_id: w.storeId, include_hidden: '1' },
    getEquipment: { equipment_id: w.equipmentId },
    readMeasurements: { equipment_id: w.equipmentId, since: toCompactDateTime(dayAgo), until: toCompactDateTime(today), convert_def: '1' },
    measurementCsv: { equipment_id: String(w.equipmentId), since: toCompactDateTime(dayAgo), until: toCompactDateTime(today) },
    commentMeasurement: { equipment_id: w.equipmentId, start_date: w.readingAt, comment: '扉の閉め忘れ' },
    listAlertHistory: { equipment_id: String(w.equipmentId), store_id: w.storeId, start_date: toCompactDate(dayAgo), end_date: toCompactDate(today), page_no: 1, page_count: 10 },
    alertHistoryCsv: { equipment_id: String(w.equipmentId), store_id: w.storeId, start_date: toCompactDate(dayAgo), end_date: toCompactDate(today) },
    stopAlert: { equipment_id: w.equipmentId, alert_id: w.alertId, comment: '閉めました' },
    listActiveAlerts: { equipment_id: String(w.equipmentId) },
    listDiagrams: { store_id: w.storeId },
    uploadDiagrams: { store_id: w.storeId },
    getDiagramImage: { diagram_id: w.diagramId, download: '1' },
    setStoreDiagram: { store_id: w.storeId, diagram_id: w.diagramId },
    saveSensorPositions: { equipment_id: w.equipmentId, position_x: 100, position_y: 50 },
    getHaccpRecord: { store_id: w.storeId, date: toCompactDate(dayAgo) },
    signHaccpRecord: { store_id: w.storeId, date: toCompactDate(dayAgo), note: '確認しました' },
    pairGateway: { gateway_info: w.gatewayInfo, pin_code: w.pin },
    listAlertSchedules: { store_id: w.storeId, start_date: toCompactDate(dayAgo), end_date: toCompactDate(today) },
    saveAlertSchedule: {
      store_id: w.storeId,
      schedule_id: null,
      schedule_type: 2,
      term_type: 1,
      start_date: '20200105',
      end_date: '20200301',
      sun_flg: 1,
      wed_flg: 1,
      time_target_type: 2,
      times: [{ equipment_id: w.equipmentId, equipment_name: '冷蔵庫', time_schedules: [{ start: '01:00', end: '02:30' }, { start: '23:00', end: '00:00' }] }],
    },
    deleteAlertSchedule: { store_id: w.storeId, schedule_id: w.alertScheduleId },
    saveEscalationPolicy: { policy_id: null, policy_name: '東京 温度', storegroup_id: 'G01', store_id: null, alert_codes: ['OE00000001'], steps: [{ delay_minutes: 0, store_staff: true, channels: ['mail'] }, { delay_minutes: 15, user_ids: [w.userId], channels: ['mail'] }] },
    deleteEscalationPolicy: { policy_id: w.escalationPolicyId },
    createWebhookEndpoint: { endpoint_name: '本部 Slack', url: 'https://hooks.slack.com/services/T000/B000/XXXX', format: 'slack' },
    deleteWebhookEndpoint: { endpoint_id: w.webhookEndpointId },
    listWebhookDeliveries: { state: 'dead', limit: 50 },
    retryWebhookDelivery: { delivery_id: w.webhookDeliveryId },
    saveSettingsTemplate: { template_id: w.settingsTemplateId, template_name: 'チルド1 標準', icon_kind: 3, lower_limit: 2, upper_limit: 8, guard_time: 30, snoozing_time: 120, time_constant: 50, def_time: [{ start: '02:00', end: '02:30' }] },
    deleteSettingsTemplate: { template_id: w.deletableTemplateId },
    previewSettingsTemplate: { template_id: w.settingsTemplateId, storegroup_id: 'G01' },
    applySettingsTemplate: { template_id: w.settingsTemplateId, storegroup_id: 'G01' },
    listSettingsDivergences: { storegroup_id: 'G01' },
    acknowledgeAlert: { store_id: w.storeId, alert_history_id: w.alertHistoryId, corrective_action: '扉の閉め忘れを直した', note: '確認済み' },
    postReadings: { readings: [{ serial_no: SERIAL, measured_at: toCompactDateTime(new Date(Math.floor(Date.now() / 60_000) * 60_000 - 60_000)), temperature: 14.5, error: false, battery: 80, receive_sensitivity: -70 }], buffer_overflow: false },
    listAudit: { from: toCompactDate(dayAgo), to: toCompactDate(today), user_id: w.userId, store_id: w.storeId, kind: 'store', page_no: 1, page_count: 20 },
    listUsergroupMaster: { page_no: 1, page_count: 20, usergroup_id: w.usergroupId, usergroup_name: 'グループ' },
    saveUsergroup: { usergroup_id: w.usergroupId, usergroup_name: '管理者グループ', usergroup_authority: 1 },
    deleteUsergroup: { usergroup_id: 900001 },
    listCompanyMaster: { page_no: 1, page_count: 20, company_id: 'C001', company_name: 'テスト' },
    saveCompany: { company_id: 'C001', company_name: 'テスト商事 改', mode: 'update' },
    deleteCompany: { company_id: 'C009' },
    listStoregroupMaster: { page_no: 1, page_count: 20, company_id: 'C001', storegroup_id: 'G01', storegroup_name: '東京' },
    saveStoregroup: { storegroup_id: 'G01', company_id: 'C001', storegroup_name: '東京エリア 改', mode: 'update' },
    deleteStoregroup: { storegroup_id: 'G09' },
    listUsers: { page_no: 1, page_count: 20, mailaddress: 'example', valid_flg: 1, alert_filter: 1, usergroup_id: w.usergroupId, user_id: w.userId, user_name: 'sweep' },
    saveUser: {
      login_id: 'sweepuser',
      user_name: '掃引 利用者',
      company_id: 'C001',
      tel_no: '0312345678',
      mailaddress1: 'sweepuser@example.com',
      mailaddress2: 'sweepuser2@example.com',
      mailaddress3: null,
      language: 'US',
      valid_flg: 1,
      notice_flg: 1,
      alert_filter: 0,
      usergroup: [w.usergroupId],
      store_id: w.storeId,
    },
    // The user saveUser's example creates (the sweeper is user 1 of the fresh world; it may not delete itself).
    deleteUser: { user_id: w.userId + 1 },
    listEquipments: { store_id: w.storeId },
    saveEquipment: {
      store_id: w.storeId,
      serial_no: 'AA:BB:5E:00:00:99',
      equipment_name: '新しい冷蔵庫',
      installation_datetime: '20240401',
      removal_datetime: '20991231',
      measure_target_equipment_kind_id: 1,
      lower_limit: -5.5,
      upper_limit: 10,
      guard_time: 30,
      snoozing_time: 60,
      icon_kind: 3,
      def_time: [{ start: '02:00', end: '02:30' }],
      time_constant: 100,
      disp_flg: 1,
    },
    listUnregisteredSensors: { store_id: w.storeId },
    importEquipments: { store_id: w.storeId, dry_run: false, sensors: [{ serial_no: 'AA:BB:5E:00:01:01', equipment_name: '取込の冷蔵庫', icon_kind: 3, lower_limit: 0, upper_limit: 8, def_time: [{ start: '02:00', end: '02:30' }] }] },
    importStores: {
      dry_run: false,
      stores: [
        {
          store_id: 'SWEEPIMPORT1',
          store_no: '4343',
          store_name: '取込テスト店',
          company_id: 'C001',
          prefecture_id: 13,
          address: '東京都新宿区西新宿2-2-2',
          tel_no: '0312345678',
          opening_date: '20240401',
          closing_date: null,
          storegroup_id: 'G01',
          usergroup: [w.storeUsergroupId],
          gateway_info: 'GW-SWEEPIMPORT1',
          sensors: [{ serial_no: 'AA:BB:5E:00:01:02', equipment_name: '取込の冷凍庫', icon_kind: 3, lower_limit: -25, upper_limit: -15, measure_target_equipment_kind_id: 1 }],
        },
      ],
    },
    postHeardSensors: { sensors: [{ serial_no: 'C0:FF:EE:00:00:01', format: 'atc1441', temperature: 5.5, receive_sensitivity: -70, heard_at: toCompactDateTime(new Date(Date.now() - 60_000)) }] },
    listReportHistory: { store_id: w.storeId, since: '20000101000000', until: '20991231235959', page_no: 1 },
    downloadReport: { history_no: w.historyNo },
    listRegularReports: { store_id: w.storeId },
    saveReport: {
      store_id: w.storeId, setting_no: w.settingNo, setting_name: '月報', file_name: '温度記録', report_type: 1, regular_report: 1, data_interval: null, manual_data_interval: ['08:00', '17:00'],
      start_time: `${toCompactDate(today)}000000`, end_time: `${toCompactDate(today)}235000`, output_format: 2, mail_flg: 1,
      option1: 1, option2: 1, option3: 0, option4: 0, option5: 0, equipment_ids: [w.equipmentId], mail_addresses: ['tencho@example.com'], attachment_flg: 1,
    },
    deleteRegularReport: { store_id: w.storeId, setting_no: w.settingNo },
    postHealth: {
      reported_at: toCompactDateTime(new Date()), version: '0.2.0', uptime_seconds: 3600, buffer_depth: 10, buffer_capacity: 1000, oldest_unsent_at: null,
      disk_free_bytes: 8_000_000_000, disk_total_bytes: 16_000_000_000, ble_adapter: 'on', sensors_heard: 1, lte_rssi: -80, dropped_total: 0,
    },
    getGatewayRelease: { version: '0.9.0' },
    postUpdateFailure: { version: '0.9.0', reason: 'no healthy upload within 10 minutes' },
    uploadGatewayRelease: { version: '1.0.0', bundle_base64: gzipSync('release').toString('base64'), signature: `${'B'.repeat(86)}==` },
    startGatewayRollout: { storegroup_id: 'G01', version: '0.9.0', wave_percent: 50 },
    pauseGatewayRollout: { storegroup_id: 'G01', paused: true },
  };
}

// ---- the routes -----------------------------------------------------------------------------

/** The route file of a path, as remix-flat-routes names it (tests/api/api-registry.test.ts reads it the other way). */
export function routeFileOf(pathname: string): string {
  return pathname
    .replace(/^\/on-reco\//, '')
    .split('/')
    .map((segment) => segment.replace(/\./g, '[.]'))
    .join('.');
}

type RouteModule = { loader?: ApiRouteFunction; action?: ApiRouteFunction };
const modules = new Map<string, Promise<RouteModule>>();

async function handlerOfFile(file: string, method: string): Promise<ApiRouteFunction> {
  if (!modules.has(file)) modules.set(file, import(path.join(ROUTES_DIR, `${file}.ts`)) as Promise<RouteModule>);
  const module = await modules.get(file)!;
  const handler = method === 'GET' ? module.loader : module.action;
  if (!handler) throw new Error(`${file} has no ${method === 'GET' ? 'loader' : 'action'}`);
  return handler;
}

export const handlerOf = (sweepCall: { path: string; method: string }) => handlerOfFile(routeFileOf(sweepCall.path), sweepCall.method);

/** The catch-all of unknown /on-reco/v1 paths. */
export const unknownPathHandler = () => handlerOfFile('v1.$', 'GET');

// ---- what a field is ------------------------------------------------------------------------

export interface FieldInfo {
  required: boolean;
  kind: 'text' | 'number' | 'choice' | 'array' | 'boolean' | 'any';
  int?: boolean;
  min?: number;
  max?: number;
  maxItems?: number;
  element?: FieldInfo;
  /** A date of 8 (YYYYMMDD) or 14 (YYYYMMDDHHmmss) digits. */
  date?: 8 | 14;
}

/** The object schema of an input (through refinements and transforms), or null when it is not one. */
function objectOf(schema: Schema): z.AnyZodObject | null {
  if (schema instanceof z.ZodObject) return schema;
  if (schema instanceof z.ZodEffects) return objectOf(schema.innerType());
  if (schema instanceof z.ZodPipeline) return objectOf(schema._def.in);
  if (schema instanceof z.ZodUnion) return objectOf((schema.options as Schema[])[0]);
  return null;
}

const accepts = (schema: Schema, value: unknown) => schema.safeParse(value).success;

function fieldInfo(schema: Schema): FieldInfo {
  const info: FieldInfo = { required: !accepts(schema, undefined), kind: 'any' };
  const numbers: z.ZodNumber[] = [];
  let base: Schema = schema;
  for (;;) {
    if (base instanceof z.ZodOptional || base instanceof z.ZodNullable || base instanceof z.ZodDefault || base instanceof z.ZodCatch) base = base._def.innerType;
    else if (base instanceof z.ZodEffects) base = base._def.schema;
    else if (base instanceof z.ZodPipeline) {
      if (base._def.out instanceof z.ZodNumber) numbers.push(base._def.out);
      base = base._def.in;
    } else if (base instanceof z.ZodUnion) base = (base.options as Schema[]).find((option) => !(option instanceof z.ZodNull)) ?? base.options[0];
    else break;
  }
  if (base instanceof z.ZodString) {
    info.kind = 'text';
    if (accepts(schema, '20260115') && !accepts(schema, '20261340')) info.date = 8;
    if (accepts(schema, '20260115120000') && !accepts(schema, '20261340120000')) info.date = 14;
  } else if (base instanceof z.ZodNumber) {
    info.kind = 'number';
    numbers.push(base);
  } else if (base instanceof z.ZodEnum || base instanceof z.ZodLiteral || base instanceof z.ZodNativeEnum) info.kind = 'choice';
  else if (base instanceof z.ZodBoolean) info.kind = 'boolean';
  else if (base instanceof z.ZodArray) {
    info.kind = 'array';
    info.maxItems = base._def.maxLength?.value;
    info.element = fieldInfo(base.element);
  }
  for (const check of numbers.flatMap((number) => number._def.checks)) {
    if (check.kind === 'int') info.int = true;
    if (check.kind === 'min') info.min = Math.max(info.min ?? -Infinity, check.value);
    if (check.kind === 'max') info.max = Math.min(info.max ?? Infinity, check.value);
  }
  return info;
}

/** The fields of a call's input, by name (the documented schema when the real one takes anything). */
export function fieldsOfCall(sweepCall: ApiCall, now: Date): Record<string, FieldInfo> {
  const input = sweepCall.input;
  if (!input) return {};
  const real = typeof input.schema === 'function' ? input.schema(now) : input.schema;
  const object = objectOf(real) ?? (input.in === 'body' && input.documented ? objectOf(input.documented) : null);
  if (!object) return {};
  return Object.fromEntries(Object.entries(object.shape as Record<string, Schema>).map(([name, schema]) => [name, fieldInfo(schema)]));
}

// ---- values -----------------------------------------------------------------------------------

/** A number as JSON text the serializer cannot write (1e400 is Infinity once parsed). */
class RawNumber {
  constructor(readonly text: string) {}
}

type Wire = 'json' | 'text';

const ONE_MB = 'x'.repeat(MiB);

/** Inputs that may be valid: what a field of a read call must take without failing. */
export const noise: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '😀🍣👨‍👩‍👧',
    '\u202eevil\u202c',
    'مرحبا بالعالم',
    'שלום',
    '\u0001\u0007\u001b[31m\u007f',
    "' OR '1'='1",
    '"; drop table stores; --',
    '\\',
    '%',
    '_%',
    '<script>alert(1)</script>',
    '&lt;&amp;&#0;',
    '../../etc/passwd',
    '%00',
    '１２３',
    '٣',
    '0x10',
    '1e3',
    '-0',
    'null',
    'true',
    '{}',
    ',,,',
    'a'.repeat(300),
  ),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.integer({ min: -10, max: 3000 }).map(String),
  fc.constantFrom(-1, 0, 1, 2 ** 31, -(2 ** 31) - 1, 1e21, 0.5),
);

const textOnly = (value: unknown, wire: Wire) => (wire === 'text' ? String(value) : value);

/** Values no field of this kind may take. */
function badValues(info: FieldInfo, wire: Wire): fc.Arbitrary<unknown> {
  const options: fc.Arbitrary<unknown>[] = [];
  // Objects are no text, number or choice (a coerced number reads [7] as 7, so no arrays here).
  if (wire === 'json' && info.kind !== 'any' && info.kind !== 'array') options.push(fc.constantFrom<unknown>({ $ne: null }, [{}], { toString: 'x' }));
  if (info.kind === 'text') {
    options.push(fc.tuple(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 })).map(([a, b]) => `${a}\u0000${b}`));
    options.push(fc.constant(ONE_MB));
    if (wire === 'json') options.push(fc.tuple(fc.string({ maxLength: 8 }), fc.constantFrom('\ud800', '\udfff', '\udc00x')).map(([a, b]) => a + b));
    if (info.date === 8) options.push(fc.constantFrom('20260231', '20261301', '20260000', '20250229', '00000000'));
    if (info.date === 14) options.push(fc.constantFrom('20260231120000', '20260101250000', '20260101126000', '20260101120060', '20261301000000'));
  }
  if (info.kind === 'number') {
    const beyond: unknown[] = ['abc', 'NaN', 'Infinity', '-Infinity', new RawNumber('1e400'), new RawNumber('-1e400')];
    beyond.push(info.max !== undefined ? info.max + 1 : 1e300, 2 ** 53 + 2, 1e21);
    beyond.push(info.min !== undefined ? info.min - 1 : -1e300);
    if (info.max === undefined) beyond.push(2 ** 31, 40_000, 1e39);
    if (info.int) beyond.push((info.min ?? 0) + 0.5);
    options.push(fc.constantFrom(...beyond).map((value) => (wire === 'text' ? textOf(value) : value)));
  }
  if (info.kind === 'choice') options.push(fc.constantFrom('zz', '\u0000', '2', 'ON').map((value) => textOnly(value, wire)));
  if (info.kind === 'boolean') options.push(fc.constantFrom<unknown>('yes', 2, 'true'));
  if (info.kind === 'array' && wire === 'json') {
    options.push(fc.constantFrom<unknown>('x', 5, {}));
    if (info.maxItems !== undefined) options.push(fc.constant(Array.from({ length: info.maxItems + 1 }, (_, index) => index + 1)));
    if (info.element && info.element.kind !== 'any') options.push(badValues(info.element, wire).map((element) => [element]));
  }
  return fc.oneof(...options);
}

/** The edges of PostgreSQL's number columns (smallint, integer, real): refused when past the field's bounds, never a 5xx. */
const COLUMN_EDGES = [32_767, 32_768, -32_769, 2_147_483_647, 2_147_483_648, -2_147_483_649, 3.5e38, -3.5e38, 1e-46];

const outsideBounds = (info: FieldInfo, value: number) => (info.max !== undefined && value > info.max) || (info.min !== undefined && value < info.min) || (info.int === true && !Number.isInteger(value));

/** Column edges a number field may be given: on a write only those its bounds refuse (another would be a valid write). */
function edgeValues(info: FieldInfo, write: boolean): number[] {
  if (info.kind !== 'number') return [];
  return COLUMN_EDGES.filter((value) => !write || outsideBounds(info, value));
}

const textOf = (value: unknown) => (value instanceof RawNumber ? value.text : String(value));

// ---- cases ------------------------------------------------------------------------------------

/** What a case must get: a refusal (4xx with the error shape, naming `target` when it is a field), or any answer but a 5xx. */
export type Expectation = { refused: true; target?: string } | { refused: false };

export interface SweepCase {
  callId: string;
  family: string;
  /** One line that says what was sent (for the failure report). */
  summary: string;
  expect: Expectation;
  request: () => Request;
}

/** What the sweep needs to build the cases of one call. */
export interface CallPlan {
  call: ApiCall;
  fields: Record<string, FieldInfo>;
  example: Example | undefined;
  token: string | undefined;
}

export function plansOf(world: SweepWorld, now: Date, calls: readonly ApiCall[] = API_CALLS): CallPlan[] {
  const examples = validExamples(world);
  return calls.map((sweepCall) => ({
    call: sweepCall,
    fields: fieldsOfCall(sweepCall, now),
    example: examples[sweepCall.id],
    token: sweepCall.access.kind === 'gateway' ? world.gatewayToken : sweepCall.access.kind === 'user' ? world.adminToken : undefined,
  }));
}

type BodyType = 'json' | 'form' | 'multipart';

function bodyTypesOf(plan: CallPlan): BodyType[] {
  const input = plan.call.input;
  if (!input || input.in !== 'body') return [];
  if (input.encoding === 'multipart') return ['multipart'];
  if (input.encoding === 'form') return ['form'];
  if (input.encoding === 'json-gzip') return ['json'];
  // A form carries no arrays or numbers as such: only examples of scalar fields go as forms too.
  return Object.values(plan.example ?? {}).some(Array.isArray) ? ['json'] : ['json', 'form'];
}

function serializeJson(value: unknown): string {
  const raws: string[] = [];
  const text = JSON.stringify(value, (_key, item: unknown) => {
    if (item instanceof RawNumber) {
      raws.push(item.text);
      return `\u0000RAW${raws.length - 1}\u0000`;
    }
    return item;
  });
  return text.replace(/"\\u0000RAW(\d+)\\u0000"/g, (_match, index: string) => raws[Number(index)]);
}

const stringsOf = (fields: Example) => Object.entries(fields).map(([key, value]) => [key, textOf(value)] as [string, string]);

function requestOf(plan: CallPlan, fields: Example, bodyType: BodyType, extraQuery = ''): Request {
  const { call: sweepCall, token } = plan;
  const auth: Record<string, string> = token ? { Authorization: `Bearer ${token}` } : {};
  if (sweepCall.method === 'GET') {
    const query = new URLSearchParams(stringsOf(fields)).toString() + extraQuery;
    return new Request(`${BASE}${sweepCall.path}${query ? `?${query}` : ''}`, { headers: auth });
  }
  const url = BASE + sweepCall.path;
  if (bodyType === 'form') return new Request(url, { method: sweepCall.method, headers: auth, body: new URLSearchParams(stringsOf(fields)) });
  if (bodyType === 'multipart') {
    const form = new FormData();
    for (const [key, value] of stringsOf(fields)) form.append(key, value);
    form.append('item_images[]', new File([PNG], 'floor.png'));
    return new Request(url, { method: sweepCall.method, headers: auth, body: form });
  }
  return new Request(url, { method: sweepCall.method, headers: { ...auth, 'Content-Type': 'application/json' }, body: serializeJson(fields) });
}

/** The call's valid example as it is sent (JSON when the body may be JSON). */
export function exampleRequest(plan: CallPlan): Request {
  return requestOf(plan, plan.example ?? {}, bodyTypesOf(plan)[0] ?? 'json');
}

/** A short copy of what was sent: a slice would keep the whole (1 MB) string alive in every case. */
const describeValue = (value: unknown) => {
  if (value === undefined) return '(missing)';
  const text = value instanceof RawNumber ? value.text : typeof value === 'string' ? JSON.stringify(value.slice(0, 61)) : serializeJson(value);
  const length = typeof value === 'string' ? value.length : text.length;
  const short = Buffer.from(text.slice(0, 60)).toString();
  return length > 60 ? `${short}…(${length} chars)` : short;
};

const EXTRA_KEYS = ['__proto__', 'constructor', 'prototype', '$where', 'store_id[]', 'k'.repeat(300), 'a.b', ''];

/** Extra fields and noise on the fields other than the target. */
const surroundings = (plan: CallPlan, target: string | undefined) =>
  fc.record({
    noisy: fc.subarray(Object.keys(plan.example ?? {}).filter((name) => name !== target)),
    noiseValues: fc.array(noise, { minLength: 8, maxLength: 8 }),
    extras: fc.subarray(EXTRA_KEYS, { maxLength: 2 }),
  });

function withSurroundings(example: Example, s: { noisy: string[]; noiseValues: unknown[]; extras: string[] }, chance: boolean): Example {
  const fields: Example = { ...example };
  if (!chance) return fields;
  s.noisy.forEach((name, index) => {
    fields[name] = s.noiseValues[index % s.noiseValues.length];
  });
  for (const [index, key] of s.extras.entries()) Object.defineProperty(fields, key, { value: s.noiseValues[(index + 3) % s.noiseValues.length], enumerable: true, configurable: true, writable: true });
  return fields;
}

/** A field of the valid example replaced by a value no such field may take (or left out when required). */
function fieldCases(plan: CallPlan): fc.Arbitrary<SweepCase> | null {
  const { example } = plan;
  if (!example) return null;
  const bodyTypes = plan.call.method === 'GET' ? (['json'] as BodyType[]) : bodyTypesOf(plan);
  const targets = Object.entries(plan.fields).filter(([name, info]) => name in example && (info.kind !== 'any' || info.required));
  if (targets.length === 0 || bodyTypes.length === 0) return null;
  return fc
    .tuple(fc.constantFrom(...targets), fc.constantFrom(...bodyTypes), fc.boolean())
    .chain(([[target, info], bodyType, surrounded]) => {
      const wire: Wire = plan.call.method === 'GET' || bodyType !== 'json' ? 'text' : 'json';
      const choices = [{ weight: 6, arbitrary: badValues(info, wire) }];
      if (info.required) choices.push({ weight: 1, arbitrary: fc.constant(undefined) });
      const edges = edgeValues(info, plan.call.method !== 'GET');
      if (edges.length) choices.push({ weight: 2, arbitrary: fc.constantFrom(...edges).map((edge) => (wire === 'text' ? String(edge) : edge)) });
      return fc.tuple(fc.constant(target), fc.constant(bodyType), fc.oneof(...choices), surroundings(plan, target), fc.constant(surrounded), fc.constant(info));
    })
    .map(([target, bodyType, value, drawn, surrounded, info]) => {
      const edge = (typeof value === 'number' || typeof value === 'string') && COLUMN_EDGES.includes(Number(value));
      const refused = !edge || outsideBounds(info, Number(value));
      // A multipart part without a name makes the whole body unreadable: a body case, not a field's.
      const s = bodyType === 'multipart' ? { ...drawn, extras: drawn.extras.filter((key) => key !== '') } : drawn;
      const fields = withSurroundings(plan.example!, s, surrounded);
      if (value === undefined) delete fields[target];
      else fields[target] = value;
      return {
        callId: plan.call.id,
        family: value === undefined ? 'missing field' : edge ? 'column edge' : 'bad field',
        summary: `${bodyType} ${target}=${describeValue(value)}${surrounded ? ` noise on [${s.noisy.join(', ')}] extras [${s.extras.map((key) => JSON.stringify(key.slice(0, 12))).join(', ')}]` : ''}`,
        expect: refused ? { refused: true, target } : { refused: false },
        request: () => requestOf(plan, fields, bodyType),
      } satisfies SweepCase;
    });
}

/** Bodies that are not what the call reads: broken JSON, JSON that is not an object, and the valid example under the wrong content type. */
function bodyCases(plan: CallPlan): fc.Arbitrary<SweepCase> | null {
  const input = plan.call.input;
  if (!input || input.in !== 'body' || !plan.example) return null;
  const { call: sweepCall, token } = plan;
  const auth: Record<string, string> = token ? { Authorization: `Bearer ${token}` } : {};
  const exampleJson = serializeJson(plan.example);
  const brokenJson = fc.constantFrom('{', '{"a":', '[1,]', "{'a':1}", '\u0000', '', 'nul', `${exampleJson}}`, `${exampleJson.slice(0, -1)}`, '[]', '1', '"x"', 'null', 'true', '['.repeat(20_000) + ']'.repeat(20_000));
  const sends = fc.oneof(
    brokenJson.map((body) => ({ type: 'application/json', body: body as string | Uint8Array, label: `json ${describeValue(body)}` })),
    fc.constantFrom('text/plain', 'application/xml', 'multipart/form-data', 'text/html; charset=utf-8', 'application/octet-stream', 'application/x-www-form-urlencoded', 'application/json-patch+json', '').map((type) => ({
      type,
      body: (type === 'application/x-www-form-urlencoded' ? exampleJson : type === 'application/xml' ? '<a><b>1</b></a>' : type === '' ? new TextEncoder().encode(exampleJson) : exampleJson) as string | Uint8Array,
      label: `the valid example as ${type || 'no content type'}`,
    })),
    fc.constantFrom('a=%zz&&=&%', '%%%', '=', 'a'.repeat(10_000)).map((body) => ({ type: 'application/x-www-form-urlencoded', body: body as string | Uint8Array, label: `form ${describeValue(body)}` })),
    fc.constantFrom(
      { type: 'multipart/form-data; boundary=x', body: '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n' as string | Uint8Array, label: 'truncated multipart' },
      { type: 'multipart/form-data; boundary=x', body: '--x\r\nContent-Disposition: form-data; name=""\r\n\r\nv\r\n--x--\r\n' as string | Uint8Array, label: 'multipart with an unnamed part' },
    ),
  );
  const gzipped = input.encoding === 'json-gzip'
    ? fc.constantFrom(
        { type: 'application/json', body: new Uint8Array([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3, 1, 2, 3]), label: 'broken gzip', gzip: true },
        { type: 'application/json', body: new Uint8Array(gzipSync(' '.repeat(9 * MiB))), label: 'gzip of 9 MB', gzip: true },
        { type: 'application/json', body: new Uint8Array(gzipSync('{"readings": 5}')), label: 'gzip of a bad batch', gzip: true },
      )
    : null;
  const arbitrary = gzipped ? fc.oneof(sends.map((send) => ({ ...send, gzip: false })), gzipped) : sends.map((send) => ({ ...send, gzip: false }));
  return arbitrary.map(({ type, body, label, gzip }) => ({
    callId: sweepCall.id,
    family: 'bad body',
    summary: label,
    expect: { refused: true },
    request: () => {
      const headers: Record<string, string> = { ...auth };
      if (type) headers['Content-Type'] = type;
      if (gzip) headers['Content-Encoding'] = 'gzip';
      return new Request(BASE + sweepCall.path, { method: sweepCall.method, headers, body: (typeof body === 'string' ? new TextEncoder().encode(body) : body) as BodyInit });
    },
  }));
}

/** A name a write takes (a store's, a user's, a sensor's, a notice's title …), at any depth of the example. */
const NAME_KEY = /(^|_)(name|names|title)$/;

function namePaths(value: unknown, at: (string | number)[] = []): (string | number)[][] {
  if (Array.isArray(value)) return value.flatMap((item, index) => namePaths(item, [...at, index]));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, item]) => {
    if (NAME_KEY.test(key) && typeof item === 'string') return [[...at, key]];
    if (NAME_KEY.test(key) && Array.isArray(item) && item.every((element) => typeof element === 'string')) return item.map((_, index) => [...at, key, index]);
    return namePaths(item, [...at, key]);
  });
}

/** Control characters a name must refuse (nameText): a mail header or line, a terminal's escape, DEL, C1's NEL. */
const NAME_CONTROLS = ['\r\nBcc: probe@evil.example', '\n', '\r', '\t', '\u001b[31m', '\u007f', '\u0085', '\u0008'];

function withValueAt(example: Example, path: (string | number)[], value: unknown): Example {
  const copy = structuredClone(example) as Record<string | number, unknown>;
  let place = copy;
  for (const step of path.slice(0, -1)) place = place[step] as Record<string | number, unknown>;
  place[path[path.length - 1]] = value;
  return copy as Example;
}

/** Names a write's body carries back as a list gave them but never stores (the server names the sensor from its own row). */
const ECHOED_NAMES: Readonly<Record<string, readonly string[]>> = { saveAlertSchedule: ['equipment_name'] };

/** A write's name with a control character added: refused, naming the name. */
function nameControlCases(plan: CallPlan): fc.Arbitrary<SweepCase> | null {
  if (plan.call.method === 'GET' || !plan.example) return null;
  const echoed = ECHOED_NAMES[plan.call.id] ?? [];
  const paths = namePaths(plan.example).filter((path) => !path.some((step) => echoed.includes(String(step))));
  const bodyTypes = bodyTypesOf(plan);
  if (paths.length === 0 || bodyTypes.length === 0) return null;
  return fc.tuple(fc.constantFrom(...paths), fc.constantFrom(...NAME_CONTROLS), fc.constantFrom(...bodyTypes), fc.boolean()).map(([path, control, bodyType, before]) => {
    const original = path.reduce<unknown>((value, step) => (value as Record<string | number, unknown>)[step], plan.example);
    const value = before ? `${control}${String(original)}` : `${String(original)}${control}`;
    const target = path.join('.');
    return {
      callId: plan.call.id,
      family: 'control character in a name',
      summary: `${bodyType} ${target}=${describeValue(value)}`,
      expect: { refused: true, target },
      request: () => requestOf(plan, withValueAt(plan.example!, path, value), bodyType),
    } satisfies SweepCase;
  });
}

/** JSON bodies in Shift_JIS (CP932), the valid example's Japanese text included: refused, never stored as U+FFFD. */
function encodingCases(plan: CallPlan): fc.Arbitrary<SweepCase> | null {
  const input = plan.call.input;
  if (!input || input.in !== 'body' || !plan.example || !bodyTypesOf(plan).includes('json')) return null;
  const exampleJson = serializeJson(plan.example);
  // A body of ASCII only is the same bytes in both: it is valid UTF-8 and must go through.
  if ([...exampleJson].every((char) => char.charCodeAt(0) < 0x80)) return null;
  const auth: Record<string, string> = plan.token ? { Authorization: `Bearer ${plan.token}` } : {};
  return fc.constantFrom('application/json', 'application/json; charset=shift_jis', 'application/json; charset=utf-8').chain((type) =>
    fc.boolean().map((gzip) => ({
      callId: plan.call.id,
      family: 'Shift_JIS body',
      summary: `the valid example in Shift_JIS as ${type}${gzip ? ', gzipped' : ''}`,
      expect: { refused: true },
      request: () => {
        const bytes = toShiftJis(exampleJson);
        const zipped = gzip && input.encoding === 'json-gzip';
        const headers: Record<string, string> = { ...auth, 'Content-Type': type, ...(zipped ? { 'Content-Encoding': 'gzip' } : {}) };
        return new Request(BASE + plan.call.path, { method: plan.call.method, headers, body: (zipped ? new Uint8Array(gzipSync(bytes)) : bytes) as BodyInit });
      },
    })),
  );
}

/** The imports past their size: more stores or sensors than allowed, a gzipped body that unpacks past the limit. */
function oversizeImportCases(plan: CallPlan): fc.Arbitrary<SweepCase> | null {
  const input = plan.call.input;
  if (!input || input.in !== 'body' || input.encoding !== 'json-gzip' || !plan.example || !plan.call.path.endsWith('/import')) return null;
  const example = plan.example as Record<string, unknown>;
  const list = Array.isArray(example.stores) ? 'stores' : 'sensors';
  const limit = list === 'stores' ? IMPORT_MAX_STORES : IMPORT_MAX_SENSORS;
  const auth: Record<string, string> = plan.token ? { Authorization: `Bearer ${plan.token}` } : {};
  const send = (body: Uint8Array, gzip: boolean) =>
    new Request(BASE + plan.call.path, { method: plan.call.method, headers: { ...auth, 'Content-Type': 'application/json', ...(gzip ? { 'Content-Encoding': 'gzip' } : {}) }, body: body as BodyInit });
  const item = (example[list] as unknown[])[0];
  return fc.constantFrom('too many', 'unpacks too large').map((kind) => ({
    callId: plan.call.id,
    family: 'oversize import',
    summary: kind === 'too many' ? `${limit + 1} ${list}, gzipped` : `a gzipped body of ${IMPORT_MAX_BYTES + 1} bytes once unpacked`,
    expect: { refused: true, ...(kind === 'too many' ? { target: list } : {}) },
    request: () =>
      kind === 'too many'
        ? send(new Uint8Array(gzipSync(JSON.stringify({ ...example, [list]: Array.from({ length: limit + 1 }, () => item) }))), true)
        : send(new Uint8Array(gzipSync(`{"${list}":[],"padding":"${' '.repeat(IMPORT_MAX_BYTES)}"}`)), true),
  }));
}

/** Read calls: every field may get a value that may be valid, plus raw query junk; any answer but a 5xx. */
function readNoiseCases(plan: CallPlan): fc.Arbitrary<SweepCase> | null {
  if (plan.call.method !== 'GET') return null;
  const junk = fc.constantFrom('', '&%zz=1', '&&&', '&=', '&store_id', '&%E0%A4%A=1', '&a=%00', '&equipment_id=1&equipment_id=%00');
  return fc.tuple(surroundings(plan, undefined), junk, fc.dictionary(fc.constantFrom('store_id', 'equipment_id', 'page_no', 'x'), noise, { maxKeys: 2 })).map(([s, extra, added]) => {
    const fields = { ...withSurroundings(plan.example ?? {}, s, true), ...added };
    return {
      callId: plan.call.id,
      family: 'read noise',
      summary: `query ${describeValue(new URLSearchParams(stringsOf(fields)).toString() + extra)}`,
      expect: { refused: false },
      request: () => requestOf(plan, fields, 'json', extra),
    } satisfies SweepCase;
  });
}

/** Unknown /on-reco/v1 paths with odd segments: 404 JSON. */
export function unknownPathCases(token: string): fc.Arbitrary<SweepCase> {
  return fc.tuple(fc.oneof(noise.map(String), fc.constantFrom('%00', '..%2F..%2Fetc', '%ED%A0%80', '%', 'stores%00', '%F0%9F%98%80')), fc.constantFrom('GET', 'POST')).map(([segment, method]) => ({
    callId: 'unknownPath',
    family: 'unknown path',
    summary: `${method} /on-reco/v1/${describeValue(segment)}`,
    expect: { refused: true },
    request: () => new Request(`${BASE}/on-reco/v1/${/%/.test(segment) ? segment : encodeURIComponent(segment)}`, { method, headers: { Authorization: `Bearer ${token}` } }),
  }));
}

/** The cases of one call: its fields, its bodies, its read noise, as the call has them. */
export function casesOf(plan: CallPlan): fc.Arbitrary<SweepCase> {
  const families = [fieldCases(plan), bodyCases(plan), readNoiseCases(plan), nameControlCases(plan), encodingCases(plan), oversizeImportCases(plan)];
  const weights = [6, 2, 3, 2, 1, 1];
  const present = families.map((arbitrary, index) => ({ arbitrary, weight: weights[index] })).filter((entry): entry is { arbitrary: fc.Arbitrary<SweepCase>; weight: number } => entry.arbitrary !== null);
  if (present.length === 0) throw new Error(`${plan.call.id}: no bad-input case can be made (a call with input needs a valid example in tests/support/bad-input.ts)`);
  return fc.oneof(...present);
}

/**
 * The calls in an order where a write that goes through spoils no other call's cases: the
 * gateway's calls before pairing again revokes its token, the PIN's use before it is reissued,
 * the removal of the gateway, the administrator's password and the sign-out (which revokes the
 * sweep's token) last.
 */
export function inSafeOrder<T extends { call: ApiCall }>(plans: T[]): T[] {
  const order = ['getGatewayConfig', 'postReadings', 'postHeardSensors', 'postHealth', 'getGatewayRelease', 'postUpdateFailure', 'pairGateway', '*', 'removeGateway', 'exchangeStoreGateway', 'changePassword', 'revokeToken'];
  const rank = (id: string) => (order.includes(id) ? order.indexOf(id) : order.indexOf('*'));
  return [...plans].sort((a, b) => rank(a.call.id) - rank(b.call.id));
}

/** A call's own seed, so that the cases of a call are the same whether or not others are swept (SWEEP_CALLS). */
const seedOf = (seed: number, callId: string) => [...callId].reduce((hash, char) => (Math.imul(hash, 31) + char.charCodeAt(0)) | 0, seed);

/** `count` cases drawn with `seed`, spread evenly over the calls (and the unknown paths), grouped by call; `only` names the calls to sweep. */
export function sweepCases(plans: CallPlan[], token: string, count: number, seed: number, only?: readonly string[]): Map<string, SweepCase[]> {
  const byCall = new Map<string, SweepCase[]>();
  // A write without input (the sign-out) has nothing to sweep.
  const sweepable = plans.filter((plan) => plan.call.input || plan.call.method === 'GET');
  const arbitraries: [string, fc.Arbitrary<SweepCase>][] = [...inSafeOrder(sweepable).map((plan) => [plan.call.id, casesOf(plan)] as [string, fc.Arbitrary<SweepCase>]), ['unknownPath', unknownPathCases(token)]];
  const each = Math.ceil(count / arbitraries.length);
  for (const [id, arbitrary] of arbitraries) if (!only || only.includes(id)) byCall.set(id, fc.sample(arbitrary, { seed: seedOf(seed, id), numRuns: each }));
  return byCall;
}

// ---- answers ----------------------------------------------------------------------------------

/** Why the answer breaks the case's expectation, or null. */
export async function problemOf(sweepCase: SweepCase, response: Response): Promise<string | null> {
  const { status } = response;
  if (status >= 500) return `answered ${status}: ${(await response.text()).slice(0, 200)}`;
  if (status < 400) return sweepCase.expect.refused ? `answered ${status}, not a refusal` : null;
  // The sweep's tokens are valid: a 401 means a case changed them (a write that went through) or never reached the input.
  if (status === 401) return `answered 401: the sweep's token was refused (${(await response.text()).slice(0, 120)})`;
  const type = response.headers.get('Content-Type') ?? '';
  if (!type.startsWith('application/json')) return `answered ${status} with ${type || 'no content type'}, not the JSON error shape`;
  const body = (await response.json()) as Record<string, unknown>;
  if (typeof body.error !== 'string' || typeof body.error_description !== 'string') return `answered ${status} ${JSON.stringify(body).slice(0, 200)}, not {error, error_description}`;
  const target = sweepCase.expect.refused ? sweepCase.expect.target : undefined;
  if (target && status === 400 && body.error === 'invalid_request') {
    const fields = Object.keys((body.fields ?? {}) as Record<string, string>);
    if (!fields.some((field) => field === target || field.startsWith(`${target}.`))) return `answered 400 naming [${fields.join(', ')}], not ${target}: ${body.error_description}`;
  }
  return null;
}

/** The answer of a case, or a timeout: in process, through the route module. */
export async function answerOf(sweepCase: SweepCase, handler: ApiRouteFunction, timeoutMs: number): Promise<Response> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    return await Promise.race([call(handler as never, sweepCase.request()), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Bookkeeping that a refused request may write: failed sign-in, passcode and pairing counters. */
const BOOKKEEPING = new Set(['request_limits', 'gateway_pair_attempts', 'kysely_migration', 'kysely_migration_lock']);
const REFERENCE = new Set(['regions', 'prefectures', 'authorities', 'equipment_kinds', 'sensor_models', 'measure_target_equipment_kinds']);

/** One md5 per table of the data (not the reference tables nor the throttles' counters). */
export async function tableChecksums(db: Db): Promise<Record<string, string>> {
  const { rows: tables } = await sql<{ name: string }>`
    select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relispartition order by 1`.execute(db);
  const names = tables.map((table) => table.name).filter((name) => !BOOKKEEPING.has(name) && !REFERENCE.has(name));
  const selects = names.map((name) => sql`select ${name} as name, coalesce(md5(string_agg(t::text, ',' order by t::text)), '') as sum from ${sql.table(name)} t`);
  const { rows } = await sql<{ name: string; sum: string }>`${sql.join(selects, sql` union all `)}`.execute(db);
  return Object.fromEntries(rows.map((row) => [row.name, row.sum]));
}

export function changedTables(before: Record<string, string>, after: Record<string, string>): string[] {
  return Object.keys(after).filter((name) => before[name] !== after[name]);
}

export interface SweepFailure {
  callId: string;
  family: string;
  summary: string;
  problem: string;
}

/** Runs the cases call by call; a call's batch must leave every data table as it found it. */
export async function runSweep(db: Db, cases: Map<string, SweepCase[]>, timeoutMs: number): Promise<{ count: number; failures: SweepFailure[] }> {
  const failures: SweepFailure[] = [];
  let count = 0;
  for (const [callId, batch] of cases) {
    const declared = API_CALLS.find((candidate) => candidate.id === callId);
    const handler = declared ? await handlerOf(declared) : await unknownPathHandler();
    const before = await tableChecksums(db);
    for (const sweepCase of batch) {
      count += 1;
      let problem: string | null;
      try {
        problem = await problemOf(sweepCase, await answerOf(sweepCase, handler, timeoutMs));
      } catch (error) {
        problem = `threw ${error instanceof Error ? error.message : String(error)}`.slice(0, 300);
      }
      if (problem) failures.push({ callId, family: sweepCase.family, summary: sweepCase.summary, problem });
    }
    const changed = changedTables(before, await tableChecksums(db));
    if (changed.length) failures.push({ callId, family: 'database', summary: `${batch.length} cases`, problem: `changed ${changed.join(', ')}` });
  }
  return { count, failures };
}

export function reportOf(failures: SweepFailure[], limit = 40): string {
  return failures
    .slice(0, limit)
    .map((failure) => `${failure.callId} [${failure.family}] ${failure.summary}\n    → ${failure.problem}`)
    .join('\n');
}
