import { readdirSync } from 'node:fs';
import path from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { API_CALLS, type ApiCall, defineCall, jsonAnswer, NOT_CALLS, registryOf, type Schema } from '~/domain/api';
import { toCompactDateTime } from '~/domain/japan-time';
import type { ApiRouteFunction } from '~/http/api-route.server';
import { openApiDocument } from '~/http/openapi.server';
import { TEST_PASSWORD, createSensor, createStore, createUser, issuePin } from '../fixtures/chain';
import { undeclaredAnswer } from '../support/api-answers';
import { resetDb, testDb } from '../support/db';
import { BASE, call, get, postJson, tokenFor } from '../support/requests';

const ROUTES_DIR = path.resolve(__dirname, '../../app/routes/on-reco+');
const db = testDb();

/** The URL path remix-flat-routes gives a file of on-reco+/: dots separate segments, `[.]` is a literal dot. */
function pathOfRouteFile(file: string): string {
  const stem = file.replace(/\.tsx?$/, '');
  const segments = stem.match(/(?:\[[^\]]*\]|[^.])+/g) ?? [];
  for (const segment of segments) if (/^[$_]|\$/.test(segment)) throw new Error(`${file}: a parameter or pathless segment; teach pathOfRouteFile how to read it`);
  return `/on-reco/${segments.map((segment) => segment.replace(/\[([^\]]*)\]/g, '$1')).join('/')}`;
}

type RouteModule = { loader?: ApiRouteFunction; action?: ApiRouteFunction };

async function routeFiles() {
  const files = readdirSync(ROUTES_DIR).filter((file) => /\.tsx?$/.test(file) && !(file in NOT_CALLS));
  return Promise.all(files.map(async (file) => ({ file, path: pathOfRouteFile(file), module: (await import(path.join(ROUTES_DIR, file))) as RouteModule })));
}

/** The field names of an input schema (through effects, pipes, unions and arrays). */
function fieldsOf(schema: Schema): string[] {
  if (schema instanceof z.ZodObject) return Object.keys(schema.shape);
  if (schema instanceof z.ZodEffects) return fieldsOf(schema.innerType());
  if (schema instanceof z.ZodPipeline) return fieldsOf(schema._def.in);
  if (schema instanceof z.ZodUnion) return (schema.options as Schema[]).flatMap(fieldsOf);
  if (schema instanceof z.ZodArray) return fieldsOf(schema.element);
  return [];
}

function inputFieldsOf(call: ApiCall): string[] {
  const input = call.input;
  if (!input) return [];
  if (input.in === 'query') return fieldsOf(typeof input.schema === 'function' ? input.schema(new Date()) : input.schema);
  return fieldsOf(input.documented ?? input.schema);
}

const key = (call: Pick<ApiCall, 'method' | 'path'>) => `${call.method} ${call.path}`;

