import { existsSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import path from 'node:path';
import { sql } from 'kysely';
import type { Db } from '../../app/db/db.server';
import { type ForeignKey, parentsFirst, readSchemaShape } from '../../app/db/distribute.server';
import type { ApiCall, Reference } from '../../app/domain/api';
import { type Permission, can, seesAllStores } from '../../app/domain/roles';
import type { ApiRouteFunction } from '../../app/http/api-route.server';
import { createLoginSession } from '../../app/http/session.server';
import { type Caller, type Side, type World, SIDES, WORLD_RELEASE, markerOf, otherSide } from '../fixtures/access-world';
import { TEST_PASSWORD } from '../fixtures/chain';
import { REFERENCE_TABLES } from './db';
import { BASE, call as callRoute } from './requests';

// The access matrix, generated from the API registry (app/domain/api/): every declared call ×
// every caller of the world (tests/fixtures/access-world.ts) × the chain each store or
// referenced id is taken from. The expected answer is derived from the declaration's access
// (public, gateway, user with a permission and a store field) and its references, by DESIGN.md's
// rule: a store, sensor, diagram or group of a chain one may not see "does not exist" (404), a
// capability one lacks is 403, no valid token is 401. Calls whose service decides more (the
// store save, a user's record) say so in their sample's rule. A call without a sample fails.

// ---- the database: snapshots, restores and checksums of every non-reference table ----

const SNAPSHOT_SCHEMA = 'access_matrix_snapshot';

async function worldTables(db: Db): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`
    select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relispartition order by c.relname`.execute(db);
  return rows.map((row) => row.name).filter((name) => !REFERENCE_TABLES.has(name));
}

/**
 * The tables in an order that inserts parents before children (foreign keys), and the foreign
 * keys of a cycle (stores ↔ diagrams), whose columns are restored by an update after the inserts.
 */
async function parentsFirstOf(db: Db, tables: string[]) {
  return parentsFirst(tables, (await readSchemaShape(db)).foreignKeys);
}

/** The statements that put the snapshot back: delete children first, insert parents first, then a cycle's columns. */
async function restoreStatements(db: Db, tables: string[]): Promise<string> {
  const { ordered, cyclic } = await parentsFirstOf(db, tables);
  const { rows: columns } = await sql<{ table: string; column: string }>`
    select table_name::text as table, column_name::text as column from information_schema.columns
    where table_schema = 'public' and is_generated = 'NEVER' order by ordinal_position`.execute(db);
  const { rows: keys } = await sql<{ table: string; columns: string[] }>`
    select i.indrelid::regclass::text as table, array(select a.attname::text from pg_attribute a where a.attrelid = i.indrelid and a.attnum = any(i.indkey)) as columns
    from pg_index i where i.indisprimary`.execute(db);
  const deferred = (table: string) => cyclic.filter((key) => key.child === table).flatMap((key) => key.columns);
  const insert = (table: string) => {
    const names = columns.filter((column) => column.table === table).map((column) => column.column);
    const values = names.map((name) => (deferred(table).includes(name) ? 'null' : name));
    return `insert into public.${table} (${names.join(', ')}) overriding system value select ${values.join(', ')} from ${SNAPSHOT_SCHEMA}.${table};`;
  };
  const update = ({ child, columns: deferredColumns }: ForeignKey) => {
    const key = keys.find((row) => row.table === child)?.columns;
    if (!key) throw new Error(`${child}: a table in a foreign-key cycle needs a primary key to be restored`);
    return `update public.${child} t set ${deferredColumns.map((column) => `${column} = s.${column}`).join(', ')} from ${SNAPSHOT_SCHEMA}.${child} s where ${key.map((column) => `t.${column} = s.${column}`).join(' and ')};`;
  };
  // A trigger on stores would list the restored stores twice: the list's entries are restored as they
  // were (the buckets too, which no trigger keeps: decision 283).
  return [
    'alter table stores disable trigger user;',
    ...[...ordered].reverse().map((table) => `delete from public.${table};`),
    ...ordered.map(insert),
    ...cyclic.map(update),
    'alter table stores enable trigger user;',
  ].join('\n');
}

/** The world's rows, kept aside so every allowed write can be undone and the next case starts from the same world. */
export interface WorldState {
  restore(): Promise<void>;
  /** One md5 per table: a refused write must leave every one unchanged. */
  checksums(): Promise<Record<string, string>>;
  /** Drops the kept rows (after the file). */
  drop(): Promise<void>;
}

export async function keepWorldState(db: Db): Promise<WorldState> {
  const tables = await worldTables(db);
  await sql.raw(`drop schema if exists ${SNAPSHOT_SCHEMA} cascade; create schema ${SNAPSHOT_SCHEMA}`).execute(db);
  for (const table of tables) await sql.raw(`create table ${SNAPSHOT_SCHEMA}.${table} as select * from public.${table}`).execute(db);
  const restore = await restoreStatements(db, tables);
  const checksum = tables.map((table) => `select '${table}' as name, md5(coalesce(string_agg(t::text, ',' order by t::text), '')) as sum from public.${table} t`).join(' union all ');
  return {
    restore: () => db.transaction().execute(async (trx) => void (await sql.raw(restore).execute(trx))),
    async checksums() {
      const { rows } = await sql.raw<{ name: string; sum: string }>(checksum).execute(db);
      return Object.fromEntries(rows.map((row) => [row.name, row.sum]));
    },
    drop: async () => void (await sql.raw(`drop schema if exists ${SNAPSHOT_SCHEMA} cascade`).execute(db)),
  };
}

// ---- the route of a call, and a request for it ----

const ROUTES_DIR = path.resolve(__dirname, '../../app/routes/on-reco+');

