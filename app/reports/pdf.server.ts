// A ReportDocument as a PDF (issue 14 item 4): a cover, then per sensor its chart (vectors: the
// temperature line, the limits as steps over the settings periods, the defrost and alert-stop
// windows shaded), the data table at the chosen interval, the comments (option1) and the summary
// (option2). The store, the period and the page number are on every page. Layout decisions are in
// layout.ts (pure, tested); this module builds pdfmake nodes, except the data table's bodies: pdfmake
// lays out each page block's header and an empty box, and drawTableBodies writes the rows into it
// (docs/decisions/148-report-speed.md), which keeps a 20-sensor month at 10 minutes near a second
// of CPU (tests/bench/report-pdf.ts).
import type { Content, TDocumentDefinitions } from 'pdfmake/interfaces';
import { formatDateTime } from '~/domain/japan-time';
import { formatDegrees, MISSING_TEXT } from '~/domain/format';
import type { ReportDocument, ReportSensor, ReportType } from '~/domain/report-document';
import { chartGeometry, intervalText, pageFooterText, pageHeaderText, periodText, type Point, settingsText, tableBlocks } from './layout';
import { PDF_FONT, pdfMake } from './pdf-fonts.server';

const REPORT_TYPE_TEXT: Record<ReportType, string> = { 1: '月次', 2: '週次', 3: '日次', 4: '期間指定' };

export const NO_DATA_TEXT = 'この期間のデータはありません';
export const NO_SENSOR_TEXT = '対象のセンサーがありません';

const COLORS = { line: '#1d4ed8', upper: '#dc2626', lower: '#2563eb', defrost: '#93c5fd', stop: '#fcd34d', grid: '#e5e7eb', axis: '#6b7280' };

const CHART = { width: 470, height: 180, gutter: 34, bottom: 14 };
/** Data table page blocks: lines per column and columns per page (A4 portrait at 7pt). */
const TABLE = { lines: 56, columns: 5 };

function keyValues(rows: [string, string][]): Content {
  return {
    table: { widths: [90, '*'], body: rows.map(([k, v]) => [{ text: k, style: 'key' }, { text: v }]) },
    layout: 'lightHorizontalLines',
    margin: [0, 4, 0, 10],
  };
}

function polyline(points: Point[], color: string, width: number, dash?: number): Content[] {
  if (points.length === 0) return [];
  const pts = points.length === 1 ? [points[0], { x: points[0].x + 0.6, y: points[0].y }] : points;
  return [{ type: 'polyline', points: pts.map((p) => ({ x: p.x + CHART.gutter, y: p.y })), lineWidth: width, lineColor: color, ...(dash ? { dash: { length: dash } } : {}) } as unknown as Content];
}

function chart(sensor: ReportSensor, doc: ReportDocument): Content {
  const g = chartGeometry(sensor, doc.period, CHART);
  const vectors: unknown[] = [];
  for (const w of g.defrost) vectors.push({ type: 'rect', x: w.x + CHART.gutter, y: 0, w: w.width, h: CHART.height, color: COLORS.defrost, fillOpacity: 0.45 });
  for (const w of g.stops) vectors.push({ type: 'rect', x: w.x + CHART.gutter, y: 0, w: w.width, h: CHART.height, color: COLORS.stop, fillOpacity: 0.45 });
  for (const t of g.yTicks) vectors.push({ type: 'line', x1: CHART.gutter, y1: t.y, x2: CHART.gutter + CHART.width, y2: t.y, lineWidth: 0.4, lineColor: COLORS.grid });
  for (const t of g.xTicks) vectors.push({ type: 'line', x1: CHART.gutter + t.x, y1: CHART.height, x2: CHART.gutter + t.x, y2: CHART.height + 3, lineWidth: 0.5, lineColor: COLORS.axis });
  vectors.push({ type: 'rect', x: CHART.gutter, y: 0, w: CHART.width, h: CHART.height, lineWidth: 0.6, lineColor: COLORS.axis });
  for (const s of g.upper) vectors.push(...polyline(s, COLORS.upper, 1, 3));
  for (const s of g.lower) vectors.push(...polyline(s, COLORS.lower, 1, 3));
  for (const s of g.line) vectors.push(...polyline(s, COLORS.line, 0.7));

  const labels: Content[] = [
    ...g.yTicks.map((t): Content => ({ text: t.label, fontSize: 6, color: COLORS.axis, relativePosition: { x: 0, y: t.y - 4 } })),
    ...g.xTicks.map((t): Content => ({ text: t.label, fontSize: 6, color: COLORS.axis, relativePosition: { x: CHART.gutter + t.x - 12, y: CHART.height + 4 } })),
  ];
  if (g.empty) labels.push({ text: NO_DATA_TEXT, fontSize: 11, color: COLORS.axis, relativePosition: { x: CHART.gutter + CHART.width / 2 - 70, y: CHART.height / 2 - 8 } });
  return {
    stack: [
      { text: '温度(℃)', fontSize: 6, color: COLORS.axis, margin: [0, 0, 0, 2] },
      { stack: [...labels, { canvas: vectors as never }], margin: [0, 0, 0, CHART.bottom] },
      legend(),
    ],
    margin: [0, 4, 0, 8],
    unbreakable: true,
  };
}