describe('the API registry', () => {
  it('declares each call once, with the store and referenced-id fields its input has', () => {
    expect(new Set(API_CALLS.map((call) => call.id)).size).toBe(API_CALLS.length);
    expect(new Set(API_CALLS.map(key)).size).toBe(API_CALLS.length);
    for (const call of API_CALLS) {
      const fields = inputFieldsOf(call);
      if (call.input) expect(call.input.in, `${call.id}: GET takes a query, other methods a body`).toBe(call.method === 'GET' ? 'query' : 'body');
      if (call.access.kind === 'user' && call.access.store) expect(fields, `${call.id}: its store field`).toContain(call.access.store);
      for (const field of Object.keys(call.references ?? {})) expect(fields, `${call.id}: its referenced-id field`).toContain(field);
    }
  });

  it('fills a declaration\'s defaults and refuses an id exported under another name or declared twice', () => {
    const declare = (id: string) => defineCall(id, 'GET /on-reco/v1/thing', { summary: 'A thing', answer: jsonAnswer(z.object({}), 'The thing.') });
    expect(declare('getThing')).toMatchObject({ id: 'getThing', method: 'GET', path: '/on-reco/v1/thing', access: { kind: 'user' }, answer: { statuses: [200] } });
    expect(() => defineCall('getThing', 'GET /v1/thing' as never, { summary: 'A thing', answer: jsonAnswer(z.object({}), 'The thing.') })).toThrow(/not a METHOD \/on-reco/);
    const getThing = declare('getThing');
    expect(registryOf({ things: { getThing, THING_LIMIT: 5 } })).toEqual({ things: [getThing] });
    expect(() => registryOf({ things: { getThing: declare('getThings') } })).toThrow('api/things: getThing is declared with the id getThings');
    expect(() => registryOf({ things: { getThing: declare('getThing') }, stuff: { getThing: declare('getThing') } })).toThrow('api/stuff: getThing is declared in api/things too');
  });

  it('has a route for every declaration and a declaration for every route', async () => {
    const served: string[] = [];
    for (const { file, path: routePath, module } of await routeFiles()) {
      expect(module.loader?.apiCalls, `${file}: its loader is not made from a declaration (apiLoader or apiNotAllowed)`).toBeDefined();
      expect(module.action?.apiCalls, `${file}: its action is not made from a declaration (apiAction or apiNotAllowed)`).toBeDefined();
      for (const declared of module.loader!.apiCalls) {
        expect(declared.method, `${file}: the loader serves GET`).toBe('GET');
        expect(declared.path, `${file}: the loader's call is at the file's path`).toBe(routePath);
        served.push(key(declared));
      }
      for (const declared of module.action!.apiCalls) {
        expect(declared.method, `${file}: the action serves other methods than GET`).not.toBe('GET');
        expect(declared.path, `${file}: the action's call is at the file's path`).toBe(routePath);
        served.push(key(declared));
      }
    }
    expect(served.sort()).toEqual(API_CALLS.map(key).sort());
  });

  it('reads route paths as remix-flat-routes does', () => {
    expect(pathOfRouteFile('v1.stores.pin.ts')).toBe('/on-reco/v1/stores/pin');
    expect(pathOfRouteFile('openapi[.]json.ts')).toBe('/on-reco/openapi.json');
    expect(() => pathOfRouteFile('v1.$.ts')).toThrow();
    expect(Object.keys(NOT_CALLS)).toEqual(['v1.$.ts', 'docs.ts']);
  });

  it('generates an OpenAPI 3.1 description that validates, with both bearer schemes and each call\'s access', async () => {
    const document = openApiDocument();
    const result = await new Validator().validate(document as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(document.openapi).toBe('3.1.0');
    expect(document.components?.securitySchemes).toEqual({
      userToken: expect.objectContaining({ type: 'http', scheme: 'bearer' }),
      gatewayToken: expect.objectContaining({ type: 'http', scheme: 'bearer' }),
    });
    for (const declared of API_CALLS) {
      const operation = document.paths?.[declared.path]?.[declared.method.toLowerCase() as 'get' | 'post'];
      expect(operation, key(declared)).toBeDefined();
      expect(operation!.operationId).toBe(declared.id);
      expect(operation!['x-onreco-access']).toEqual(declared.access);
      expect(Object.keys(operation!.responses ?? {})).toEqual(expect.arrayContaining(declared.answer.statuses.map(String)));
      if (declared.access.kind !== 'public') expect(operation!.responses?.['401'], `${declared.id}: 401`).toBeDefined();
    }
    const pin = document.paths?.['/on-reco/v1/stores/pin']?.get;
    expect(pin?.security).toEqual([{ userToken: [] }]);
    expect(pin?.['x-onreco-access']).toEqual({ kind: 'user', permission: 'storeManagement', store: 'store_id' });
    expect(Object.keys(pin?.responses ?? {})).toEqual(expect.arrayContaining(['200', '400', '401', '403', '404', '405']));
    expect(document.paths?.['/on-reco/v1/gateway/readings']?.post?.security).toEqual([{ gatewayToken: [] }]);
    expect(document.paths?.['/on-reco/token']?.post?.security).toEqual([]);
  });
});

describe('the registry glue', () => {
  beforeEach(() => resetDb());

  it('serves the description at GET /on-reco/openapi.json, to anyone, cacheable', async () => {
    const { loader } = await import('~/routes/on-reco+/openapi[.]json');
    const response = await call(loader, get('/on-reco/openapi.json'));
    expect(response.status).toBe(200);
    expect(response.headers.get('Cache-Control')).toMatch(/^public/);
    expect((await response.json()).paths['/on-reco/v1/store_list'].get.operationId).toBe('listStores');
  });

  it('answers 405 with the declared methods in Allow for any other method', async () => {
    const pin = await import('~/routes/on-reco+/v1.stores.pin');
    const company = await import('~/routes/on-reco+/v1.company');
    const removal = await import('~/routes/on-reco+/v1.equipments.removal');
    const put = await call(pin.action, postJson('/on-reco/v1/stores/pin', { store_id: 'S001' }, undefined, 'PUT'));
    expect(put.status).toBe(405);
    expect(put.headers.get('Allow')).toBe('GET, POST');
    expect(await put.json()).toEqual({ error: 'method_not_allowed', error_description: 'Use GET or POST.' });
    const posted = await call(company.action, postJson('/on-reco/v1/company', {}));
    expect([posted.status, posted.headers.get('Allow')]).toEqual([405, 'GET']);
    const read = await call(removal.loader, get('/on-reco/v1/equipments/removal'));
    expect([read.status, read.headers.get('Allow')]).toEqual([405, 'POST']);
  });

  it('authenticates, enforces the permission, parses and checks the store as declared, in that order', async () => {
    const pin = await import('~/routes/on-reco+/v1.stores.pin');
    await createStore(db, 'S001');
    await createStore(db, 'S002');
    await createUser(db, 'admin', 1);
    await createUser(db, 'store1', 101, { storeIds: ['S001'] });
    await createUser(db, 'case', 20, { storeIds: ['S001'] });
    const users = await import('~/routes/on-reco+/v1.store_users');
    const status = async (handler: ApiRouteFunction, request: Request) => {
      const response = await call(handler, request);
      return [response.status, (await response.json()).error];
    };
    expect(await status(pin.loader, get('/on-reco/v1/stores/pin'))).toEqual([401, 'invalid_token']);
    expect(await status(pin.loader, get('/on-reco/v1/stores/pin', await tokenFor('store1', TEST_PASSWORD)))).toEqual([403, 'forbidden']);
    expect(await status(pin.loader, get('/on-reco/v1/stores/pin', await tokenFor('admin', TEST_PASSWORD)))).toEqual([400, 'invalid_request']);
    expect(await status(pin.loader, get('/on-reco/v1/stores/pin?store_id=S999', await tokenFor('admin', TEST_PASSWORD)))).toEqual([404, 'not_found']);
    expect(await status(users.loader, get('/on-reco/v1/store_users?store_id=S002', await tokenFor('case', TEST_PASSWORD)))).toEqual([404, 'not_found']);
    expect(await status(users.loader, get('/on-reco/v1/store_users?store_id=S001', await tokenFor('case', TEST_PASSWORD)))).toEqual([200, undefined]);
  });

  it('answers what each call declares, for a chain with a store, a sensor, readings, an alert and a gateway', async () => {
    await createStore(db, 'S001', { working_state: 0 });
    const equipmentId = await createSensor(db, 'S001', 'AA:BB:CC:00:00:01', { upper_limit: 10 });
    const adminId = await createUser(db, 'admin', 1);
    const admin = await tokenFor('admin', TEST_PASSWORD);
    const pinCode = await issuePin(db, 'S001', '246810');
    const route = (name: string) => import(`../../app/routes/on-reco+/${name}.ts`) as Promise<RouteModule>;
    const paired = await call((await route('v1.gateway.pair')).action!, postJson('/on-reco/v1/gateway/pair', { gateway_info: 'GW-S001', pin_code: pinCode }));
    const gatewayToken = (await paired.json()).gateway_token;
    const at = toCompactDateTime(new Date(Math.floor(Date.now() / 60_000) * 60_000 - 5 * 60_000));
    const readings = [{ serial_no: 'AA:BB:CC:00:00:01', measured_at: at, temperature: 25.5, error: false, battery: 80, receive_sensitivity: -60 }];
    const ids = `equipment_id=${equipmentId}`;
    const cases: [string, 'loader' | 'action', Request][] = [
      ['v1.gateway.readings', 'action', postJson('/on-reco/v1/gateway/readings', { readings }, gatewayToken)],
      ['v1.gateway.config', 'loader', get('/on-reco/v1/gateway/config', gatewayToken)],
      ['v1.store_list', 'loader', get('/on-reco/v1/store_list', admin)],
      ['v1.stores', 'loader', get('/on-reco/v1/stores?store_id=S001', admin)],
      ['v1.stores.pin', 'loader', get('/on-reco/v1/stores/pin?store_id=S001', admin)],
      ['v1.stores.pin', 'action', postJson('/on-reco/v1/stores/pin', { store_id: 'S001' }, admin)],
      ['v1.store_users', 'loader', get('/on-reco/v1/store_users?store_id=S001', admin)],
      ['v1.store_sensors', 'loader', get('/on-reco/v1/store_sensors?store_id=S001&include_hidden=1', admin)],
      ['v1.equipments', 'loader', get(`/on-reco/v1/equipments?${ids}`, admin)],
      ['v1.equipments.measurement', 'loader', get(`/on-reco/v1/equipments/measurement?${ids}`, admin)],
      ['v1.equipments.measurement.csv', 'loader', get(`/on-reco/v1/equipments/measurement/csv?${ids}&since=${at}&until=${at}`, admin)],
      ['v1.alert_history.alert_status', 'loader', get(`/on-reco/v1/alert_history/alert_status?${ids}`, admin)],
      ['v1.alert_history', 'loader', get('/on-reco/v1/alert_history?store_id=S001', admin)],
      ['v1.alert_history.csv', 'loader', get('/on-reco/v1/alert_history/csv?store_id=S001', admin)],
      ['v1.diagram', 'loader', get('/on-reco/v1/diagram?store_id=S001', admin)],
      ['v1.equipments.position', 'action', postJson('/on-reco/v1/equipments/position', { equipment_id: equipmentId, position_x: 100, position_y: 50 }, admin)],
      ['v1.stores.diagram', 'action', postJson('/on-reco/v1/stores/diagram', { store_id: 'S001', diagram_id: 0 }, admin)],
      ['v1.region', 'loader', get('/on-reco/v1/region', admin)],
      ['v1.prefecture', 'loader', get('/on-reco/v1/prefecture?region_id=3', admin)],
      ['v1.company', 'loader', get('/on-reco/v1/company', admin)],
      ['v1.storegroup', 'loader', get('/on-reco/v1/storegroup', admin)],
      ['v1.notice', 'action', postJson('/on-reco/v1/notice', { title: 'お知らせ', content: '点検です' }, admin)],
      ['v1.notice', 'loader', get('/on-reco/v1/notice', admin)],
      ['v1.users', 'loader', get(`/on-reco/v1/users?user_id=${adminId}`, admin)],
    ];
    for (const [name, kind, request] of cases) {
      const response = await call((await route(name))[kind]!, request);
      expect(response.status, `${request.method} ${request.url}: ${response.status < 300 ? '' : await response.clone().text()}`).toBeLessThan(300);
      expect(await undeclaredAnswer(request, response)).toBeNull();
    }
    const alerts = await call((await route('v1.alert_history')).loader!, get('/on-reco/v1/alert_history?store_id=S001', admin));
    expect((await alerts.json()).all_count).toBeGreaterThan(0);
  });

  it('notices an answer its declaration does not describe', async () => {
    const request = get('/on-reco/v1/region');
    expect(await undeclaredAnswer(request, Response.json([{ region_id: 1, region_name: '北海道' }]))).toBeNull();
    expect(await undeclaredAnswer(request, Response.json([{ region_id: '1', region_name: '北海道' }]))).toMatch(/GET \/on-reco\/v1\/region \(listRegions\) answered 200 outside its declared answer: 0\.region_id/);
    expect(await undeclaredAnswer(request, Response.json([{ region_id: 1, region_name: '北海道', extra: true }]))).toMatch(/Unrecognized key/);
    expect(await undeclaredAnswer(request, new Response('a,b', { headers: { 'Content-Type': 'text/csv' } }))).toMatch(/not JSON/);
    expect(await undeclaredAnswer(get('/on-reco/v1/alert_history/csv'), Response.json({}))).toMatch(/not one of text\/csv/);
    expect(await undeclaredAnswer(new Request(`${BASE}/on-reco/v1/notice`, { method: 'POST' }), Response.json({}, { status: 200 }))).toMatch(/not one of the declared 201/);
  });
});