/** The route file remix-flat-routes serves a call's path from: segments joined by dots, a literal dot as [.]. */
export function routeFileOf(call: Pick<ApiCall, 'path'>): string {
  const segments = call.path.replace(/^\/on-reco\//, '').split('/');
  return `${segments.map((segment) => segment.replaceAll('.', '[.]')).join('.')}.ts`;
}

export async function handlerOf(call: ApiCall): Promise<ApiRouteFunction> {
  const file = path.join(ROUTES_DIR, routeFileOf(call));
  if (!existsSync(file)) throw new Error(`${call.id}: no route file ${routeFileOf(call)}`);
  const module = (await import(file)) as { loader?: ApiRouteFunction; action?: ApiRouteFunction };
  const handler = call.method === 'GET' ? module.loader : module.action;
  if (!handler) throw new Error(`${call.id}: ${routeFileOf(call)} has no ${call.method === 'GET' ? 'loader' : 'action'}`);
  return handler;
}

const text = (value: unknown) => (Array.isArray(value) ? value.join(',') : String(value));

/** The request of a call with this input, sent as its declaration says (query, JSON, form or multipart with a file). */
export function requestOf(call: ApiCall, input: unknown, world: World, token?: string): Request {
  const headers: Record<string, string> = token ? { Authorization: `Bearer ${token}` } : {};
  const fields = (input ?? {}) as Record<string, unknown>;
  if (call.method === 'GET') {
    const query = new URLSearchParams(Object.entries(fields).map(([key, value]) => [key, text(value)]));
    return new Request(`${BASE}${call.path}${query.size > 0 ? `?${query}` : ''}`, { headers });
  }
  const declared = call.input?.in === 'body' ? call.input : undefined;
  let body: BodyInit;
  if (declared?.encoding === 'form') {
    body = new URLSearchParams(Object.entries(fields).map(([key, value]) => [key, text(value)]));
  } else if (declared?.encoding === 'multipart') {
    const form = new FormData();
    for (const [key, value] of Object.entries(fields)) form.append(key, text(value));
    form.append(declared.files ?? 'file', new Blob([new Uint8Array(world.png)], { type: 'image/png' }), 'plan.png');
    body = form;
  } else {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(input ?? {});
  }
  return new Request(BASE + call.path, { method: call.method, headers, body });
}

export const send = (call: ApiCall, request: Request) => handlerOf(call).then((handler) => callRoute(handler, request));

// ---- what each case expects ----

export type Outcome = { allowed: true; why: string } | { allowed: false; status: 400 | 401 | 403 | 404 | 409; why: string };
export const allowed = (why: string): Outcome => ({ allowed: true, why });
export const refused = (status: 400 | 401 | 403 | 404 | 409, why: string): Outcome => ({ allowed: false, status, why });

/** The reference kinds a chain owns (regions and prefectures are everyone's). */
const OWNED: ReadonlySet<Reference> = new Set(['store', 'equipment', 'diagram', 'user', 'usergroup', 'storegroup', 'company']);

/** The input fields of a call that name a chain's thing: its store field and its owned references. */
export function chainFieldsOf(call: ApiCall): Record<string, Reference> {
  const fields: Record<string, Reference> = {};
  if (call.access.kind === 'user' && call.access.store) fields[call.access.store] = 'store';
  for (const [field, kind] of Object.entries(call.references ?? {})) if (OWNED.has(kind)) fields[field] = kind;
  return fields;
}

export interface CaseContext {
  world: World;
  caller: Caller;
  /** The chain each chain field is taken from. */
  sides: Record<string, Side>;
  /** The id for an input field: its chain's thing for a chain field, a fixed one for a region or prefecture. */
  ref(field: string): string | number;
  /** A value no other case uses (new store ids, numbers, names). */
  unique: string;
}

export interface Sample {
  name?: string;
  input(context: CaseContext): unknown;
  /** Reference fields that only filter a list: an id one may not use answers 2xx with nothing of it (the leak check still runs). */
  filters?: readonly string[];
  /** Fields whose ids must be of one store (a sensor or diagram of the named store): from two chains, 404 even for staff. */
  together?: readonly string[];
  /** Reference fields this sample fills with a new value, not an existing id. */
  fresh?: readonly string[];
  /** The call's own rule where its service decides beyond the declaration (given the derived outcome). */
  rule?(context: CaseContext, derived: Outcome): Outcome;
}

const sees = (caller: Caller, side: Side) => caller.sees.includes(side);
const isUser = (caller: Caller) => caller.kind === 'user';

/** The outcome the declaration and DESIGN.md's table give. */
export function derivedOutcome(call: ApiCall, sample: Sample, { caller, sides }: CaseContext): Outcome {
  const { access } = call;
  if (access.kind === 'public') return allowed('a public call');
  if (access.kind === 'gateway') return caller.kind === 'gateway' ? allowed('the gateway\'s own token') : refused(401, 'not a gateway token');
  if (!isUser(caller)) return refused(401, `${caller.kind} token`);
  if (access.permission && !can(caller.authority!, access.permission)) return refused(403, `lacks ${access.permission}`);
  if (access.store && !sees(caller, sides[access.store])) return refused(404, `store of chain ${sides[access.store]} not visible`);
  const apart = new Set((sample.together ?? []).map((field) => sides[field]));
  if (apart.size > 1) return refused(404, `${sample.together!.join(' and ')} are not of one store`);
  for (const [field, side] of Object.entries(sides)) {
    if (!sees(caller, side) && !sample.filters?.includes(field)) return refused(404, `${field} of chain ${side} not visible`);
  }
  return allowed(`sees chain ${[...new Set(Object.values(sides))].join(', ') || '-'}`);
}

/** The cases of a call: with no chain field, one; else every field from A, every field from B, and each field alone from the other chain. */
export function sidesOf(call: ApiCall, sample: Sample): Record<string, Side>[] {
  const fields = Object.keys(chainFieldsOf(call)).filter((field) => !sample.fresh?.includes(field));
  if (fields.length === 0) return [{}];
  const all = (side: Side) => Object.fromEntries(fields.map((field) => [field, side])) as Record<string, Side>;
  const mixed = fields.length > 1 ? SIDES.flatMap((side) => fields.map((field) => ({ ...all(side), [field]: otherSide(side) }))) : [];
  const cases = [all('A'), all('B'), ...mixed];
  return cases.filter((sides, index) => cases.findIndex((other) => JSON.stringify(other) === JSON.stringify(sides)) === index);
}

export function contextOf(call: ApiCall, world: World, caller: Caller, sides: Record<string, Side>, unique: string, used: Set<string>): CaseContext {
  const kinds = chainFieldsOf(call);
  return {
    world,
    caller,
    sides,
    unique,
    ref(field) {
      used.add(field);
      const kind = kinds[field] ?? call.references?.[field];
      if (kind === 'region') return 3;
      if (kind === 'prefecture') return 13;
      if (!kind || !sides[field]) throw new Error(`${call.id}: ref('${field}') is not one of its chain fields (${Object.keys(kinds).join(', ') || 'none'})`);
      const chain = world.chains[sides[field]];
      const ids: Record<string, string | number> = { store: chain.store, equipment: chain.equipment, diagram: chain.diagram, user: chain.user, usergroup: chain.usergroup, storegroup: chain.storegroup, company: chain.company };
      return ids[kind];
    },
  };
}

/** Why a 2xx answer shows a chain the caller may not see (its marker in the text), or null. */
export async function leakOf(call: Pick<ApiCall, 'access'>, caller: Caller, response: Response): Promise<string | null> {
  if (call.access.kind === 'public') return null;
  const type = response.headers.get('Content-Type') ?? '';
  if (!/json|text|csv/.test(type)) return null;
  const body = await response.clone().text();
  const hidden = SIDES.filter((side) => !sees(caller, side)).find((side) => body.toUpperCase().includes(markerOf(side)));
  return hidden ? `answer shows chain ${hidden}: ${body.slice(0, 200)}` : null;
}

// ---- the samples: a valid input per call, from the world ----

/**
 * POST /v1/stores (the service decides): store users lack both capabilities (403); maintenance
 * updates but does not create (403); a store, group, store group or company of a chain one may
 * not see is 404; a store group of another company than company_id is 400; a store_id held by
 * a store one may not see is a duplicate (400).
 */
function storeSaveRule(creating: (context: CaseContext) => boolean) {
  return (context: CaseContext, derived: Outcome): Outcome => {
    const { caller, sides } = context;
    if (!isUser(caller)) return derived;
    const mayCreate = can(caller.authority!, 'masterMenu');
    if (!mayCreate && !can(caller.authority!, 'storeManagement')) return refused(403, 'neither masterMenu nor storeManagement');
    const create = creating(context);
    if (create && !mayCreate) return refused(403, 'creates without masterMenu');
    // An update sends the store's own groups too: a store of a chain one may not see brings that chain's groups.
    const groupSides = [sides.usergroup, sides.storegroup_id, sides.company_id, sides.store_id].filter(Boolean);
    const hidden = groupSides.find((side) => !sees(caller, side));
    if (hidden) return refused(404, `a group or company of chain ${hidden}`);
    if (sides.company_id !== sides.storegroup_id) return refused(400, 'the store group is not of company_id');
    // Decision 271: a chain's store-user group is tied to its chain's company by its one store, unless that store is the one saved.
    if (sides.usergroup && sides.usergroup !== sides.company_id && sides.usergroup !== sides.store_id) return refused(400, 'a user group of another company');
    if (sides.store_id && !sees(caller, sides.store_id)) return refused(400, 'store_id held by a store one may not see (duplicate)');
    return allowed(create ? 'creates in a chain of its own' : 'updates a store it sees');
  };
}

const storeEntity = (context: CaseContext, storeId: string, usergroup: number[]) => ({
  store_id: storeId,
  store_no: String(700000 + Number(context.unique)),
  store_name: `新店 ${context.unique}`,
  company_id: context.ref('company_id'),
  storegroup_id: context.ref('storegroup_id'),
  prefecture_id: context.ref('prefecture_id'),
  address: '東京都港区芝公園4-2-8',
  tel_no: '0312345678',
  opening_date: '20240401',
  closing_date: null,
  usergroup,
  gateway_info: `GW-N${context.unique}`,
});

/** POST /v1/users/edit: a user of the chain's store-user group, with the chain's company and store. */
const userEntity = (context: CaseContext, fields: Record<string, unknown>) => ({
  user_name: `利用者 ${context.unique}`,
  company_id: context.ref('company_id'),
  tel_no: '0312345678',
  mailaddress1: `user${context.unique}@example.com`,
  mailaddress2: null,
  mailaddress3: null,
  language: 'JP',
  valid_flg: 1,
  notice_flg: 1,
  alert_filter: 1,
  usergroup: [context.ref('usergroup')],
  store_id: context.ref('store_id'),
  ...fields,
});

/** A valid input per call id: every call of the registry needs one (the test fails on a call without). */
export const SAMPLES: Readonly<Record<string, Sample | readonly Sample[]>> = {
  issueToken: { input: () => ({ grant_type: 'password', username: 'mxastore', password: TEST_PASSWORD }) },
  revokeToken: { input: () => undefined },
  changePassword: {
    input: ({ caller }) => ({ login_id: caller.loginId ?? 'mxastore', old_pass: TEST_PASSWORD, new_pass: 'another_horse_battery', new_pass_verification: 'another_horse_battery' }),
  },
  requestPasscode: { input: () => ({ login_id: 'nobody_of_either_chain' }) },
  getQuietHours: { input: () => undefined },
  saveQuietHours: { input: () => ({ quiet_start: '22:00', quiet_end: '06:00' }) },
  getUser: {
    input: ({ ref }) => ({ user_id: ref('user_id') }),
    // Declared: a user reads their own record, administrators anyone's; anyone else is 403 whatever the id.
    rule: ({ caller, ref }, derived) => {
      if (!isUser(caller)) return derived;
      if (caller.authority! <= 5 || ref('user_id') === caller.userId) return allowed('an administrator or the user themself');
      return refused(403, 'another user\'s record');
    },
  },
  listRegions: { input: () => undefined },
  listPrefectures: { input: ({ ref }) => ({ region_id: ref('region_id') }) },
  listCompanies: { input: () => undefined },
  listStoregroups: { input: ({ ref }) => ({ company_id: ref('company_id') }), filters: ['company_id'] },
  listNotices: { input: () => ({}) },
  createNotice: { input: () => ({ title: '点検のお知らせ', content: '明日は点検です' }) },
  listStores: {
    input: ({ ref }) => ({ region_id: ref('region_id'), prefecture_id: ref('prefecture_id'), company_id: ref('company_id'), storegroup_id: ref('storegroup_id') }),
    filters: ['company_id', 'storegroup_id'],
  },
  getChainOverview: {
    input: ({ ref }) => ({ region_id: ref('region_id'), company_id: ref('company_id'), storegroup_id: ref('storegroup_id') }),
    filters: ['company_id', 'storegroup_id'],
  },
  getStore: { input: ({ ref }) => ({ store_id: ref('store_id') }) },
  saveStore: [
    {
      name: 'update',
      input: (context) => storeEntity(context, String(context.ref('store_id')), [Number(context.ref('usergroup')), ...context.world.chains[context.sides.store_id].storeUsergroups]),
      rule: storeSaveRule(({ caller, sides }) => !sees(caller, sides.store_id)),
    },
    {
      name: 'create',
      fresh: ['store_id'],
      // A store's user groups are never staff groups (decision 245): staff callers name none of theirs.
      input: (context) => {
        const own = context.caller.usergroup && !(context.caller.authority !== undefined && seesAllStores(context.caller.authority)) ? [context.caller.usergroup] : [];
        return storeEntity(context, `N${context.unique}`, [Number(context.ref('usergroup')), ...own]);
      },
      rule: storeSaveRule(() => true),
    },
  ],
  getStorePin: { input: ({ ref }) => ({ store_id: ref('store_id') }) },
  reissueStorePin: { input: ({ ref }) => ({ store_id: ref('store_id') }) },
  removeGateway: { input: ({ ref }) => ({ store_id: ref('store_id'), gateway_info: '' }) },
  exchangeStoreGateway: { input: ({ ref, unique }) => ({ store_id: ref('store_id'), gateway_info: `GW-X${unique}` }) },
  listStoreUsers: { input: ({ ref }) => ({ store_id: ref('store_id') }) },
  listStoreSensors: { input: ({ ref }) => ({ store_id: ref('store_id'), include_hidden: 1 }) },
  getEquipment: { input: ({ ref }) => ({ equipment_id: ref('equipment_id') }) },
  readMeasurements: { input: ({ ref }) => ({ equipment_id: ref('equipment_id') }) },
  measurementCsv: { input: ({ ref, world }) => ({ equipment_id: ref('equipment_id'), since: world.readingAt, until: world.readingAt }) },
  commentMeasurement: { input: ({ ref, world }) => ({ equipment_id: ref('equipment_id'), start_date: world.readingAt, comment: '確認済み' }) },
  listAlertHistory: { input: ({ ref }) => ({ store_id: ref('store_id'), equipment_id: ref('equipment_id') }), together: ['store_id', 'equipment_id'] },
  alertHistoryCsv: { input: ({ ref }) => ({ store_id: ref('store_id'), equipment_id: ref('equipment_id') }), together: ['store_id', 'equipment_id'] },
  stopAlert: { input: ({ ref }) => ({ equipment_id: ref('equipment_id'), alert_id: 'OE00000001', comment: '扉を閉めた' }) },
  listActiveAlerts: { input: ({ ref }) => ({ equipment_id: ref('equipment_id') }), filters: ['equipment_id'] },
  listDiagrams: { input: ({ ref }) => ({ store_id: ref('store_id') }) },
  uploadDiagrams: { input: ({ ref }) => ({ store_id: ref('store_id') }) },
  getDiagramImage: { input: ({ ref }) => ({ diagram_id: ref('diagram_id') }) },
  setStoreDiagram: { input: ({ ref }) => ({ store_id: ref('store_id'), diagram_id: ref('diagram_id') }), together: ['store_id', 'diagram_id'] },
  saveSensorPositions: { input: ({ ref }) => ({ equipment_id: ref('equipment_id'), position_x: 100, position_y: 50 }) },
  pairGateway: { input: ({ world }) => ({ gateway_info: world.chains.A.gatewayInfo, pin_code: world.chains.A.pinCode }) },
  getGatewayConfig: { input: () => undefined },
  postReadings: {
    input: ({ world }) => ({
      readings: [{ serial_no: world.chains.A.serialNo, measured_at: world.readingAt, temperature: 4.5, error: false, battery: 80, receive_sensitivity: -60 }],
    }),
  },
  getOpenApi: { input: () => undefined },
  listAudit: { input: () => ({ kind: 'store', page_no: 1 }) },
  // The system masters (001 §7): administrators only; the world's groups and companies are all in use.
  listUsergroups: { input: () => undefined },
  listUsergroupMaster: { input: ({ ref }) => ({ page_no: 1, page_count: 20, usergroup_id: ref('usergroup_id') }), filters: ['usergroup_id'] },
  saveUsergroup: [
    { name: 'update', input: ({ ref, unique }) => ({ usergroup_id: ref('usergroup_id'), usergroup_name: `店舗グループ ${unique}`, usergroup_authority: 101 }) },
    { name: 'create', fresh: ['usergroup_id'], input: ({ unique }) => ({ usergroup_name: `新グループ ${unique}`, usergroup_authority: 101 }) },
  ],
  deleteUsergroup: { input: ({ ref }) => ({ usergroup_id: ref('usergroup_id') }), rule: (_context, derived) => (derived.allowed ? refused(409, 'the group has members and stores') : derived) },
  listCompanyMaster: { input: ({ ref }) => ({ page_no: 1, page_count: 20, company_id: ref('company_id') }), filters: ['company_id'] },
  saveCompany: [
    { name: 'update', input: ({ ref, unique }) => ({ company_id: ref('company_id'), company_name: `会社 ${unique}`, mode: 'update' }) },
    { name: 'create', fresh: ['company_id'], input: ({ unique }) => ({ company_id: `NC${unique}`, company_name: `新会社 ${unique}`, mode: 'create' }) },
  ],
  deleteCompany: { input: ({ ref }) => ({ company_id: ref('company_id') }), rule: (_context, derived) => (derived.allowed ? refused(409, 'the company has stores') : derived) },
  listStoregroupMaster: {
    input: ({ ref }) => ({ page_no: 1, page_count: 20, company_id: ref('company_id'), storegroup_id: ref('storegroup_id') }),
    filters: ['company_id', 'storegroup_id'],
  },
  saveStoregroup: [
    {
      name: 'update',
      input: ({ ref, unique }) => ({ storegroup_id: ref('storegroup_id'), company_id: ref('company_id'), storegroup_name: `グループ ${unique}`, mode: 'update' }),
      rule: ({ sides }, derived) => (derived.allowed && sides.company_id !== sides.storegroup_id ? refused(409, 'moves a store group with stores to another company') : derived),
    },
    { name: 'create', fresh: ['storegroup_id'], input: ({ ref, unique }) => ({ storegroup_id: `N${unique}`, company_id: ref('company_id'), storegroup_name: `新グループ ${unique}`, mode: 'create' }) },
  ],
  deleteStoregroup: { input: ({ ref }) => ({ storegroup_id: ref('storegroup_id') }), rule: (_context, derived) => (derived.allowed ? refused(409, 'the store group has stores') : derived) },
  listUsers: { input: ({ ref }) => ({ usergroup_id: ref('usergroup_id'), user_id: ref('user_id') }), filters: ['usergroup_id', 'user_id'] },
  // The chain's store user, kept in its store-user group (the declaration's 403 and 404 are the whole rule:
  // administrators may use any chain's ids, case and area managers only their chain's store-user group).
  saveUser: [
    { name: 'update', input: (context) => userEntity(context, { user_id: context.ref('user_id'), login_id: `mx${context.sides.user_id.toLowerCase()}store` }) },
    { name: 'create', fresh: ['user_id'], input: (context) => userEntity(context, { login_id: `newuser${context.unique}` }) },
  ],
  deleteUser: { input: ({ ref }) => ({ user_id: ref('user_id') }) },
  listAuthorities: { input: () => undefined },
  listEquipments: { input: ({ ref }) => ({ store_id: ref('store_id') }) },
  saveEquipment: [
    {
      name: 'update',
      input: ({ ref }) => ({ store_id: ref('store_id'), equipment_id: ref('equipment_id'), updated_at: '2000-01-01T00:00:00.000000Z', equipment_name: '冷蔵庫', icon_kind: 3 }),
      together: ['store_id', 'equipment_id'],
      // The sample cannot know the row's updated_at: whoever reaches the row is refused as stale, and nothing changes.
      rule: (_context, derived) => (derived.allowed ? refused(409, 'a stale updated_at') : derived),
    },
    {
      name: 'register',
      // A registration names no sensor: equipment_id is left out.
      fresh: ['equipment_id'],
      input: ({ ref, unique }) => ({ store_id: ref('store_id'), serial_no: bleOfUnique(unique), equipment_name: '新しいセンサ', icon_kind: 3 }),
      rule: ({ caller }, derived) => (derived.allowed && !can(caller.authority!, 'storeManagement') ? refused(403, 'registering is storeManagement') : derived),
    },
  ],
  importEquipments: { input: ({ ref, unique }) => ({ store_id: ref('store_id'), sensors: [{ serial_no: bleOfUnique(unique), equipment_name: '取込センサ', icon_kind: 3 }] }) },
  importStores: {
    // Administrators only, who see every chain: the store is chain A's kind with chain A's groups.
    input: ({ world, unique }) => ({
      stores: [
        {
          store_id: `IMP${unique}`,
          store_no: String(800000 + Number(unique)),
          store_name: `取込店 ${unique}`,
          storegroup_id: world.chains.A.storegroup,
          prefecture_id: 13,
          address: '東京都港区芝公園4-2-8',
          opening_date: '20240401',
          usergroup: [world.chains.A.usergroup],
          gateway_info: `GW-I${unique}`,
          sensors: [{ serial_no: bleOfUnique(unique), equipment_name: '取込センサ', icon_kind: 3 }],
        },
      ],
    }),
  },
  listMeasureTargetKinds: { input: () => undefined },
  listUnregisteredSensors: { input: ({ ref }) => ({ store_id: ref('store_id') }) },
  postHeardSensors: { input: ({ world }) => ({ sensors: [{ serial_no: 'C0:FF:EE:00:00:01', format: 'atc1441', temperature: 5.5, receive_sensitivity: -70, heard_at: world.readingAt }] }) },
  listAlertSchedules: { input: ({ ref }) => ({ store_id: ref('store_id'), start_date: '20200101', end_date: '20200131' }) },
  saveAlertSchedule: {
    input: ({ ref, world, sides }) => ({
      store_id: ref('store_id'),
      schedule_id: null,
      schedule_type: 1,
      term_type: 2,
      start_date: '20200102',
      end_date: null,
      time_target_type: 2,
      times: [{ equipment_id: world.chains[sides.store_id].equipment, time_schedules: [{ start: '01:00', end: '02:30' }] }],
    }),
  },
  listEscalationPolicies: { input: () => ({}) },
  saveEscalationPolicy: { input: ({ world }) => ({ policy_name: 'アクセス確認', storegroup_id: Object.values(world.chains)[0].storegroup, alert_codes: ['OE00000001'], steps: [{ delay_minutes: 0, store_staff: true }] }) },
  deleteEscalationPolicy: { input: ({ world }) => ({ policy_id: Object.values(world.chains)[0].escalationPolicy }) },
  listWebhookEndpoints: { input: () => ({}) },
  createWebhookEndpoint: { input: () => ({ endpoint_name: 'アクセス確認', url: 'https://hooks.example.com/access', format: 'json' }) },
  deleteWebhookEndpoint: { input: ({ world }) => ({ endpoint_id: world.chains.A.webhookEndpoint }) },
  listWebhookDeliveries: { input: () => ({ state: 'dead' }) },
  retryWebhookDelivery: { input: ({ world }) => ({ delivery_id: world.chains.A.webhookDelivery }) },
  listSettingsTemplates: { input: () => ({}) },
  saveSettingsTemplate: { input: () => ({ template_name: 'アクセス確認', icon_kind: 10, lower_limit: -25, upper_limit: -15, def_time: [{ start: '02:00', end: '02:30' }] }) },
  deleteSettingsTemplate: { input: ({ world }) => ({ template_id: world.settingsTemplate }) },
  previewSettingsTemplate: { input: ({ ref, world }) => ({ template_id: world.settingsTemplate, storegroup_id: ref('storegroup_id') }) },
  applySettingsTemplate: { input: ({ ref, world }) => ({ template_id: world.settingsTemplate, storegroup_id: ref('storegroup_id') }) },
  listSettingsDivergences: { input: ({ ref }) => ({ storegroup_id: ref('storegroup_id') }) },
  acknowledgeAlert: { input: ({ ref, world, sides }) => ({ store_id: ref('store_id'), alert_history_id: world.chains[sides.store_id].alertHistory, corrective_action: '扉の閉め忘れを直した' }) },
  deleteAlertSchedule: { input: ({ ref, world, sides }) => ({ store_id: ref('store_id'), schedule_id: world.chains[sides.store_id].alertSchedule }) },
  listReportHistory: { input: ({ ref }) => ({ store_id: ref('store_id'), since: '20000101000000', until: '20991231235959' }) },
  listRegularReports: { input: ({ ref }) => ({ store_id: ref('store_id') }) },
  downloadReport: {
    // history_no names chain A's report: whoever may not see chain A's store finds no such report.
    input: ({ world }) => ({ history_no: world.chains.A.report }),
    rule: ({ caller }, derived) => (derived.allowed && !sees(caller, 'A') ? refused(404, 'a report of chain A, not visible') : derived),
  },
  saveReport: {
    input: ({ ref, world }) => ({
      store_id: ref('store_id'), setting_no: null, setting_name: '', file_name: 'daily', report_type: 3, regular_report: 0, data_interval: 10, manual_data_interval: [],
      start_time: `${world.readingAt.slice(0, 8)}000000`, end_time: `${world.readingAt.slice(0, 8)}235000`, output_format: 2, mail_flg: 0,
      option1: 0, option2: 0, option3: 0, option4: 0, option5: 0, equipment_ids: [ref('equipment_ids')], mail_addresses: [], attachment_flg: 0,
    }),
    together: ['store_id', 'equipment_ids'],
  },
  deleteRegularReport: { input: ({ ref, world, sides }) => ({ store_id: ref('store_id'), setting_no: world.chains[sides.store_id].regularReport }) },
  getHaccpRecord: { input: ({ ref, world }) => ({ store_id: ref('store_id'), date: world.readingAt.slice(0, 8) }) },
  signHaccpRecord: { input: ({ ref, world }) => ({ store_id: ref('store_id'), date: world.readingAt.slice(0, 8), note: '確認しました' }) },
  postHealth: {
    input: ({ world }) => ({
      reported_at: world.readingAt, version: '0.2.0', uptime_seconds: 3600, buffer_depth: 10, buffer_capacity: 1000, oldest_unsent_at: world.readingAt,
      disk_free_bytes: 8_000_000_000, disk_total_bytes: 16_000_000_000, ble_adapter: 'on', sensors_heard: 1, lte_rssi: -80, dropped_total: 0,
    }),
  },
  getGatewayRelease: { input: () => ({ version: WORLD_RELEASE }) },
  postUpdateFailure: { input: () => ({ version: WORLD_RELEASE, reason: 'no healthy upload within 10 minutes' }) },
  listGatewayReleases: { input: () => undefined },
  uploadGatewayRelease: { input: ({ unique }) => ({ version: `1.0.${unique}`, bundle_base64: gzipSync(`release ${unique}`).toString('base64'), signature: `${'B'.repeat(86)}==` }) },
  listGatewayRollouts: { input: () => undefined },
  startGatewayRollout: { input: ({ ref }) => ({ storegroup_id: ref('storegroup_id'), version: WORLD_RELEASE, wave_percent: 50 }) },
  pauseGatewayRollout: { input: ({ ref }) => ({ storegroup_id: ref('storegroup_id'), paused: true }) },
};

/** A BLE address of its own for a case's unique value. */
function bleOfUnique(unique: string): string {
  let hash = 0;
  for (const char of unique) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  const hex = hash.toString(16).padStart(8, '0').toUpperCase();
  return `D0:0D:${hex.slice(0, 2)}:${hex.slice(2, 4)}:${hex.slice(4, 6)}:${hex.slice(6, 8)}`;
}

export const samplesOf = (call: ApiCall): readonly Sample[] => {
  const sample = SAMPLES[call.id];
  if (!sample) throw new Error(`${call.id} has no sample input for the access matrix: add one to SAMPLES in tests/support/access-matrix.ts`);
  return Array.isArray(sample) ? sample : [sample as Sample];
};

// ---- the console: store pages and resources on a session cookie ----

/** A console route module under one of these folders, and what a case of it needs. */
export interface ConsoleRoute {
  /** The capability the page needs (where the store menu links it, the menu's). */
  permission?: Permission;
  /** Served without a session (static files). */
  public?: true;
  /** Names no store (own vs. other does not apply). */
  unscoped?: true;
  /** The route's params besides storeId (a function when they name a thing of the chain). */
  params?: Record<string, string> | ((context: ConsoleContext) => Record<string, string>);
  query?(context: ConsoleContext): Record<string, string | number>;
  /** A valid form for the route's action. */
  form?(context: ConsoleContext): Record<string, string | number>;
}

export interface ConsoleContext {
  world: World;
  chain: World['chains'][Side];
}

export const CONSOLE_DIRS = { stores: '_app+/stores.$storeId+', resources: 'resources+' } as const;

const day = (world: World) => world.readingAt.slice(0, 8);

/** Every route module of the folders: a module without an entry fails the console matrix. */
export const CONSOLE_ROUTES: Readonly<Record<string, ConsoleRoute>> = {
  'stores/_layout.tsx': {},
  'stores/master_managements.tsx': { permission: 'storeManagement', form: () => ({ intent: 'reissue_pin' }) },
  'stores/sensor_diagrams.edit.tsx': { permission: 'editDiagram', form: ({ chain }) => ({ intent: 'setDiagram', diagram_id: chain.diagram }) },
  'stores/sensor_diagrams.show.tsx': {},
  'stores/temp_graphs.tsx': { form: ({ chain, world }) => ({ equipment_id: chain.equipment, start_date: world.readingAt, comment: '確認済み' }) },
  'stores/temp_graphs[.]csv.ts': { query: ({ chain, world }) => ({ equipment_id: chain.equipment, unit: 'day', start_date: day(world) }) },
  'stores/temp_managements_image.tsx': {},
  'stores/temp_managements_list.tsx': {},
  'stores/warning_histories.tsx': { form: ({ chain }) => ({ equipment_id: chain.equipment, alert_id: 'OE00000001', comment: '扉を閉めた' }) },
  'stores/warning_histories[.]csv.ts': {},
  'stores/sensors.show.tsx': { permission: 'storeSettings' },
  // The registration form (store management); editing a sensor is storeSettings (tests/api/sensor-settings.test.ts).
  'stores/sensors.$sensorId.edit.tsx': { permission: 'storeManagement', params: { sensorId: 'new' }, form: () => ({ serial_no: 'D0:0D:00:00:00:01', equipment_name: '新しいセンサ', icon_kind: 3, time_constant: 100, disp_flg: 1 }) },
  'stores/haccp_records.tsx': { query: ({ world }) => ({ date: day(world) }), form: ({ world }) => ({ date: day(world), note: '確認しました' }) },
  'stores/haccp_records[.]pdf.ts': { query: ({ world }) => ({ month: day(world).slice(0, 6) }) },
  'resources/diagram-image.ts': { query: ({ chain }) => ({ diagram_id: chain.diagram }) },
  'resources/events.ts': { query: ({ chain }) => ({ store_id: chain.store }) },
  'resources/notices.ts': { unscoped: true },
  'resources/pdfjs.$.ts': { public: true, unscoped: true, params: { '*': 'build/pdf.min.mjs' } },
  'resources/sensor-today.ts': { query: ({ chain }) => ({ store_id: chain.store, equipment_id: chain.equipment }) },
  'resources/swagger-ui.$.ts': { public: true, unscoped: true, params: { '*': 'swagger-ui-bundle.js' } },
  // The user group filters' options: scoped by the viewer's groups, not by a store.
  'resources/usergroup-choices.ts': { permission: 'masterMenu', unscoped: true },
  'stores/store_infos.edit.tsx': {
    permission: 'storeManagement',
    form: ({ chain }) => ({
      intent: 'save', store_no: '990001', store_name: '改装店', company_id: chain.company, storegroup_id: chain.storegroup, prefecture_id: 13,
      address: '東京都港区芝公園4-2-8', tel_no: '', opening_date: '2024-04-01', closing_date: '', usergroup: chain.usergroup, gateway_info: chain.gatewayInfo,
    }),
  },
  'stores/users.create.tsx': { permission: 'masterMenu', form: ({ chain }) => userForm(chain, { login_id: 'consolenew', mailaddress1: 'consolenew@example.com' }) },
  'stores/users.$userId.edit.tsx': {
    permission: 'masterMenu',
    params: ({ chain }) => ({ userId: String(chain.user) }),
    form: ({ chain }) => userForm(chain, { login_id: `mx${chain.store.slice(2, 3).toLowerCase()}store`, mailaddress1: 'consoleedit@example.com' }),
  },
  'stores/warning_stop_time.$startDate.$endDate.tsx': {
    permission: 'storeSettings',
    params: { startDate: '20200101', endDate: '20200101' },
    form: ({ chain }) => ({ intent: 'delete', schedule_id: chain.alertSchedule }),
  },
  'stores/warning_stop_time.$startDate.$endDate_.$scheduleId.edit.tsx': {
    permission: 'storeSettings',
    params: { startDate: '20200101', endDate: '20200101', scheduleId: 'null' },
    form: () => ({ schedule_type: 1, term_type: 2, start_date: '2020-01-02', time_target_type: 1, 'cells.store': 3 }),
  },
  'stores/reports._index.tsx': { form: ({ chain }) => ({ setting_no: chain.regularReport }) },
  'stores/reports.create.tsx': {
    form: ({ chain, world }) => ({ regular_report: '0', file_name: 'daily', report_type: '3', start_date: `${day(world).slice(0, 4)}-${day(world).slice(4, 6)}-${day(world).slice(6, 8)}`, interval_mode: 'every10', output_format: '2', mail_flg: '0', equipment_ids: chain.equipment }),
  },
  'stores/reports.files.$historyNo.ts': { params: ({ chain }) => ({ historyNo: String(chain.report) }) },
  'stores/regular_report.$settingNo.edit.tsx': {
    params: ({ chain }) => ({ settingNo: String(chain.regularReport) }),
    form: ({ chain, world }) => ({ setting_name: '日報', file_name: 'daily', report_type: '3', start_date: `${day(world).slice(0, 4)}-${day(world).slice(4, 6)}-${day(world).slice(6, 8)}`, interval_mode: 'every10', output_format: '2', mail_flg: '0', equipment_ids: chain.equipment }),
  },
};

/** The store-user form as posted: the chain's store-user group and company. */
function userForm(chain: World['chains'][Side], fields: Record<string, string>): Record<string, string | number> {
  return { intent: 'save', user_name: '店舗 利用者', company_id: chain.company, tel_no: '0312345678', language: 'JP', valid_flg: 1, notice_flg: 1, alert_filter: 1, usergroup: chain.usergroup, ...fields };
}

/** The URL path of a store page file (dots separate segments, [.] is a dot, _layout is the folder's own). */
export function consolePathOf(key: string, storeId: string): string {
  const [folder, file] = key.split('/');
  const stem = file.replace(/\.tsx?$/, '').replace(/\$$/, '');
  const segments = stem === '_layout' ? [] : (stem.match(/(?:\[[^\]]*\]|[^.])+/g) ?? []).filter((segment) => segment !== '_index').map((segment) => segment.replace(/\[([^\]]*)\]/g, '$1'));
  const base = folder === 'stores' ? `/stores/${storeId}` : '/resources';
  return [base, ...segments].join('/');
}