function legend(): Content {
  // Column widths are allowed on columns' children, which the Content type does not say.
  const swatch = (vector: unknown) => ({ canvas: [vector as never], width: 16, margin: [0, 3, 2, 0] }) as Content;
  const item = (vector: unknown, label: string): Content[] => [swatch(vector), { text: label, width: 'auto', fontSize: 7, margin: [0, 0, 10, 0] } as Content];
  return {
    columns: [
      ...item({ type: 'line', x1: 0, y1: 4, x2: 14, y2: 4, lineWidth: 1, lineColor: COLORS.line }, '温度'),
      ...item({ type: 'line', x1: 0, y1: 4, x2: 14, y2: 4, lineWidth: 1, lineColor: COLORS.upper, dash: { length: 3 } }, '上限'),
      ...item({ type: 'line', x1: 0, y1: 4, x2: 14, y2: 4, lineWidth: 1, lineColor: COLORS.lower, dash: { length: 3 } }, '下限'),
      ...item({ type: 'rect', x: 0, y: 0, w: 14, h: 8, color: COLORS.defrost, fillOpacity: 0.45 }, '霜取り'),
      ...item({ type: 'rect', x: 0, y: 0, w: 14, h: 8, color: COLORS.stop, fillOpacity: 0.45 }, 'アラート停止'),
    ],
    columnGap: 0,
  };
}

/** Where one page block of a data table goes: pdfmake lays out the header and an empty box of the right height, the body is drawn into it afterwards. */
interface TableSlot {
  box: { positions?: { pageNumber: number; left: number; top: number }[] };
  block: { time: string; value: string }[][];
}

const CELL = { fontSize: 7, lineHeight: 8.2, padding: 4 };

function dataTable(sensor: ReportSensor, slots: TableSlot[]): Content[] {
  if (sensor.rows.length === 0) return [{ text: NO_DATA_TEXT, margin: [0, 4, 0, 8] }];
  const blocks = tableBlocks(sensor.rows, TABLE.lines, TABLE.columns);
  return blocks.map((block, i): Content => {
    const lines = Math.max(...block.map((column) => column.length));
    // The box's own node: pdfmake records where it landed (positions), read back in renderReportPdf.
    const box = { canvas: [{ type: 'line', x1: 0, y1: lines * CELL.lineHeight + 3, x2: 0, y2: lines * CELL.lineHeight + 3, lineWidth: 0, lineColor: '#ffffff' }] } as unknown as TableSlot['box'];
    slots.push({ box, block });
    return {
      stack: [
        {
          table: { headerRows: 1, widths: Array.from({ length: TABLE.columns }, () => '*'), body: [Array.from({ length: TABLE.columns }, (): Content => ({ columns: [{ text: '日時', style: 'th' }, { text: '温度', style: 'th', alignment: 'right' }] }))] },
          layout: 'headerLineOnly',
        },
        box as Content,
      ],
      margin: [0, 4, 0, 6],
      pageBreak: i === 0 ? undefined : 'before',
    };
  });
}

/**
 * Draws the data table bodies straight into the pages' content streams, into the boxes pdfmake
 * left for them: per page one text object, a positioned glyph run per time and per value, each
 * distinct string encoded through the font once (so the subset keeps its glyphs). No table
 * layout, measuring or styling per line: pdfmake did that for every line, seconds for a month of
 * 20 sensors (docs/decisions/148-report-speed.md). What it writes is what pdfkit's own text()
 * writes for a plain left-aligned run.
 */
