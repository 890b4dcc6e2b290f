// A ReportDocument as a PDF (issue 14 item 4): a cover, then per sensor its chart (vectors: the
// temperature line, the limits as steps over the settings periods, the defrost and alert-stop
// windows shaded), the data table at the chosen interval, the comments (option1) and the summary
// (option2). The store, the period and the page number are on every page. Layout decisions are in
// layout.ts (pure, tested); this module builds pdfmake nodes for what flows (cover, headings,
// settings notes, summary and comment tables). What sits at fixed places is drawn straight into the
// pages after pdfmake's layout (pdf-direct.server.ts), into boxes pdfmake kept for it: each chart
// (pdf-chart.server.ts), each data table block, and every page's header and footer
// (docs/decisions/148-report-speed.md, 193-report-pdf-cpu.md, 196-report-pdf-night.md; tests/bench/report-pdf.ts).
import type { Content, ContentText, Style, TDocumentDefinitions } from 'pdfmake/interfaces';
import { formatDateTime } from '~/domain/japan-time';
import { type ReportDocument, type ReportSensor, type ReportTable, ROW_KIND } from '~/domain/report-document';
import { REPORT_TYPE_DOCUMENT_LABELS } from '~/domain/report-form';
import { COVERAGE_MIN, SUMMARY_EXCLUDES_TEXT, VERDICT_LABELS, verdictOf } from '~/domain/report-summary';
import { formatDegrees } from '~/domain/format';
import { alertCells, commentCells, intervalText, pageFooterText, pageHeaderText, periodText, SECTION_TEXTS, settingsText, type BlockColumn, rememberedRowTime, rowValue, figureCells, summaryCells, tableBlocks, wrapLine } from './layout';
import { chartBox, type ChartSlot, drawCharts } from './pdf-chart.server';
import { colorOps, deflateNow, deflatePages, type GlyphRun, num, PageOps, type PdfKitLike, type Placeholder, placeholder, placeOf, RunFont, textAt, TextLines } from './pdf-direct.server';
import { LINE_HEIGHT, lineHeightOf, PDF_FONT, pdfMake } from './pdf-fonts.server';

/** Page one's summary table. */
const SUMMARY_PAGE = {
  heading: 'センサー別の集計と判定',
  header: ['センサー', '上下限（期間中）', '最低', '最高', '平均', '上下限外', 'データ取得率', 'アラート', '判定'],
  notes: `（ ）内は除外時間帯を含む全測定値の値。データ取得率は期間中の10分枠のうち測定値のある枠の割合。判定：上下限外の時間があれば「逸脱あり」、データ取得率が${COVERAGE_MIN * 100}%未満なら「データ不足」。`,
};

const limitsText = (p: ReportSensor['settings'][number]) => `${formatDegrees(p.lowerLimit)}〜${formatDegrees(p.upperLimit)}`;

export const NO_DATA_TEXT = 'この期間のデータはありません';
export const NO_SENSOR_TEXT = '対象のセンサーがありません';
/** In an empty chart whose period is beyond retention (the section says how long readings are kept). */
export const RETENTION_CHART_TEXT = '保存期間を過ぎたため削除されています';

const TEXT_COLOR = '#374151';

/** Data table page blocks: lines per column and columns per page (A4 portrait at 7pt). */
const TABLE = { lines: 56, columns: 5 };
const PAGE = { width: 595.28, margins: [36, 44, 36, 36] as [number, number, number, number] };
/** Every page's header line (at the top margin's 18pt) and footer line (12pt into the bottom margin), 7pt. */
const FRAME = { fontSize: 7, headerTop: 18, footerTop: 12 };

const DEFAULT_STYLE = { font: PDF_FONT, fontSize: 9, lineHeight: LINE_HEIGHT };
const STYLES = {
  h1: { fontSize: 16, bold: true, margin: [0, 0, 0, 8] },
  h2: { fontSize: 13, bold: true, margin: [0, 0, 0, 4] },
  h3: { fontSize: 10, bold: true, margin: [0, 6, 0, 2] },
  key: { bold: true, color: TEXT_COLOR },
  th: { fontSize: 7, bold: true, color: TEXT_COLOR },
  cell: { fontSize: 7, lineHeight: 1 },
  note: { fontSize: 8, color: TEXT_COLOR, margin: [0, 0, 0, 2] },
  empty: { fontSize: 11, bold: true, color: '#b91c1c', margin: [0, 8, 0, 8] },
} satisfies Record<string, Style>;
type StyleName = keyof typeof STYLES;

