import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDb, type Db } from '../../app/db/db.server';
import { placementFor } from '../../app/domain/diagram';
import { allowFailedLoads, launchBrowser, login, newPage, screenshot } from '../support/browser';

// The store diagram and the placement editor against the demo chain. Every change a test makes
// (positions, uploads, the store's diagram) is put back afterwards.

let browser: Browser;
let db: Db;
let withDiagram: string; // the storeuser's store (新宿西口店): a diagram with placed sensors
let withoutDiagram: string; // an operating store without a diagram
const restore: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  browser = await launchBrowser();
  db = createDb(inject('databaseUrl'), 2);
  withDiagram = (await db.selectFrom('stores').select('store_id').where('store_name', 'like', '%新宿西口店').executeTakeFirstOrThrow()).store_id;
  withoutDiagram = (await db.selectFrom('stores').select('store_id').where('diagram_id', 'is', null).where('working_state', '=', 1).orderBy('store_id').executeTakeFirstOrThrow()).store_id;
});

afterAll(async () => {
  for (const undo of restore.reverse()) await undo();
  await db?.destroy();
  await browser?.close();
});

/** Puts a store's diagram and its sensors' positions back as they are now. */
async function rememberStore(storeId: string) {
  const store = await db.selectFrom('stores').select('diagram_id').where('store_id', '=', storeId).executeTakeFirstOrThrow();
  const sensors = await db.selectFrom('sensors').select(['equipment_id', 'position_x', 'position_y']).where('store_id', '=', storeId).execute();
  const diagrams = await db.selectFrom('diagrams').select('diagram_id').where('store_id', '=', storeId).execute();
  restore.push(async () => {
    await db.updateTable('stores').set({ diagram_id: store.diagram_id }).where('store_id', '=', storeId).execute();
    for (const sensor of sensors) await db.updateTable('sensors').set({ position_x: sensor.position_x, position_y: sensor.position_y }).where('equipment_id', '=', sensor.equipment_id).execute();
    const known = diagrams.map((d) => d.diagram_id);
    let extra = db.deleteFrom('diagrams').where('store_id', '=', storeId);
    if (known.length > 0) extra = extra.where('diagram_id', 'not in', known);
    await extra.execute();
  });
}

async function waitForDiagram(page: Page) {
  const image = page.getByTestId('diagram-image');
  await image.waitFor();
  await page.waitForFunction(() => {
    const img = document.querySelector<HTMLImageElement>('[data-testid="diagram-image"]');
    return img !== null && img.complete && img.naturalWidth > 0;
  });
  return image;
}

/** A 1200 × 500 PNG floor plan drawn by the browser itself. */
async function pngFloorPlan(): Promise<Buffer> {
  const page = await newPage(browser, { width: 1200, height: 500 });
  await page.setContent(`<body style="margin:0"><div style="width:1200px;height:500px;background:#f8fafc;border:6px solid #334155;box-sizing:border-box;font:32px sans-serif;position:relative">
    <div style="position:absolute;left:40px;top:40px;width:500px;height:90px;background:#bfdbfe;border:2px solid #1e3a8a">リーチイン冷蔵</div>
    <div style="position:absolute;left:700px;top:300px;width:400px;height:120px;background:#fed7aa;border:2px solid #9a3412">レジ・ホットスナック</div></div></body>`);
  const png = await page.screenshot({ type: 'png' });
  await page.context().close();
  return png;
}

/** A one-page PDF (1200 × 500 pt) with a few shapes and a Helvetica title. */
function pdfFloorPlan(): Buffer {
  const content = [
    '0.95 0.97 1 rg 20 20 1160 460 re f',
    '0.2 0.25 0.33 RG 6 w 20 20 1160 460 re S',
    '0.75 0.86 1 rg 60 330 480 110 re f',
    '1 0.84 0.67 rg 700 60 420 140 re f',
    'BT /F1 40 Tf 0.1 0.1 0.1 rg 70 370 Td (PDF FLOOR PLAN) Tj ET',
  ].join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 1200 500] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(body.length);
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