function drawTableBodies(pdf: PdfKitLike, slots: readonly TableSlot[], contentWidth: number): void {
  if (slots.length === 0) return;
  const font = pdf.provideFont(PDF_FONT, false, false);
  const scale = CELL.fontSize / 1000;
  const runs = new Map<string, { ops: string; width: number }>();
  const run = (text: string) => {
    let found = runs.get(text);
    if (!found) {
      const [encoded, positions] = font.encode(text);
      const parts: string[] = [];
      let width = 0;
      let last = 0;
      for (let i = 0; i < positions.length; i++) {
        width += positions[i].xAdvance * scale;
        const kern = positions[i].xAdvance - positions[i].advanceWidth;
        if (kern !== 0 || i === positions.length - 1) {
          parts.push(`<${encoded.slice(last, i + 1).join('')}> ${(-kern).toFixed(2)}`);
          last = i + 1;
        }
      }
      found = { ops: `[${parts.join(' ')}] TJ`, width };
      runs.set(text, found);
    }
    return found;
  };
  const columnWidth = contentWidth / TABLE.columns;
  const dy = (font.ascender / 1000) * CELL.fontSize;
  for (const slot of slots) {
    const at = slot.box.positions?.[0];
    if (!at) throw new Error('report table box was not laid out');
    pdf.switchToPage(at.pageNumber - 1);
    if (pdf.page.fonts[font.id] == null) pdf.page.fonts[font.id] = font.ref();
    const height = pdf.page.height;
    const ops: string[] = [`q 1 0 0 -1 0 ${height} cm 0 0 0 rg BT /${font.id} ${CELL.fontSize} Tf`];
    slot.block.forEach((column, c) => {
      const x = at.left + c * columnWidth + CELL.padding;
      const right = at.left + (c + 1) * columnWidth - CELL.padding * 3;
      column.forEach((cell, line) => {
        const y = (height - (at.top + 3 + line * CELL.lineHeight + CELL.lineHeight - dy - 1.5) - dy).toFixed(2);
        const time = run(cell.time);
        const value = run(cell.value);
        ops.push(`1 0 0 1 ${x.toFixed(2)} ${y} Tm ${time.ops}`, `1 0 0 1 ${(right - value.width).toFixed(2)} ${y} Tm ${value.ops}`);
      });
    });
    ops.push('ET Q');
    pdf.addContent(ops.join('\n'));
  }
}

/** The part of pdfkit's document (as pdfmake makes it) that drawTableBodies uses. */
interface PdfKitLike {
  provideFont(
    family: string,
    bold: boolean,
    italics: boolean,
  ): { id: string; ascender: number; ref(): unknown; encode(text: string): [string[], { xAdvance: number; advanceWidth: number }[]] };
  switchToPage(index: number): void;
  page: { height: number; fonts: Record<string, unknown> };
  addContent(data: string): void;
  end(): void;
  on(event: 'data', listener: (chunk: Buffer) => void): void;
  on(event: 'end', listener: () => void): void;
}

function comments(sensor: ReportSensor): Content[] {
  if (sensor.comments === null) return [];
  const body: Content[][] = [[{ text: '日時', style: 'th' }, { text: 'コメント', style: 'th' }, { text: '記入者', style: 'th' }]];
  for (const c of sensor.comments) body.push([{ text: formatDateTime(c.at), style: 'cell' }, { text: c.comment, style: 'cell' }, { text: c.userName ?? MISSING_TEXT, style: 'cell' }]);
  return [
    { text: 'コメント', style: 'h3' },
    sensor.comments.length === 0 ? { text: 'コメントはありません', style: 'note' } : { table: { headerRows: 1, widths: [70, '*', 80], body }, layout: 'lightHorizontalLines', margin: [0, 2, 0, 8] },
  ];
}

function summary(sensor: ReportSensor): Content[] {
  const s = sensor.summary;
  if (s === null) return [];
  const alerts: Content[][] = [[{ text: 'アラート', style: 'th' }, { text: '発生', style: 'th' }, { text: '復旧', style: 'th' }, { text: '停止', style: 'th' }, { text: '停止者', style: 'th' }, { text: '改善措置(コメント)', style: 'th' }]];
  for (const a of s.alerts) {
    alerts.push([
      { text: a.label, style: 'cell' },
      { text: formatDateTime(a.startedAt), style: 'cell' },
      { text: a.recoveredAt ? formatDateTime(a.recoveredAt) : MISSING_TEXT, style: 'cell' },
      { text: a.stoppedAt ? formatDateTime(a.stoppedAt) : MISSING_TEXT, style: 'cell' },
      { text: a.stoppedBy ?? MISSING_TEXT, style: 'cell' },
      { text: a.stopComment ?? MISSING_TEXT, style: 'cell' },
    ]);
  }
  return [
    { text: 'サマリー', style: 'h3' },
    {
      table: {
        widths: ['*', '*', '*', '*'],
        body: [
          [{ text: '最低', style: 'th' }, { text: '最高', style: 'th' }, { text: '平均', style: 'th' }, { text: '上下限外の時間', style: 'th' }],
          [{ text: formatDegrees(s.min) }, { text: formatDegrees(s.max) }, { text: formatDegrees(s.mean) }, { text: `${s.minutesOutside}分` }],
        ],
      },
      layout: 'lightHorizontalLines',
      margin: [0, 2, 0, 6],
    },
    s.alerts.length === 0
      ? { text: 'この期間のアラートはありません', style: 'note' }
      : { table: { headerRows: 1, widths: [70, 58, 58, 58, 50, '*'], body: alerts }, layout: 'lightHorizontalLines', margin: [0, 2, 0, 8] },
  ];
}