/** The session cookie the console would hold for the caller's token (none without a token). */
export async function cookieOf(caller: Caller): Promise<string | undefined> {
  if (!caller.token) return undefined;
  const auth = { access_token: caller.token, '.expires': new Date(Date.now() + 3600_000).toUTCString(), user_id: caller.userId ?? 0 } as Parameters<typeof createLoginSession>[0];
  const response = await createLoginSession(auth, '/');
  return response.headers.get('Set-Cookie')!.split(';')[0];
}

/** A console route's request (its sample query or form) for a store of `chain`, on the caller's cookie, with the route's params. */
export function consoleRequestOf(key: string, route: ConsoleRoute, kind: 'loader' | 'action', chain: World['chains'][Side], world: World, cookie?: string) {
  const context = { world, chain };
  const query = new URLSearchParams(Object.entries(route.query?.(context) ?? {}).map(([name, value]) => [name, String(value)]));
  const url = `${BASE}${consolePathOf(key, chain.store)}${query.size > 0 ? `?${query}` : ''}`;
  const headers: Record<string, string> = cookie ? { Cookie: cookie } : {};
  const form = new URLSearchParams(Object.entries(route.form?.(context) ?? {}).map(([name, value]) => [name, String(value)]));
  const request = kind === 'loader' ? new Request(url, { headers }) : new Request(url, { method: 'POST', headers, body: form });
  const params: Record<string, string> = { ...(key.startsWith('stores/') ? { storeId: chain.store } : {}), ...(typeof route.params === 'function' ? route.params(context) : route.params) };
  return { request, params };
}

/** The outcome DESIGN.md gives a console route: /login without a session, 403 without the capability, /not_found (or 404) for a store one may not see. */
export function consoleOutcome(route: ConsoleRoute, caller: Caller, side: Side): Outcome {
  if (route.public) return allowed('a public file');
  if (caller.kind !== 'user') return refused(401, 'no session: to /login');
  if (route.permission && !can(caller.authority!, route.permission)) return refused(403, `lacks ${route.permission}`);
  if (route.unscoped || sees(caller, side)) return allowed(`sees chain ${side}`);
  return refused(404, `store of chain ${side} not visible: /not_found`);
}

/** Whether the answer is the outcome: 401 reads as a redirect to /login, 404 as a redirect to /not_found or a 404. */
export function meetsOutcome(outcome: Outcome, response: Response): boolean {
  const location = response.headers.get('Location') ?? '';
  const redirected = response.status >= 300 && response.status < 400;
  if (outcome.allowed) return response.status < 400 && !/^\/(login|not_found)\b/.test(location);
  if (outcome.status === 401) return redirected && location.startsWith('/login');
  if (outcome.status === 404) return response.status === 404 || (redirected && location === '/not_found');
  return response.status === outcome.status;
}