/**
 * pdfmake's own value of each text property it looks up for every word (TextInlines' measure),
 * where a neutral non-null value exists; `link`, `linkToPage`, `linkToDestination` and `background`
 * are left to pdfmake (a non-null one would make a link or a background).
 */
const TEXT_DEFAULTS = {
  bold: false, italics: false, alignment: 'left', characterSpacing: 0, color: 'black', opacity: 1, sup: false, sub: false, lineHeight: 1, noWrap: false, wordBreak: 'normal',
  preserveLeadingSpaces: false, preserveTrailingSpaces: false, fontFeatures: false, decoration: false, decorationColor: false, decorationStyle: false, decorationThickness: false,
};

/** Each style's text properties as pdfmake resolves them (its defaults, the default style, the named style), margins left to the node. */
const TEXT_STYLES = Object.fromEntries(
  Object.entries({ body: {}, ...STYLES }).map(([name, style]: [string, Style]) => {
    const text: Record<string, unknown> = { ...TEXT_DEFAULTS, ...DEFAULT_STYLE, ...style };
    delete text.margin;
    return [name, text];
  }),
) as Record<'body' | StyleName, Record<string, unknown>>;

/**
 * A text node whose words carry their style's properties. pdfmake looks each of ~25 properties up
 * for every word (every Japanese character is a word) through its stack of styles, a Set per
 * lookup; given on the text itself, it takes them at once (docs/decisions/196-report-pdf-night.md).
 * The node keeps the style's name for its margins. The same values: the same pages.
 */
function styled(text: string, style?: StyleName, node: Omit<ContentText, 'text'> = {}): ContentText {
  return { text: [{ text, ...TEXT_STYLES[style ?? 'body'] } as ContentText], ...(style ? { style } : {}), ...node };
}

function keyValues(rows: [string, string][]): Content {
  return {
    table: { widths: [90, '*'], body: rows.map(([k, v]) => [styled(k, 'key'), styled(v)]) },
    layout: 'lightHorizontalLines',
    margin: [0, 4, 0, 10],
  };
}

/** Where one page block of a data table goes: pdfmake only gives it a page (an invisible box of its height), it is drawn afterwards. */
interface TableSlot {
  box: Placeholder;
  table: ReportTable;
  columns: BlockColumn[];
}

/** The data table's cells: 7pt lines of 8.2pt, the header row as a 7pt bold line of pdfmake's (line height 1.1) with 2pt above and below and a 1pt rule under it. */
const CELL = { fontSize: 7, lineHeight: 8.2, baselineDrop: 1.5, padding: 4, headerPadding: 2, rule: 1, headerLabels: ['日時', '温度'] };
/** A table line's baseline below the block body's top-left corner (PDF space: y up): at the bottom of its 8.2pt, 1.5pt lower. */
const baseline = (line: number) => -(CELL.baselineDrop + (line + 1) * CELL.lineHeight);
/** A table block's header row without its rule. */
const headerRowHeight = () => lineHeightOf(CELL.fontSize) + 2 * CELL.headerPadding;

function dataTable(sensor: ReportSensor, slots: Slots): Content[] {
  if (sensor.table.length === 0) return [styled(NO_DATA_TEXT, undefined, { margin: [0, 4, 0, 8] })];
  const blocks = tableBlocks(sensor.table.length, TABLE.lines, TABLE.columns);
  return blocks.map((columns, i): Content => {
    const lines = columns[0].to - columns[0].from;
    const box = placeholder(headerRowHeight() + CELL.rule + lines * CELL.lineHeight + 3, { margin: [0, 4, 0, 6], pageBreak: i === 0 ? undefined : 'before' });
    slots.tables.push({ box, table: sensor.table, columns });
    return box;
  });
}