describe('store diagram (show)', () => {
  it('shows the floor image with sensor markers, toggled by センサ表示', async () => {
    const page = await newPage(browser);
    await login(page, 'areamanager');
    await page.goto(`/stores/${withDiagram}/sensor_diagrams/show`);
    await page.getByRole('heading', { name: 'センサ配置図' }).waitFor();
    await waitForDiagram(page);
    const markers = page.getByTestId('sensor-marker');
    const count = await markers.count();
    expect(count).toBeGreaterThan(0);
    expect(count).toBeLessThanOrEqual(20);
    // The storeuser's store has an ongoing upper-limit alarm: at least one marker is red.
    expect(await page.locator('[data-testid="sensor-marker"][data-status="error"]').count()).toBeGreaterThan(0);
    await page.getByRole('link', { name: '編集', exact: true }).waitFor();
    await screenshot(page, 'diagram-show');
    await page.getByLabel('センサ表示', { exact: true }).uncheck();
    expect(await markers.count()).toBe(0);
    await screenshot(page, 'diagram-show-sensors-hidden');
    await page.getByLabel('センサ表示', { exact: true }).check();
    expect(await markers.count()).toBe(count);
    // Zoom: + doubles the map, − goes back; the markers stay on their spots.
    const before = await markers.first().boundingBox();
    await page.getByRole('button', { name: '拡大' }).click();
    expect(await page.getByTestId('floor-map').getAttribute('data-zoom')).toBe('1');
    await page.getByRole('button', { name: '縮小' }).click();
    await page.getByRole('button', { name: '縮小' }).click();
    expect(await page.getByRole('button', { name: '縮小' }).isDisabled()).toBe(true);
    await screenshot(page, 'diagram-show-zoomed-out');
    await page.getByRole('button', { name: '拡大' }).click();
    // A marker scales with the drawn map (a ResizeObserver sets its scale after the zoom's layout),
    // around its centre: the centre is its spot, and it is back once the layout has settled.
    const centre = (box: { x: number; y: number; width: number; height: number } | null) => box && { x: box.x + box.width / 2, y: box.y + box.height / 2 };
    const home = centre(before)!;
    await expect
      .poll(async () => {
        const now = centre(await markers.first().boundingBox())!;
        return Math.max(Math.abs(now.x - home.x), Math.abs(now.y - home.y));
      })
      .toBeLessThanOrEqual(2);
  });

  it('gives store users the diagram without the edit button, and refuses them the editor', async () => {
    allowFailedLoads(403); // the editor answers a store user 403
    const page = await newPage(browser);
    await login(page, 'storeuser');
    await page.goto(`/stores/${withDiagram}/sensor_diagrams/show`);
    await waitForDiagram(page);
    expect(await page.getByTestId('sensor-marker').count()).toBeGreaterThan(0);
    expect(await page.getByRole('link', { name: '編集', exact: true }).count()).toBe(0);
    const response = await page.goto(`/stores/${withDiagram}/sensor_diagrams/edit`);
    expect(response?.status()).toBe(403);
  });

  it('says the diagram is not registered, with 登録する to the editor', async () => {
    const page = await newPage(browser);
    await login(page, 'admin');
    await page.goto(`/stores/${withoutDiagram}/sensor_diagrams/show`);
    await page.getByText('店舗図面が登録されていません').waitFor();
    await screenshot(page, 'diagram-not-registered');
    await page.getByRole('link', { name: '登録する' }).click();
    await page.waitForURL(`**/stores/${withoutDiagram}/sensor_diagrams/edit`);
    await page.getByTestId('diagram-drop-zone').waitFor();
    await page.getByText('対応形式：PDF、PNG、JPG、SVG', { exact: false }).waitFor();
    await screenshot(page, 'diagram-upload-screen');
    // Its close returns to store management.
    expect(await page.getByRole('link', { name: '閉じる' }).getAttribute('href')).toBe(`/stores/${withoutDiagram}/master_managements`);
  });

  it('redirects a store the viewer cannot see to /not_found', async () => {
    allowFailedLoads(404); // /not_found answers 404
    const page = await newPage(browser);
    await login(page, 'storeuser');
    await page.goto(`/stores/${withoutDiagram}/sensor_diagrams/show`);
    expect(new URL(page.url()).pathname).toBe('/not_found');
  });
});

