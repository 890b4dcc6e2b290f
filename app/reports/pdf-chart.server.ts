// A sensor's chart in the report PDF: the "温度(℃)" caption, the temperature line, the limits as
// steps over the settings periods, the defrost and alert-stop windows shaded, the grid, the axis
// labels and the legend. pdfmake lays out one box of the whole chart's height (a single node, so
// never split across pages); what is in it, at fixed places, is written after layout into the page
// as one path per line and one text object for the labels (docs/decisions/193-report-pdf-cpu.md):
// as pdfmake nodes every point was a pdfkit call and every label a measured, styled text.
import type { Content } from 'pdfmake/interfaces';
import type { ReportDocument, ReportSensor } from '~/domain/report-document';
import { type ChartGeometry, chartGeometry, type Point } from './layout';
import { lineHeightOf } from './pdf-fonts.server';
import { colorOps, num, type PageOps, type PdfKitLike, type Placeholder, placeholder, placeOf, type RunFont, textAt } from './pdf-direct.server';

export const CHART = { width: 470, height: 180, gutter: 34, bottom: 14, tick: 3, captionGap: 2 };
export const CHART_COLORS = { line: '#1d4ed8', upper: '#dc2626', lower: '#2563eb', defrost: '#93c5fd', stop: '#fcd34d', grid: '#e5e7eb', axis: '#6b7280' };
/** The windows' fill opacity. */
export const SHADE_OPACITY = 0.45;
const LABEL = { fontSize: 6, emptyFontSize: 11, legendFontSize: 7 };
const CAPTION = '温度(℃)';
/** The legend: a 14pt swatch in a 16pt column 3pt down, its label after it, 10pt to the next. */
const LEGEND = { swatch: 16, swatchTop: 3, gap: 10 };
const LEGEND_ITEMS: { label: string; line?: { color: string; dashed: boolean }; shade?: string }[] = [
  { label: '温度', line: { color: CHART_COLORS.line, dashed: false } },
  { label: '上限', line: { color: CHART_COLORS.upper, dashed: true } },
  { label: '下限', line: { color: CHART_COLORS.lower, dashed: true } },
  { label: '霜取り', shade: CHART_COLORS.defrost },
  { label: 'アラート停止', shade: CHART_COLORS.stop },
];

/** One chart: where pdfmake put its box, and what goes in it. */
export interface ChartSlot {
  box: Placeholder;
  geometry: ChartGeometry;
  /** The text in an empty chart, or null. */
  emptyText: string | null;
}

/** Where the parts go below the box's top: the plot (after the caption) and the legend (after the plot, its ticks and a gap). */
function chartLayout(geometry: ChartGeometry): { plotTop: number; legendTop: number; height: number } {
  const plotTop = lineHeightOf(LABEL.fontSize) + CHART.captionGap;
  const legendTop = plotTop + CHART.height + (geometry.xTicks.length > 0 ? CHART.tick : 0) + CHART.bottom;
  return { plotTop, legendTop, height: legendTop + lineHeightOf(LABEL.legendFontSize) };
}

/** The chart's box for pdfmake, with its margins. */
export function chartBox(sensor: ReportSensor, doc: ReportDocument, emptyText: string, slots: ChartSlot[]): Content {
  const geometry = chartGeometry(sensor, doc.period, CHART);
  const box = placeholder(chartLayout(geometry).height, { margin: [0, 4, 0, 8] });
  slots.push({ box, geometry, emptyText: geometry.empty ? emptyText : null });
  return box;
}

const rect = (x: number, y: number, w: number, h: number) => `${num(x)} ${num(y)} ${num(w)} ${num(h)} re`;
const segment = (x1: number, y1: number, x2: number, y2: number) => `${num(x1)} ${num(y1)} m ${num(x2)} ${num(y2)} l`;

/** A polyline as one path; closed when it ends where it starts, as pdfmake's canvas closes it. */
function polylinePath(points: readonly Point[]): string {
  const pts = points.length === 1 ? [points[0], { x: points[0].x + 0.6, y: points[0].y }] : points;
  const ops = [`${num(pts[0].x + CHART.gutter)} ${num(pts[0].y)} m`];
  for (let i = 1; i < pts.length; i++) ops.push(`${num(pts[i].x + CHART.gutter)} ${num(pts[i].y)} l`);
  const last = pts[pts.length - 1];
  if (last.x === pts[0].x && last.y === pts[0].y) ops.push('h');
  return ops.join('\n');
}