/** The document's fonts as drawn into directly: the regular one and the bold one of the headings. */
interface DirectFonts {
  regular: RunFont;
  bold: RunFont;
}

/**
 * The data table blocks, drawn into the places pdfmake kept for them: the header row (日時 left,
 * 温度 right in each of the 5 columns, the rule under it) and per page one text object with a
 * glyph run per time and per value. No table layout, measuring or styling per line: pdfmake did
 * that for every line, seconds for a month of 20 sensors (docs/decisions/148 and 193).
 */
function drawTableBlocks(pdf: PdfKitLike, out: PageOps, fonts: DirectFonts, slots: readonly TableSlot[], contentWidth: number): void {
  if (slots.length === 0) return;
  const { regular, bold } = fonts;
  const columnWidth = contentWidth / TABLE.columns;
  const headerText = headerRowHeight();
  const bodyTop = headerText + CELL.rule;
  const header = headerOps(bold, columnWidth, headerText, contentWidth);
  const timeForm = timeForms(pdf, regular, columnWidth);
  const valueRun = valueRuns(regular);
  for (const slot of slots) {
    const at = placeOf(slot.box, 'table block');
    pdf.switchToPage(at.page);
    const times = timeForm(slot);
    pdf.page.xobjects[times.name] = times.ref;
    const lines = new TextLines(CELL.lineHeight);
    const ops: string[] = [`q 1 0 0 1 ${num(at.left)} ${num(pdf.page.height - at.top)} cm`, header, `1 0 0 1 0 ${num(-bodyTop)} cm /${times.name} Do 0 0 0 rg BT /${regular.id} ${CELL.fontSize} Tf ${lines.begin()}`];
    slot.columns.forEach((column, c) => {
      const right = (c + 1) * columnWidth - CELL.padding * 3;
      for (let i = column.from; i < column.to; i++) {
        const value = valueRun(slot.table, i);
        ops.push(lines.show(right - (value.advance * CELL.fontSize) / 1000, baseline(i - column.from), value));
      }
    });
    ops.push('ET Q');
    out.add(at.page, ops.join('\n'), [regular, bold]);
  }
}

/** A row's value as a glyph run, remembered per temperature and kind: a month's 89,280 rows have a few hundred distinct values. */
function valueRuns(font: RunFont): (table: ReportTable, row: number) => GlyphRun {
  const runs = new Map<number, GlyphRun>();
  return (table, row) => {
    // Values are tenths: an integer key (a kind other than a value below zero) boxes no number per row.
    const key = table.kind[row] === ROW_KIND.value ? Math.round(table.temperature[row] * 10) : -1 - table.kind[row];
    let run = runs.get(key);
    if (!run) {
      run = font.run(rowValue(table, row));
      runs.set(key, run);
    }
    return run;
  };
}

/**
 * The time columns are the same for every sensor's block at the same place in the period: each
 * distinct one is written once as a form and drawn by reference (most of a table's bytes, so less
 * to build and to deflate). Forms are looked up by the block's first row (the same block of every
 * sensor starts at the same row) and checked instant by instant.
 */
function timeForms(pdf: PdfKitLike, regular: RunFont, columnWidth: number): (slot: TableSlot) => { name: string; ref: unknown } {
  const timeOf = rememberedRowTime();
  const forms = new Map<number, { slot: TableSlot; name: string; ref: unknown }[]>();
  let count = 0;
  return (slot) => {
    const { table, columns } = slot;
    const start = columns[0].from;
    const candidates = forms.get(start) ?? [];
    const found = candidates.find((candidate) => sameTimes(candidate.slot, slot));
    if (found) return found;
    const lines = new TextLines(CELL.lineHeight);
    const ops: string[] = [`0 0 0 rg BT /${regular.id} ${CELL.fontSize} Tf ${lines.begin()}`];
    columns.forEach((column, c) => {
      const x = c * columnWidth + CELL.padding;
      for (let i = column.from; i < column.to; i++) ops.push(lines.show(x, baseline(i - column.from), regular.run(timeOf(table.at[i]))));
    });
    ops.push('ET');
    const ref = pdf.ref({ Type: 'XObject', Subtype: 'Form', FormType: 1, BBox: [0, -pdf.page.height, columnWidth * TABLE.columns, CELL.lineHeight], Resources: regular.resources() });
    ref.write(ops.join('\n'));
    deflateNow(ref);
    ref.end();
    const form = { slot, name: `RT${++count}`, ref };
    forms.set(start, [...candidates, form]);
    return form;
  };
}