function sensorSection(sensor: ReportSensor, doc: ReportDocument, slots: TableSlot[]): Content[] {
  return [
    { text: `${sensor.name}（${sensor.serialNo}）`, style: 'h2', pageBreak: 'before' },
    ...sensor.settings.map((p): Content => ({ text: settingsText(p, doc.period), style: 'note' })),
    sensor.points.length === 0 && sensor.rows.every((r) => r.kind === 'missing') ? { text: NO_DATA_TEXT, style: 'empty' } : '',
    chart(sensor, doc),
    ...summary(sensor),
    ...comments(sensor),
    { text: 'データ', style: 'h3', pageBreak: 'before' },
    ...dataTable(sensor, slots),
  ];
}

function cover(doc: ReportDocument): Content[] {
  const sensors: Content[][] = [[{ text: 'センサー', style: 'th' }, { text: 'シリアル番号', style: 'th' }, { text: '期間中の設定', style: 'th' }]];
  for (const s of doc.sensors) {
    sensors.push([
      { text: s.name, style: 'cell' },
      { text: s.serialNo, style: 'cell' },
      { stack: s.settings.length === 0 ? [{ text: '設定なし', style: 'cell' }] : s.settings.map((p) => ({ text: settingsText(p, doc.period), style: 'cell' })) },
    ]);
  }
  return [
    { text: doc.title, style: 'h1' },
    keyValues([
      ['店舗', `${doc.store.storeNo} ${doc.store.storeName}`],
      ['期間', periodText(doc.period)],
      ['種別', REPORT_TYPE_TEXT[doc.reportType]],
      ['データ間隔', intervalText(doc.interval)],
      ['作成者', doc.createdBy ?? MISSING_TEXT],
      ['作成日時', formatDateTime(doc.createdAt)],
    ]),
    { text: '対象センサーと上下限', style: 'h3' },
    doc.sensors.length === 0 ? { text: NO_SENSOR_TEXT, style: 'empty' } : { table: { headerRows: 1, widths: [90, 70, '*'], body: sensors }, layout: 'lightHorizontalLines' },
  ];
}

const PAGE = { width: 595.28, margins: [36, 44, 36, 36] as [number, number, number, number] };

/** The pdfmake document of a report (exported for tests that look at the structure); `slots` collects the data table boxes to draw into. */
export function reportDefinition(doc: ReportDocument, slots: TableSlot[] = []): TDocumentDefinitions {
  const header = pageHeaderText(doc);
  return {
    info: { title: doc.title, creator: 'On-Reco' },
    pageSize: 'A4',
    pageMargins: PAGE.margins,
    header: () => ({ text: header, fontSize: 7, color: '#374151', margin: [36, 18, 36, 0] }),
    footer: (page: number, pages: number) => ({ text: pageFooterText(page, pages), fontSize: 7, alignment: 'center', color: '#374151', margin: [0, 12, 0, 0] }),
    content: [...cover(doc), ...doc.sensors.flatMap((s) => sensorSection(s, doc, slots))],
    defaultStyle: { font: PDF_FONT, fontSize: 9, lineHeight: 1.1 },
    styles: {
      h1: { fontSize: 16, bold: true, margin: [0, 0, 0, 8] },
      h2: { fontSize: 13, bold: true, margin: [0, 0, 0, 4] },
      h3: { fontSize: 10, bold: true, margin: [0, 6, 0, 2] },
      key: { bold: true, color: '#374151' },
      th: { fontSize: 7, bold: true, color: '#374151' },
      cell: { fontSize: 7, lineHeight: 1 },
      note: { fontSize: 8, color: '#374151', margin: [0, 0, 0, 2] },
      empty: { fontSize: 11, bold: true, color: '#b91c1c', margin: [0, 8, 0, 8] },
    },
  };
}

const TABLE_LAYOUTS = {
  // The header row of a data table block: the line under it as lightHorizontalLines draws it.
  headerLineOnly: { hLineWidth: (i: number) => (i === 1 ? 1 : 0), vLineWidth: () => 0, hLineColor: () => 'black', paddingLeft: () => CELL.padding, paddingRight: () => CELL.padding * 3 },
};

/** Renders a report to PDF bytes. */
export async function renderReportPdf(doc: ReportDocument): Promise<Buffer> {
  const slots: TableSlot[] = [];
  const pdfmake = pdfMake();
  pdfmake.addTableLayouts(TABLE_LAYOUTS);
  const pdf = (await pdfmake.createPdf(reportDefinition(doc, slots), { bufferPages: true } as never).getStream()) as unknown as PdfKitLike;
  drawTableBodies(pdf, slots, PAGE.width - PAGE.margins[0] - PAGE.margins[2]);
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    pdf.on('data', (chunk) => chunks.push(chunk));
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.end();
  });
}
