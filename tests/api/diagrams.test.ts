import { beforeEach, describe, expect, it } from 'vitest';
import { MAX_DIAGRAM_BYTES } from '~/domain/diagram';
import { action as uploadAction, loader as listLoader } from '~/routes/on-reco+/v1.diagram';
import { loader as imageLoader } from '~/routes/on-reco+/v1.diagram.image';
import { action as positionAction } from '~/routes/on-reco+/v1.equipments.position';
import { action as setDiagramAction } from '~/routes/on-reco+/v1.stores.diagram';
import { loader as consoleImageLoader } from '~/routes/resources+/diagram-image';
import { loader as pdfjsLoader } from '~/routes/resources+/pdfjs.$';
import { action as editorAction } from '~/routes/_app+/stores.$storeId+/sensor_diagrams.edit';
import { action as loginAction } from '~/routes/_auth+/login';
import { TEST_PASSWORD, countRows, createSensor, createStore, createUser } from '../fixtures/chain';
import { resetDb, testDb } from '../support/db';
import { BASE, call, get, postForm, postJson, tokenFor } from '../support/requests';

const db = testDb();
beforeEach(() => resetDb());

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
const PDF = new TextEncoder().encode('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
const SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1200 500"><rect width="1200" height="500" fill="#fff"/></svg>';

function upload(token: string, storeId: string | null, files: { name: string; content: BlobPart; type?: string }[]): Request {
  const form = new FormData();
  if (storeId !== null) form.append('store_id', storeId);
  for (const file of files) form.append('item_images[]', new File([file.content], file.name, { type: file.type ?? 'application/octet-stream' }));
  return new Request(`${BASE}/on-reco/v1/diagram`, { method: 'POST', headers: { Authorization: `Bearer ${token}` }, body: form });
}

async function insertDiagram(storeId: string | null, name: string, content = SVG, contentType = 'image/svg+xml') {
  const bytes = Buffer.from(content);
  const row = await db.insertInto('diagrams').values({ store_id: storeId, diagram_name: name, content_type: contentType, byte_size: bytes.length, content: bytes }).returning('diagram_id').executeTakeFirstOrThrow();
  return row.diagram_id;
}

/** Two stores; `area` sees S001 only; `store` is a store user of S001; `admin` sees all. */
async function chain() {
  await createStore(db, 'S001');
  await createStore(db, 'S002');
  await createUser(db, 'admin', 1);
  await createUser(db, 'area', 30, { storeIds: ['S001'] });
  await createUser(db, 'store', 101, { storeIds: ['S001'] });
  return {
    admin: await tokenFor('admin', TEST_PASSWORD),
    area: await tokenFor('area', TEST_PASSWORD),
    store: await tokenFor('store', TEST_PASSWORD),
  };
}

describe('POST /v1/diagram', () => {
  it('stores files typed by their content: a .png-named PDF is a PDF; answers the created diagrams and audits', async () => {
    const tokens = await chain();
    const response = await call(uploadAction, upload(tokens.area, 'S001', [
      { name: 'floor.png', content: PDF, type: 'image/png' },
      { name: 'plan.svg', content: SVG },
      { name: 'photo.bin', content: PNG },
    ]));
    expect(response.status).toBe(201);
    const created = await response.json();
    expect(created.map((d: { diagram_name: string; content_type: string }) => [d.diagram_name, d.content_type])).toEqual([
      ['floor.png', 'application/pdf'],
      ['plan.svg', 'image/svg+xml'],
      ['photo.bin', 'image/png'],
    ]);
    const stored = await db.selectFrom('diagrams').select(['store_id', 'content_type', 'byte_size', 'created_by']).orderBy('diagram_id').execute();
    expect(stored[0]).toMatchObject({ store_id: 'S001', content_type: 'application/pdf', byte_size: PDF.byteLength });
    expect(await db.selectFrom('audit_log').select(['action', 'store_id']).where('action', '=', 'diagram.upload').execute()).toHaveLength(3);
    // Uploading does not change the store's diagram by itself.
    expect((await db.selectFrom('stores').select('diagram_id').where('store_id', '=', 'S001').executeTakeFirstOrThrow()).diagram_id).toBeNull();
  });

  it('rejects an SVG with <script> or an onload handler with 400, storing nothing', async () => {
    const tokens = await chain();
    for (const svg of [
      '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.cookie)</script></svg>',
      '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect/></svg>',
      '<svg xmlns="http://www.w3.org/2000/svg"><foreignObject><p>x</p></foreignObject></svg>',
    ]) {
      const response = await call(uploadAction, upload(tokens.admin, 'S001', [{ name: 'plan.svg', content: svg, type: 'image/svg+xml' }]));
      expect(response.status).toBe(400);
      const body = await response.json();
      expect(body.error).toBe('invalid_request');
      expect(body.fields).toHaveProperty(['item_images[]']);
    }
    // One bad file refuses the whole call.
    const mixed = await call(uploadAction, upload(tokens.admin, 'S001', [{ name: 'ok.png', content: PNG }, { name: 'bad.svg', content: '<svg xmlns="http://www.w3.org/2000/svg"><script/></svg>' }]));
    expect(mixed.status).toBe(400);
    expect(await countRows(db, 'diagrams')).toBe(0);
  });

  it('rejects unknown types, a missing file, a missing store_id and more than 10 MB', async () => {
    const tokens = await chain();
    const gif = await call(uploadAction, upload(tokens.admin, 'S001', [{ name: 'plan.png', content: 'GIF89a...', type: 'image/png' }]));
    expect(gif.status).toBe(400);
    const none = await call(uploadAction, upload(tokens.admin, 'S001', []));
    expect(none.status).toBe(400);
    const noStore = await call(uploadAction, upload(tokens.admin, null, [{ name: 'a.png', content: PNG }]));
    expect(noStore.status).toBe(400);
    expect((await noStore.json()).fields).toHaveProperty('store_id');
    const big = new Uint8Array(MAX_DIAGRAM_BYTES + 1);
    big.set(PNG);
    const oversize = await call(uploadAction, upload(tokens.admin, 'S001', [{ name: 'big.png', content: big }]));
    expect(oversize.status).toBe(413);
    expect((await oversize.json()).error).toBe('payload_too_large');
    const notMultipart = await call(uploadAction, postJson('/on-reco/v1/diagram', { store_id: 'S001' }, tokens.admin));
    expect(notMultipart.status).toBe(400);
    expect(await countRows(db, 'diagrams')).toBe(0);
  });

  it('is refused to store users (403) and for stores the caller cannot see (404)', async () => {
    const tokens = await chain();
    expect((await call(uploadAction, upload(tokens.store, 'S001', [{ name: 'a.png', content: PNG }]))).status).toBe(403);
    const hidden = await call(uploadAction, upload(tokens.area, 'S002', [{ name: 'a.png', content: PNG }]));
    expect(hidden.status).toBe(404);
    expect((await call(uploadAction, upload(tokens.admin, 'NOPE', [{ name: 'a.png', content: PNG }]))).status).toBe(404);
    expect(await countRows(db, 'diagrams')).toBe(0);
  });
});

describe('GET /v1/diagram', () => {
  it('lists the store own diagrams, newest first, then the templates, never another store', async () => {
    const tokens = await chain();
    const template = await insertDiagram(null, 'コンビニ標準');
    const older = await insertDiagram('S001', '旧図面');
    const newer = await insertDiagram('S001', '新図面');
    await insertDiagram('S002', '他店の図面');
    const list = await (await call(listLoader, get('/on-reco/v1/diagram?store_id=S001', tokens.area))).json();
    expect(list).toEqual([
      { diagram_id: newer, diagram_name: '新図面' },
      { diagram_id: older, diagram_name: '旧図面' },
      { diagram_id: template, diagram_name: 'コンビニ標準' },
    ]);
    // store users read (the show page), but only their stores
    expect((await call(listLoader, get('/on-reco/v1/diagram?store_id=S001', tokens.store))).status).toBe(200);
    expect((await call(listLoader, get('/on-reco/v1/diagram?store_id=S002', tokens.area))).status).toBe(404);
    expect((await call(listLoader, get('/on-reco/v1/diagram', tokens.area))).status).toBe(400);
  });
});

describe('GET /v1/diagram/image', () => {
  it('serves the file with its content type and headers that keep an SVG from running script', async () => {
    const tokens = await chain();
    const svg = await insertDiagram('S001', 'plan.svg');
    const response = await call(imageLoader, get(`/on-reco/v1/diagram/image?diagram_id=${svg}`, tokens.store));
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toBe('image/svg+xml');
    expect(response.headers.get('Content-Security-Policy')).toBe("default-src 'none'; style-src 'unsafe-inline'; sandbox");
    expect(response.headers.get('X-Content-Type-Options')).toBe('nosniff');
    expect(response.headers.get('Content-Disposition')).toMatch(/^inline; /);
    expect(await response.text()).toBe(SVG);
  });

  it('serves a PDF as a PDF whatever its name, and a download with the right extension', async () => {
    const tokens = await chain();
    const created = await (await call(uploadAction, upload(tokens.admin, 'S001', [{ name: '図面.png', content: PDF }]))).json();
    const id = created[0].diagram_id;
    const response = await call(imageLoader, get(`/on-reco/v1/diagram/image?diagram_id=${id}&download=1`, tokens.area));
    expect(response.headers.get('Content-Type')).toBe('application/pdf');
    expect(response.headers.get('Content-Disposition')).toBe(`attachment; filename="__.pdf"; filename*=UTF-8''${encodeURIComponent('図面.pdf')}`);
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(PDF);
  });

  it('serves templates to anyone signed in, and answers 404 for another store or an unknown id', async () => {
    const tokens = await chain();
    const template = await insertDiagram(null, 'template');
    const other = await insertDiagram('S002', 'other');
    expect((await call(imageLoader, get(`/on-reco/v1/diagram/image?diagram_id=${template}`, tokens.store))).status).toBe(200);
    const denied = await call(imageLoader, get(`/on-reco/v1/diagram/image?diagram_id=${other}`, tokens.area));
    expect(denied.status).toBe(404);
    expect(await denied.text()).not.toContain('<svg');
    expect((await call(imageLoader, get('/on-reco/v1/diagram/image?diagram_id=999999', tokens.admin))).status).toBe(404);
    expect((await call(imageLoader, get(`/on-reco/v1/diagram/image?diagram_id=${other}`, tokens.admin))).status).toBe(200);
    const bad = await call(imageLoader, get('/on-reco/v1/diagram/image?diagram_id=abc', tokens.admin));
    expect(bad.status).toBe(400);
    expect((await bad.json()).fields).toHaveProperty('diagram_id');
    expect((await call(imageLoader, get(`/on-reco/v1/diagram/image?diagram_id=${template}`))).status).toBe(401);
  });

  it('has a console copy on the session cookie that redirects without one', async () => {
    await chain();
    const id = await insertDiagram('S001', 'plan.svg');
    const response = await call(consoleImageLoader, get(`/resources/diagram-image?diagram_id=${id}`));
    expect(response.status).toBe(302);
    expect(response.headers.get('Location')).toBe('/login');
  });
});

describe('POST /v1/stores/diagram', () => {
  it('sets the store diagram to its own file or a template, clears it with 0, and audits', async () => {
    const tokens = await chain();
    const own = await insertDiagram('S001', 'own');
    const template = await insertDiagram(null, 'template');
    const storeDiagram = async () => (await db.selectFrom('stores').select('diagram_id').where('store_id', '=', 'S001').executeTakeFirstOrThrow()).diagram_id;
    const set = async (body: unknown, token = tokens.area) => call(setDiagramAction, postJson('/on-reco/v1/stores/diagram', body, token));
    expect((await set({ store_id: 'S001', diagram_id: own })).status).toBe(200);
    expect(await storeDiagram()).toBe(own);
    expect(await (await set({ store_id: 'S001', diagram_id: template })).json()).toEqual({ store_id: 'S001', diagram_id: template });
    expect(await storeDiagram()).toBe(template);
    expect((await set({ store_id: 'S001', diagram_id: 0 })).status).toBe(200);
    expect(await storeDiagram()).toBeNull();
    expect(await db.selectFrom('audit_log').select('action').where('action', '=', 'store.diagram.set').execute()).toHaveLength(3);
  });

  it('refuses another store diagram, hidden stores, store users and bad input', async () => {
    const tokens = await chain();
    const other = await insertDiagram('S002', 'other');
    const own = await insertDiagram('S001', 'own');
    const set = async (body: unknown, token = tokens.area) => call(setDiagramAction, postJson('/on-reco/v1/stores/diagram', body, token));
    expect((await set({ store_id: 'S001', diagram_id: other }, tokens.admin)).status).toBe(404);
    expect((await set({ store_id: 'S002', diagram_id: other })).status).toBe(404);
    expect((await set({ store_id: 'S001', diagram_id: own }, tokens.store)).status).toBe(403);
    const bad = await set({ store_id: 'S001', diagram_id: 'x' });
    expect(bad.status).toBe(400);
    expect((await bad.json()).fields).toHaveProperty('diagram_id');
    expect((await db.selectFrom('stores').select('diagram_id').where('store_id', '=', 'S001').executeTakeFirstOrThrow()).diagram_id).toBeNull();
  });
});

describe('POST /v1/equipments/position', () => {
  const position = async (id: number) => db.selectFrom('sensors').select(['position_x', 'position_y']).where('equipment_id', '=', id).executeTakeFirstOrThrow();

  it('saves one position, removes with (0, 0), and saves an array in one transaction', async () => {
    const tokens = await chain();
    const a = await createSensor(db, 'S001', 'AA:BB:CC:DD:EE:01');
    const b = await createSensor(db, 'S001', 'AA:BB:CC:DD:EE:02');
    const one = await call(positionAction, postJson('/on-reco/v1/equipments/position', { equipment_id: a, position_x: 110, position_y: 180 }, tokens.area));
    expect(one.status).toBe(200);
    expect(await position(a)).toEqual({ position_x: 110, position_y: 180 });
    const many = await call(positionAction, postJson('/on-reco/v1/equipments/position', [{ equipment_id: a, position_x: 0, position_y: 0 }, { equipment_id: b, position_x: 1200, position_y: 500 }], tokens.area));
    expect(many.status).toBe(200);
    expect((await many.json()).saved).toBe(2);
    expect(await position(a)).toEqual({ position_x: 0, position_y: 0 });
    expect(await position(b)).toEqual({ position_x: 1200, position_y: 500 });
    expect(await db.selectFrom('audit_log').select('action').where('action', '=', 'sensor.position.save').execute()).toHaveLength(2);
  });

  it('checks the range and changes nothing when one item is bad or not visible', async () => {
    const tokens = await chain();
    const a = await createSensor(db, 'S001', 'AA:BB:CC:DD:EE:01');
    const hidden = await createSensor(db, 'S002', 'AA:BB:CC:DD:EE:02');
    const outOfMap = await call(positionAction, postJson('/on-reco/v1/equipments/position', { equipment_id: a, position_x: 1300, position_y: 10 }, tokens.area));
    expect(outOfMap.status).toBe(400);
    expect((await outOfMap.json()).fields).toHaveProperty('position_x');
    const notVisible = await call(positionAction, postJson('/on-reco/v1/equipments/position', [{ equipment_id: a, position_x: 5, position_y: 5 }, { equipment_id: hidden, position_x: 5, position_y: 5 }], tokens.area));
    expect(notVisible.status).toBe(404);
    expect(await notVisible.text()).not.toContain('S002');
    expect(await position(a)).toEqual({ position_x: 0, position_y: 0 });
    expect((await call(positionAction, postJson('/on-reco/v1/equipments/position', { equipment_id: 999999, position_x: 5, position_y: 5 }, tokens.admin))).status).toBe(404);
    expect((await call(positionAction, postJson('/on-reco/v1/equipments/position', { equipment_id: a, position_x: 5, position_y: 5 }, tokens.store))).status).toBe(403);
    expect(await position(a)).toEqual({ position_x: 0, position_y: 0 });
  });

  it('refuses a 21st placed sensor but lets a store move or remove what it has', async () => {
    const tokens = await chain();
    const ids: number[] = [];
    for (let i = 1; i <= 21; i += 1) ids.push(await createSensor(db, 'S001', `AA:BB:CC:DD:EE:${String(i).padStart(2, '0')}`, { location_no: i }));
    const first20 = ids.slice(0, 20).map((id, i) => ({ equipment_id: id, position_x: 50 + i * 50, position_y: 100 }));
    expect((await call(positionAction, postJson('/on-reco/v1/equipments/position', first20, tokens.admin))).status).toBe(200);
    const twentyFirst = await call(positionAction, postJson('/on-reco/v1/equipments/position', { equipment_id: ids[20], position_x: 600, position_y: 300 }, tokens.admin));
    expect(twentyFirst.status).toBe(400);
    expect(await position(ids[20])).toEqual({ position_x: 0, position_y: 0 });
    // moving a placed one, and swapping (one off, one on in the same call) are fine
    expect((await call(positionAction, postJson('/on-reco/v1/equipments/position', { equipment_id: ids[0], position_x: 700, position_y: 400 }, tokens.admin))).status).toBe(200);
    const swap = [{ equipment_id: ids[0], position_x: 0, position_y: 0 }, { equipment_id: ids[20], position_x: 700, position_y: 400 }];
    expect((await call(positionAction, postJson('/on-reco/v1/equipments/position', swap, tokens.admin))).status).toBe(200);
    expect(await position(ids[20])).toEqual({ position_x: 700, position_y: 400 });
  });

  it('answers 400 with the field for malformed input', async () => {
    const tokens = await chain();
    for (const [body, field] of [
      [{ position_x: 1, position_y: 1 }, 'equipment_id'],
      [{ equipment_id: 1, position_x: 'left', position_y: 1 }, 'position_x'],
      [{ equipment_id: 1, position_x: 1, position_y: -5 }, 'position_y'],
    ] as const) {
      const response = await call(positionAction, postJson('/on-reco/v1/equipments/position', body, tokens.admin));
      expect(response.status).toBe(400);
      expect((await response.json()).fields).toHaveProperty(field);
    }
    const notJson = await call(positionAction, new Request(`${BASE}/on-reco/v1/equipments/position`, { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${tokens.admin}` }, body: '{' }));
    expect(notJson.status).toBe(400);
  });
});

describe('the placement editor (/stores/{store_id}/sensor_diagrams/edit)', () => {
  const storeDiagram = async () => (await db.selectFrom('stores').select('diagram_id').where('store_id', '=', 'S001').executeTakeFirstOrThrow()).diagram_id;
  async function save(diagramId: number, positions: unknown[]) {
    const login = await call(loginAction, postForm('/login', { username: 'area', password: TEST_PASSWORD }));
    const cookie = login.headers.get('Set-Cookie')!.split(';')[0];
    const fields = { intent: 'positions', diagram_id: String(diagramId), positions: JSON.stringify(positions) };
    return call(editorAction, postForm('/stores/S001/sensor_diagrams/edit', fields, { Cookie: cookie }), { storeId: 'S001' });
  }

  it('makes the diagram the store diagram and saves the positions together', async () => {
    await chain();
    const template = await insertDiagram(null, 'template');
    const a = await createSensor(db, 'S001', 'AA:BB:CC:DD:EE:01');
    const response = await save(template, [{ equipment_id: a, position_x: 300, position_y: 200 }]);
    expect(response.status).toBe(200);
    expect(await storeDiagram()).toBe(template);
    expect(await db.selectFrom('sensors').select(['position_x', 'position_y']).where('equipment_id', '=', a).executeTakeFirstOrThrow()).toEqual({ position_x: 300, position_y: 200 });
  });

  it('leaves the store diagram unchanged when the positions are refused', async () => {
    await chain();
    const before = await insertDiagram('S001', 'before');
    await db.updateTable('stores').set({ diagram_id: before }).where('store_id', '=', 'S001').execute();
    const template = await insertDiagram(null, 'template');
    const own = await createSensor(db, 'S001', 'AA:BB:CC:DD:EE:01');
    const otherStore = await createSensor(db, 'S002', 'AA:BB:CC:DD:EE:02');
    // A sensor of another store: the positions step fails after the diagram choice.
    const foreign = await save(template, [{ equipment_id: own, position_x: 300, position_y: 200 }, { equipment_id: otherStore, position_x: 400, position_y: 200 }]);
    expect(foreign.status).toBe(404);
    expect(await storeDiagram()).toBe(before);
    // A 21st placed sensor: refused after the positions were written, all of it rolled back.
    const ids: number[] = [];
    for (let i = 2; i <= 22; i += 1) ids.push(await createSensor(db, 'S001', `AA:BB:CC:DD:EE:${String(i).padStart(2, '0')}`));
    const tooMany = await save(template, ids.map((id, i) => ({ equipment_id: id, position_x: 50 + i * 50, position_y: 100 })));
    expect(tooMany.status).toBe(400);
    expect(await storeDiagram()).toBe(before);
    expect(await db.selectFrom('sensors').select('equipment_id').where('position_x', '!=', 0).execute()).toEqual([]);
    expect(await db.selectFrom('audit_log').select('action').execute()).toEqual([]);
  });
});

describe('pdf.js files', () => {
  it('serves the worker and data files, and nothing else', async () => {
    const worker = await call(pdfjsLoader, get('/resources/pdfjs/build/pdf.worker.min.mjs'), { '*': 'build/pdf.worker.min.mjs' });
    expect(worker.status).toBe(200);
    expect(worker.headers.get('Content-Type')).toBe('text/javascript');
    const cmap = await call(pdfjsLoader, get('/resources/pdfjs/cmaps/UniJIS-UTF16-H.bcmap'), { '*': 'cmaps/UniJIS-UTF16-H.bcmap' });
    expect(cmap.status).toBe(200);
    expect((await call(pdfjsLoader, get('/resources/pdfjs/build/pdf.min.mjs'), { '*': 'build/pdf.min.mjs' })).status).toBe(200);
    for (const path of ['../package.json', 'build/../../../etc/passwd', 'package.json', 'build/pdf.mjs', 'build/pdf.sandbox.min.mjs']) {
      expect((await call(pdfjsLoader, get(`/resources/pdfjs/${path}`), { '*': path })).status).toBe(404);
    }
  });
});