/** Whether two table blocks have the same rows at the same instants (so the same time column). */
function sameTimes(a: TableSlot, b: TableSlot): boolean {
  if (a.columns.length !== b.columns.length) return false;
  return a.columns.every((column, c) => {
    const other = b.columns[c];
    if (column.to - column.from !== other.to - other.from) return false;
    for (let i = 0; i < column.to - column.from; i++) if (a.table.at[column.from + i] !== b.table.at[other.from + i]) return false;
    return true;
  });
}

/** A block's header row below its top-left corner (PDF space): the labels in every column, whatever the block fills, and the rule. */
function headerOps(bold: RunFont, columnWidth: number, height: number, contentWidth: number): string {
  const [left, right] = CELL.headerLabels.map((label) => bold.run(label));
  const y = -(CELL.headerPadding + bold.baseline(CELL.fontSize));
  const ops = [`${colorOps(TEXT_COLOR, 'rg')} BT /${bold.id} ${CELL.fontSize} Tf`];
  for (let c = 0; c < TABLE.columns; c++) {
    ops.push(textAt(c * columnWidth + CELL.padding, y, left));
    ops.push(textAt((c + 1) * columnWidth - CELL.padding * 3 - (right.advance * CELL.fontSize) / 1000, y, right));
  }
  const ruleY = (-height - CELL.rule / 2).toFixed(4);
  ops.push(`ET ${CELL.rule} w 0 0 0 RG 0 ${ruleY} m ${contentWidth.toFixed(2)} ${ruleY} l S`);
  return ops.join('\n');
}

/**
 * Every page's header (store and period, wrapped as pdfmake would if a long store name needs it)
 * and footer ("N / M ページ", centred), drawn once the page count is known.
 */
function drawPageFrames(pdf: PdfKitLike, out: PageOps, font: RunFont, doc: ReportDocument): void {
  const { count } = pdf.bufferedPageRange();
  const width = PAGE.width - PAGE.margins[0] - PAGE.margins[2];
  const lineHeight = lineHeightOf(FRAME.fontSize);
  const lines = wrapLine(pageHeaderText(doc), width, (text) => font.width(text, FRAME.fontSize));
  const header = lines.map((text, i) => ({ text: font.run(text), top: FRAME.headerTop + i * lineHeight }));
  const dy = font.baseline(FRAME.fontSize);
  const color = colorOps(TEXT_COLOR, 'rg');
  for (let page = 0; page < count; page++) {
    pdf.switchToPage(page);
    const height = pdf.page.height;
    const footer = pageFooterText(page + 1, count);
    const footerX = (PAGE.width - font.width(footer, FRAME.fontSize)) / 2;
    const ops = [`${color} BT /${font.id} ${FRAME.fontSize} Tf`];
    for (const line of header) ops.push(textAt(PAGE.margins[0], height - line.top - dy, line.text));
    ops.push(textAt(footerX, PAGE.margins[3] - FRAME.footerTop - dy, font.run(footer)), 'ET');
    out.add(page, ops.join('\n'), [font]);
  }
}

const headerRow = (labels: readonly string[]): Content[] => labels.map((text) => styled(text, 'th'));
const cellRow = (cells: readonly string[]): Content[] => cells.map((text) => styled(text, 'cell'));