/** The vectors in the chart's own space (origin at the box's top-left corner, y down), in pdfmake's drawing order. */
function vectorOps(g: ChartGeometry, shade: string): string {
  const ops: string[] = ['0 j 0 J [] 0 d', `q /${shade} gs`];
  for (const [windows, color] of [[g.defrost, CHART_COLORS.defrost], [g.stops, CHART_COLORS.stop]] as const) {
    if (windows.length === 0) continue;
    ops.push(colorOps(color, 'rg'), ...windows.map((w) => `${rect(w.x + CHART.gutter, 0, w.width, CHART.height)} f`));
  }
  ops.push('Q');
  if (g.yTicks.length > 0) ops.push(`0.4 w ${colorOps(CHART_COLORS.grid, 'RG')}`, ...g.yTicks.map((t) => segment(CHART.gutter, t.y, CHART.gutter + CHART.width, t.y)), 'S');
  if (g.xTicks.length > 0) ops.push(`0.5 w ${colorOps(CHART_COLORS.axis, 'RG')}`, ...g.xTicks.map((t) => segment(CHART.gutter + t.x, CHART.height, CHART.gutter + t.x, CHART.height + CHART.tick)), 'S');
  ops.push(`0.6 w ${colorOps(CHART_COLORS.axis, 'RG')} ${rect(CHART.gutter, 0, CHART.width, CHART.height)} S`);
  const lines: [Point[][], string, number, boolean][] = [
    [g.upper, CHART_COLORS.upper, 1, true],
    [g.lower, CHART_COLORS.lower, 1, true],
    [g.line, CHART_COLORS.line, 0.7, false],
  ];
  for (const [polylines, color, width, dashed] of lines) {
    const drawn = polylines.filter((points) => points.length > 0);
    if (drawn.length === 0) continue;
    // Each polyline stroked alone, as pdfmake did: a dash pattern restarts with each.
    ops.push(`${width} w ${dashed ? '[3 3] 0 d' : '[] 0 d'} ${colorOps(color, 'RG')}`, ...drawn.map((points) => `${polylinePath(points)}\nS`));
  }
  return ops.join('\n');
}

/** The caption, the axis labels (and the empty chart's text) in PDF space, the plot's top-left corner at (left, top) from the page's top. */
function labelOps(slot: ChartSlot, font: RunFont, left: number, top: number, pageHeight: number): string {
  const g = slot.geometry;
  const baseline = (y: number, size: number) => pageHeight - top - y - font.baseline(size);
  const ops = [`${colorOps(CHART_COLORS.axis, 'rg')} BT /${font.id} ${LABEL.fontSize} Tf`];
  ops.push(textAt(left, baseline(-chartLayout(g).plotTop, LABEL.fontSize), font.run(CAPTION)));
  for (const t of g.yTicks) ops.push(textAt(left, baseline(t.y - 4, LABEL.fontSize), font.run(t.label)));
  for (const t of g.xTicks) ops.push(textAt(left + CHART.gutter + t.x - 12, baseline(CHART.height + 4, LABEL.fontSize), font.run(t.label)));
  if (slot.emptyText !== null) {
    const x = CHART.gutter + CHART.width / 2 - slot.emptyText.length * 5.5;
    ops.push(`/${font.id} ${LABEL.emptyFontSize} Tf`, textAt(left + x, baseline(CHART.height / 2 - 8, LABEL.emptyFontSize), font.run(slot.emptyText)));
  }
  ops.push('ET');
  return ops.join('\n');
}

/** The legend below the plot: swatches in the legend's own space (y down), labels in PDF space. */
function legendOps(font: RunFont, shade: string, left: number, top: number, pageHeight: number): { swatches: string; labels: string } {
  const swatches: string[] = [];
  const labels = [`0 0 0 rg BT /${font.id} ${LABEL.legendFontSize} Tf`];
  let x = 0;
  for (const item of LEGEND_ITEMS) {
    const y = LEGEND.swatchTop;
    if (item.line) swatches.push(`1 w ${item.line.dashed ? '[3 3] 0 d' : '[] 0 d'} ${colorOps(item.line.color, 'RG')} ${segment(x, y + 4, x + 14, y + 4)} S`);
    if (item.shade) swatches.push(`q /${shade} gs ${colorOps(item.shade, 'rg')} ${rect(x, y, 14, 8)} f Q`);
    x += LEGEND.swatch;
    const label = font.run(item.label);
    labels.push(textAt(left + x, pageHeight - top - font.baseline(LABEL.legendFontSize), label));
    x += (label.advance * LABEL.legendFontSize) / 1000 + LEGEND.gap;
  }
  labels.push('ET');
  return { swatches: swatches.join('\n'), labels: labels.join('\n') };
}

/** Draws every chart into its box, in the order pdfmake drew them: caption and axis labels, the plot's vectors over them, the legend. */
export function drawCharts(pdf: PdfKitLike, out: PageOps, font: RunFont, slots: readonly ChartSlot[]): void {
  if (slots.length === 0) return;
  const shade = { name: 'GsShade', ref: pdf.ref({ Type: 'ExtGState', ca: SHADE_OPACITY }) };
  shade.ref.end('');
  for (const slot of slots) {
    const at = placeOf(slot.box, 'chart');
    pdf.switchToPage(at.page);
    const height = pdf.page.height;
    const layout = chartLayout(slot.geometry);
    const plotTop = at.top + layout.plotTop;
    const legendTop = at.top + layout.legendTop;
    const labels = labelOps(slot, font, at.left, plotTop, height);
    const legend = legendOps(font, shade.name, at.left, legendTop, height);
    // Back to pdfmake's space (y down from the page top), moved to the plot, then to the legend.
    const toPlot = `1 0 0 -1 0 ${height} cm 1 0 0 1 ${num(at.left)} ${num(plotTop)} cm`;
    const vectors = `q ${toPlot}\n${vectorOps(slot.geometry, shade.name)}\n1 0 0 1 0 ${num(layout.legendTop - layout.plotTop)} cm\n${legend.swatches}\nQ`;
    out.add(at.page, `${labels}\n${vectors}\n${legend.labels}`, [font], [shade]);
  }
}