describe('placement editor', () => {
  it('uploads a PNG on the upload screen and shows it in the editor', async () => {
    await rememberStore(withoutDiagram);
    const page = await newPage(browser);
    await login(page, 'admin');
    await page.goto(`/stores/${withoutDiagram}/sensor_diagrams/edit`);
    await page.getByTestId('diagram-drop-zone').locator('input[type="file"]').setInputFiles({ name: 'floor-plan.png', mimeType: 'image/png', buffer: await pngFloorPlan() });
    await page.waitForURL(/\/sensor_diagrams\/edit\?diagram_id=\d+$/);
    await waitForDiagram(page);
    await page.getByText('店舗図面をクリック（タップ）して全てのセンサを配置してください').waitFor();
    await expect(page.getByTestId('placed-count').textContent()).resolves.toMatch(/^設置済み \d+ \/ 20$/);
    await screenshot(page, 'diagram-editor-uploaded-png');
    const store = await db.selectFrom('stores').innerJoin('diagrams', 'diagrams.diagram_id', 'stores.diagram_id').select(['diagrams.content_type', 'diagrams.diagram_name']).where('stores.store_id', '=', withoutDiagram).executeTakeFirstOrThrow();
    expect(store).toEqual({ content_type: 'image/png', diagram_name: 'floor-plan.png' });
  });

  it('refuses an SVG with script on the upload screen with a message', async () => {
    allowFailedLoads(400); // the refused upload answers 400
    await rememberStore(withoutDiagram);
    await db.updateTable('stores').set({ diagram_id: null }).where('store_id', '=', withoutDiagram).execute();
    const page = await newPage(browser);
    await login(page, 'admin');
    await page.goto(`/stores/${withoutDiagram}/sensor_diagrams/edit`);
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect width="10" height="10"/></svg>';
    await page.getByTestId('diagram-drop-zone').locator('input[type="file"]').setInputFiles({ name: 'plan.svg', mimeType: 'image/svg+xml', buffer: Buffer.from(svg) });
    await expect(page.getByRole('alert').textContent()).resolves.toBe('このSVGファイルはスクリプトなどを含むため登録できません。');
    await screenshot(page, 'diagram-upload-unsafe-svg');
  });

  it('places a sensor by a click on the map, saves it, and confirms with a dialog', async () => {
    await rememberStore(withDiagram);
    const page = await newPage(browser);
    await login(page, 'admin');
    await page.goto(`/stores/${withDiagram}/sensor_diagrams/edit`);
    await waitForDiagram(page);
    const placedBefore = await page.getByTestId('placed-sensor').count();
    await expect(page.getByTestId('placed-count').textContent()).resolves.toBe(`設置済み ${placedBefore} / 20`);
    await screenshot(page, 'diagram-editor');

    // Click an empty spot near the bottom middle of the map.
    const canvas = page.getByTestId('floor-map-canvas');
    const box = (await canvas.boundingBox())!;
    const click = { x: box.width * 0.47, y: box.height * 0.93 };
    await canvas.click({ position: click });
    await page.getByTestId('provisional-marker').waitFor();
    const picker = page.getByTestId('sensor-picker');
    await picker.waitFor();
    const options = picker.getByRole('option');
    expect(await options.count()).toBeGreaterThan(0);
    // Placed sensors are marked selected; all demo sensors are placed.
    expect(await options.first().getAttribute('aria-selected')).toBe('true');
    await screenshot(page, 'diagram-editor-picker');

    // Choose the last sensor in the list: it moves to the click plus (10, -20).
    const chosen = options.last();
    const chosenName = (await chosen.locator('span.truncate').textContent())!;
    await chosen.click();
    expect(await picker.count()).toBe(0);
    expect(await page.getByTestId('provisional-marker').count()).toBe(0);
    await page.getByRole('button', { name: '保存' }).click();
    const dialog = page.getByRole('alertdialog');
    await expect(dialog.textContent()).resolves.toContain('センサ配置を保存しました');
    await screenshot(page, 'diagram-editor-saved');
    await dialog.getByRole('button', { name: 'OK' }).click();

    const expected = placementFor({ x: (click.x / box.width) * 1200, y: (click.y / box.height) * 500 });
    const saved = await db.selectFrom('sensors').select(['position_x', 'position_y']).where('store_id', '=', withDiagram).where('equipment_name', '=', chosenName).executeTakeFirstOrThrow();
    expect(Math.abs(saved.position_x - expected.x)).toBeLessThanOrEqual(1);
    expect(Math.abs(saved.position_y - expected.y)).toBeLessThanOrEqual(1);

    // A click on the placed sensor opens its popup: the selected sensor with 削除, and the list to swap.
    await page.locator('[data-testid="placed-sensor"]', { hasText: chosenName }).click();
    await picker.getByText('選択中のセンサ').waitFor();
    await picker.getByText('入れ替えるセンサ').waitFor();
    await screenshot(page, 'diagram-editor-placed-popup');
    await picker.getByRole('button', { name: '削除' }).click();
    await expect(page.getByTestId('placed-count').textContent()).resolves.toBe(`設置済み ${placedBefore - 1} / 20`);
    await page.getByRole('button', { name: '保存' }).click();
    await expect(page.getByRole('alertdialog').textContent()).resolves.toContain('センサ配置を保存しました');
    const removed = await db.selectFrom('sensors').select(['position_x', 'position_y']).where('store_id', '=', withDiagram).where('equipment_name', '=', chosenName).executeTakeFirstOrThrow();
    expect(removed).toEqual({ position_x: 0, position_y: 0 });
  });

  it('asks before closing, and discarding goes to the sensors page diagram tab', async () => {
    allowFailedLoads(404); // the sensors page (sensor settings) is not built yet: 404
    const page = await newPage(browser);
    await login(page, 'areamanager');
    await page.goto(`/stores/${withDiagram}/sensor_diagrams/edit`);
    await waitForDiagram(page);
    await page.getByRole('link', { name: '閉じる' }).click();
    const dialog = page.getByRole('alertdialog');
    await dialog.getByRole('button', { name: '編集を続ける' }).waitFor();
    await screenshot(page, 'diagram-editor-close-confirm');
    await dialog.getByRole('button', { name: '編集を続ける' }).click();
    expect(await page.getByRole('alertdialog').count()).toBe(0);
    await page.getByRole('link', { name: '閉じる' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'データを破棄' }).click();
    await page.waitForURL((url) => url.pathname === `/stores/${withDiagram}/sensors/show`);
    expect(new URL(page.url()).search).toBe('?tab=diagram');
  });

  it('offers templates and an upload in the settings modal, and reflects a template', async () => {
    await rememberStore(withDiagram);
    const page = await newPage(browser);
    await login(page, 'admin');
    await page.goto(`/stores/${withDiagram}/sensor_diagrams/edit`);
    await waitForDiagram(page);
    await page.getByRole('button', { name: '図面の設定' }).click();
    const modal = page.getByRole('dialog', { name: '店舗図面の設定' });
    await expect(modal.getByRole('tab', { name: 'テンプレート選択' }).getAttribute('aria-selected')).resolves.toBe('true');
    const select = modal.getByLabel('図面', { exact: true });
    expect(await select.locator('optgroup[label="テンプレート"] option').count()).toBeGreaterThan(0);
    expect(await modal.getByRole('link', { name: 'ダウンロード' }).getAttribute('href')).toMatch(/^\/resources\/diagram-image\?diagram_id=\d+&download=1$/);
    await screenshot(page, 'diagram-settings-templates');

    await modal.getByRole('tab', { name: '図面アップロード' }).click();
    const reflect = modal.getByRole('button', { name: '反映', exact: true });
    expect(await reflect.isDisabled()).toBe(true);
    await expect(modal.getByTestId('chosen-file-name').textContent()).resolves.toBe('選択されていません');
    await modal.locator('input[type="file"]').setInputFiles({ name: 'new-layout.png', mimeType: 'image/png', buffer: await pngFloorPlan() });
    await expect(modal.getByTestId('chosen-file-name').textContent()).resolves.toBe('new-layout.png');
    expect(await reflect.isDisabled()).toBe(false);
    await screenshot(page, 'diagram-settings-upload');

    // Reflect the first template: the store's diagram becomes it.
    await modal.getByRole('tab', { name: 'テンプレート選択' }).click();
    const template = await select.locator('optgroup[label="テンプレート"] option').first().getAttribute('value');
    await select.selectOption(template!);
    await modal.getByRole('button', { name: '店舗図面に反映' }).click();
    await page.waitForURL(new RegExp(`diagram_id=${template}$`));
    await waitForDiagram(page);
    const store = await db.selectFrom('stores').select('diagram_id').where('store_id', '=', withDiagram).executeTakeFirstOrThrow();
    expect(store.diagram_id).toBe(Number(template));
    await screenshot(page, 'diagram-editor-template');
  });

  it('draws page 1 of a PDF diagram with pdf.js', async () => {
    await rememberStore(withoutDiagram);
    const pdf = pdfFloorPlan();
    const row = await db.insertInto('diagrams').values({ store_id: withoutDiagram, diagram_name: 'plan.pdf', content_type: 'application/pdf', byte_size: pdf.length, content: pdf }).returning('diagram_id').executeTakeFirstOrThrow();
    await db.updateTable('stores').set({ diagram_id: row.diagram_id }).where('store_id', '=', withoutDiagram).execute();
    const page = await newPage(browser);
    const failures: string[] = [];
    page.on('pageerror', (error) => failures.push(error.message));
    page.on('console', (message) => message.type() === 'error' && failures.push(message.text()));
    const loaded: string[] = [];
    page.on('request', (request) => loaded.push(new URL(request.url()).pathname));
    await login(page, 'admin');
    await page.goto(`/stores/${withoutDiagram}/sensor_diagrams/show`);
    const image = await waitForDiagram(page);
    expect(await image.getAttribute('src')).toMatch(/^blob:/);
    const size = await image.evaluate((img: HTMLImageElement) => [img.naturalWidth, img.naturalHeight]);
    expect(size[0] / size[1]).toBeCloseTo(1200 / 500, 1);
    expect(failures).toEqual([]);
    // pdf.js and its worker came from the installed package, lazily.
    expect(loaded).toContain('/resources/pdfjs/build/pdf.min.mjs');
    expect(loaded).toContain('/resources/pdfjs/build/pdf.worker.min.mjs');
    await screenshot(page, 'diagram-show-pdf');
  });
});