function comments(sensor: ReportSensor): Content[] {
  if (sensor.comments === null) return [];
  const body: Content[][] = [headerRow(SECTION_TEXTS.commentHeader), ...sensor.comments.map((c) => cellRow(commentCells(c)))];
  return [
    styled(SECTION_TEXTS.comments, 'h3'),
    sensor.comments.length === 0 ? styled(SECTION_TEXTS.noComments, 'note') : { table: { headerRows: 1, widths: [70, '*', 80], body }, layout: 'lightHorizontalLines', margin: [0, 2, 0, 8] },
  ];
}

/** Per sensor on page one: limits in force, the counted figures (every reading's under them where they differ), minutes outside, coverage, alerts, verdict. */
function summaryTable(doc: ReportDocument): Content {
  const body: Content[][] = [headerRow(SUMMARY_PAGE.header)];
  for (const sensor of doc.sensors) {
    const s = sensor.summary;
    const limits = { stack: cellRow(sensor.settings.length === 0 ? ['設定なし'] : sensor.settings.map((p) => limitsText(p))) };
    if (s === null) {
      body.push([...cellRow([sensor.name]), limits, ...cellRow(['', '', '', '', '', '', ''])]);
      continue;
    }
    const figures = figureCells(s, true);
    const all = s.all ? figureCells(s.all, true) : null;
    const [outside, coverage] = summaryCells(s, true).slice(3);
    body.push([
      ...cellRow([sensor.name]),
      limits,
      ...figures.map((text, k): Content => (all ? { stack: [styled(text, 'cell'), styled(`(${all[k]})`, 'cell', { color: TEXT_COLOR })] } : styled(text, 'cell'))),
      ...cellRow([outside, coverage, String(s.alerts.length)]),
      styled(VERDICT_LABELS[verdictOf(s)], 'cell', { bold: verdictOf(s) !== 'ok' }),
    ]);
  }
  return { table: { headerRows: 1, widths: ['*', 62, 40, 40, 40, 40, 38, 34, 42], body }, layout: 'lightHorizontalLines', margin: [0, 2, 0, 4] };
}

/** Every sensor's alerts in one table: who stopped them, the corrective action where recorded. */
function alertsTable(doc: ReportDocument): Content {
  const alerts = doc.sensors.flatMap((sensor) => (sensor.summary?.alerts ?? []).map((a) => [sensor.name, ...alertCells(a)]));
  if (alerts.length === 0) return styled(SECTION_TEXTS.noAlerts, 'note');
  const body: Content[][] = [headerRow(['センサー', ...SECTION_TEXTS.alertHeader]), ...alerts.map((cells) => cellRow(cells))];
  return { table: { headerRows: 1, widths: [56, 56, 50, 50, 50, 40, '*', '*'], body }, layout: 'lightHorizontalLines', margin: [0, 2, 0, 8] };
}

/** 作成者 / 確認者 boxes with room for a name, a date and a seal. */
function approvalBlock(doc: ReportDocument): Content {
  const box = (label: string, name: string): Content => ({ stack: [styled(label, 'th'), styled(name, 'cell', { margin: [0, 4, 0, 0] }), styled('日付：\u3000\u3000\u3000\u3000年\u3000\u3000月\u3000\u3000日', 'cell', { margin: [0, 14, 0, 0] })] });
  return {
    table: { widths: ['*', '*'], heights: [56], body: [[box('作成者（印）', doc.createdBy ?? ''), box('確認者（印）', '')]] },
    margin: [260, 0, 0, 8],
  };
}

/** The period beyond retention: red when nothing of it is left, a note when only its start is gone. */
function retentionLine(doc: ReportDocument): Content | null {
  return doc.retention ? styled(doc.retention.text, doc.retention.whole ? 'empty' : 'note') : null;
}

function sensorSection(sensor: ReportSensor, doc: ReportDocument, slots: Slots): Content[] {
  return [
    styled(`${sensor.name}（${sensor.serialNo}）`, 'h2'),
    ...sensor.settings.map((p): Content => styled(settingsText(p, doc.period), 'note')),
    retentionLine(doc) ?? (sensor.points.length === 0 && sensor.table.kind.every((kind) => kind === ROW_KIND.missing) ? styled(NO_DATA_TEXT, 'empty') : ''),
    chartBox(sensor, doc, doc.retention?.whole ? RETENTION_CHART_TEXT : NO_DATA_TEXT, slots.charts),
    ...comments(sensor),
  ];
}

/** The raw values at the setting's interval, one sensor after another, when the setting asks for them. */
function appendix(doc: ReportDocument, slots: Slots): Content[] {
  if (!doc.appendix) return [];
  return doc.sensors.flatMap((sensor, i) => [
    ...(i === 0 ? [styled(`付録\u3000測定値一覧（${intervalText(doc.interval)}）`, 'h2', { pageBreak: 'before' })] : []),
    styled(`${sensor.name}（${sensor.serialNo}）`, 'h3', i === 0 ? {} : { pageBreak: 'before' }),
    ...dataTable(sensor, slots),
  ]);
}

/** Page one, what an inspector reads: what the document is, the approval block, the summary per sensor, the alerts. */
function firstPage(doc: ReportDocument): Content[] {
  return [
    styled(doc.title, 'h1'),
    keyValues([
      ['文書番号', doc.documentNumber],
      ['店舗', `${doc.store.storeNo} ${doc.store.storeName}`],
      ['期間', periodText(doc.period)],
      ['種別', `${REPORT_TYPE_DOCUMENT_LABELS[doc.reportType]}（${doc.settingName}）`],
      ['データ間隔', intervalText(doc.interval)],
      ['作成日時', formatDateTime(doc.createdAt)],
    ]),
    approvalBlock(doc),
    retentionLine(doc) ?? '',
    styled(SUMMARY_PAGE.heading, 'h3'),
    doc.sensors.length === 0 ? styled(NO_SENSOR_TEXT, 'empty') : summaryTable(doc),
    styled(SUMMARY_EXCLUDES_TEXT, 'note'),
    styled(SUMMARY_PAGE.notes, 'note'),
    ...(doc.sensors.some((sensor) => sensor.summary !== null) ? [styled('アラートと改善措置', 'h3'), alertsTable(doc)] : []),
  ];
}

/** The boxes pdfmake keeps for what is drawn into the pages after its layout. */
interface Slots {
  tables: TableSlot[];
  charts: ChartSlot[];
}

/** The pdfmake document of a report (exported for tests that look at the structure); `slots` collects the boxes to draw into. */
export function reportDefinition(doc: ReportDocument, slots: Slots = { tables: [], charts: [] }): TDocumentDefinitions {
  return {
    info: { title: doc.title, creator: 'On-Reco' },
    pageSize: 'A4',
    pageMargins: PAGE.margins,
    content: [
      ...firstPage(doc),
      // Two sensors' charts a page (pdfmake's unbreakable would lay the page out twice, moving the boxes drawn into).
      ...doc.sensors.flatMap((s, i): Content[] => [{ stack: sensorSection(s, doc, slots), ...(i % 2 === 0 ? { pageBreak: 'before' as const } : { margin: [0, 12, 0, 0] as [number, number, number, number] }) }]),
      ...appendix(doc, slots),
    ],
    defaultStyle: DEFAULT_STYLE,
    styles: STYLES,
  };
}

/** Renders a report to PDF bytes. */
export async function renderReportPdf(doc: ReportDocument): Promise<Buffer> {
  const slots: Slots = { tables: [], charts: [] };
  const pdfmake = pdfMake();
  const pdf = (await pdfmake.createPdf(reportDefinition(doc, slots), { bufferPages: true } as never).getStream()) as unknown as PdfKitLike;
  const fonts = { regular: new RunFont(pdf.provideFont(PDF_FONT, false, false)), bold: new RunFont(pdf.provideFont(PDF_FONT, true, false)) };
  const out = new PageOps();
  drawPageFrames(pdf, out, fonts.regular, doc);
  drawCharts(pdf, out, fonts.regular, slots.charts);
  drawTableBlocks(pdf, out, fonts, slots.tables, PAGE.width - PAGE.margins[0] - PAGE.margins[2]);
  out.writeTo(pdf);
  deflatePages(pdf);
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    pdf.on('data', (chunk) => chunks.push(chunk));
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.end();
  });
}
