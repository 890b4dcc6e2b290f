import { type ActiveElement, type ChartEvent, type ChartOptions, type Plugin, type TooltipItem, Chart as ChartJS, LinearScale, LineElement, PointElement, Tooltip } from 'chart.js';
import { useMemo } from 'react';
import { Line } from 'react-chartjs-2';
import { formatDegrees } from '~/domain/format';
import { GAUGE_MARKS, type LimitStep, type MinuteRange, type ValueBand, axisTicks, slotLabel, tickLabel } from '~/domain/graph';

// The chart of one graph panel. This module (and Chart.js with it) is loaded only by the
// temperature graph page, through React.lazy (lazy-chart.tsx): nothing here reaches the shared
// chunks. Only the parts drawn are registered: lines, points, a linear x and y, the tooltip.
ChartJS.register(LineElement, PointElement, LinearScale, Tooltip);

export interface ChartSensor {
  equipmentId: number;
  name: string;
  colour: string;
  commentRequired: boolean;
  /** One value per slot, null where nothing was measured. */
  values: (number | null)[];
  /** Comments by slot. */
  comments: Record<number, string[]>;
  defrost: MinuteRange[];
}

export interface TemperatureChartProps {
  period: { unit: 'day' | 'week' | 'month'; sinceMs: number; stepMinutes: number; slotCount: number };
  sensors: ChartSensor[];
  yRange: { min: number; max: number };
  /** With one sensor: the zones outside its limits, and the limits as dashed lines. */
  thresholdBands: ValueBand[];
  limits: number[];
  /** The limits over time (settings history): drawn as step lines instead of flat ones. */
  limitSteps?: LimitStep[];
  alertStops: MinuteRange[];
  /** A click on a point of a sensor that takes comments. */
  onPointClick?: (equipmentId: number, slot: number) => void;
}

/** #rrggbb with an alpha, for translucent fills. */
export function withAlpha(hex: string, alpha: number): string {
  const n = Number.parseInt(hex.slice(1), 16);
  return `rgba(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255}, ${alpha})`;
}

interface BandOptions {
  stepMinutes: number;
  thresholdBands: ValueBand[];
  limits: number[];
  limitSteps?: LimitStep[];
  alertStops: MinuteRange[];
  defrost: { colour: string; ranges: MinuteRange[] }[];
}

/** Shaded ranges under the lines: out-of-limit zones, defrost (sensor colour), alert stop (hatched grey); gauge marks and limit lines. */
const bandsPlugin: Plugin<'line', BandOptions> = {
  id: 'onrecoBands',
  beforeDatasetsDraw(chart, _args, options) {
    const { ctx, chartArea: area, scales } = chart;
    const x = scales.x;
    const y = scales.y;
    ctx.save();
    ctx.beginPath();
    ctx.rect(area.left, area.top, area.right - area.left, area.bottom - area.top);
    ctx.clip();
    const xOf = (minute: number) => x.getPixelForValue(minute / options.stepMinutes);
    for (const band of options.thresholdBands) {
      const top = y.getPixelForValue(band.to);
      const bottom = y.getPixelForValue(band.from);
      ctx.fillStyle = 'rgba(239, 68, 68, 0.07)';
      const left = band.start === undefined ? area.left : xOf(band.start);
      const right = band.end === undefined ? area.right : xOf(band.end);
      ctx.fillRect(left, top, right - left, bottom - top);
    }
    for (const sensor of options.defrost) {
      ctx.fillStyle = withAlpha(sensor.colour, 0.13);
      for (const [start, end] of sensor.ranges) ctx.fillRect(xOf(start), area.top, xOf(end) - xOf(start), area.bottom - area.top);
    }
    if (options.alertStops.length > 0) {
      ctx.fillStyle = hatch(ctx);
      for (const [start, end] of options.alertStops) ctx.fillRect(xOf(start), area.top, xOf(end) - xOf(start), area.bottom - area.top);
    }
    ctx.lineWidth = 1.25;
    ctx.strokeStyle = '#64748b';
    for (const mark of GAUGE_MARKS) {
      const at = Math.round(y.getPixelForValue(mark)) + 0.5;
      ctx.beginPath();
      ctx.moveTo(area.left, at);
      ctx.lineTo(area.right, at);
      ctx.stroke();
    }
    ctx.setLineDash([6, 4]);
    ctx.lineWidth = 1.5;
    ctx.strokeStyle = '#dc2626';
    if (options.limitSteps && options.limitSteps.length > 0) {
      // Each limit as a step line: flat while a setting held, a vertical step where it changed.
      for (const side of ['lower', 'upper'] as const) {
        ctx.beginPath();
        let drawing = false;
        for (const step of options.limitSteps) {
          const value = step[side];
          if (value === null) {
            drawing = false;
            continue;
          }
          const at = Math.round(y.getPixelForValue(value)) + 0.5;
          if (drawing) ctx.lineTo(xOf(step.start), at);
          else ctx.moveTo(xOf(step.start), at);
          ctx.lineTo(xOf(step.end), at);
          drawing = true;
        }
        ctx.stroke();
      }
    } else {
      for (const limit of options.limits) {
        const at = Math.round(y.getPixelForValue(limit)) + 0.5;
        ctx.beginPath();
        ctx.moveTo(area.left, at);
        ctx.lineTo(area.right, at);
        ctx.stroke();
      }
    }
    ctx.restore();
  },
};

let hatchPattern: CanvasPattern | null = null;
function hatch(ctx: CanvasRenderingContext2D): CanvasPattern | string {
  if (hatchPattern) return hatchPattern;
  const tile = document.createElement('canvas');
  tile.width = 8;
  tile.height = 8;
  const t = tile.getContext('2d');
  if (!t) return 'rgba(100, 116, 139, 0.15)';
  t.fillStyle = 'rgba(100, 116, 139, 0.10)';
  t.fillRect(0, 0, 8, 8);
  t.strokeStyle = 'rgba(100, 116, 139, 0.35)';
  t.lineWidth = 1;
  t.beginPath();
  t.moveTo(0, 8);
  t.lineTo(8, 0);
  t.stroke();
  hatchPattern = ctx.createPattern(tile, 'repeat');
  return hatchPattern ?? 'rgba(100, 116, 139, 0.15)';
}

/** The canvas's accessible name and the id of the text that describes what it shows. */
interface ChartLabelling {
  name: string;
  describedBy: string;
}

export default function TemperatureChart({ period, sensors, yRange, thresholdBands, limits, limitSteps, alertStops, onPointClick, name, describedBy }: TemperatureChartProps & ChartLabelling) {
  const axisPeriod = useMemo(() => ({ unit: period.unit, since: new Date(period.sinceMs), stepMinutes: period.stepMinutes }), [period.unit, period.sinceMs, period.stepMinutes]);
  const data = useMemo(
    () => ({
      datasets: sensors.map((sensor) => ({
        label: sensor.name,
        data: sensor.values.map((y, x) => ({ x, y })),
        borderColor: sensor.colour,
        backgroundColor: sensor.colour,
        borderWidth: 1.75,
        spanGaps: false,
        // No dots on the line, except a lone reading between gaps and the commented readings.
        pointRadius: sensor.values.map((value, i) =>
          value === null ? 0 : sensor.comments[i] ? 5 : sensor.values[i - 1] == null && sensor.values[i + 1] == null ? 2 : 0,
        ),
        pointStyle: sensor.values.map((_, i) => (sensor.comments[i] ? 'rectRot' : 'circle')),
        pointBackgroundColor: sensor.values.map((_, i) => (sensor.comments[i] ? '#ffffff' : sensor.colour)),
        pointBorderWidth: 2,
        pointHoverRadius: sensor.commentRequired ? 6 : 4,
        pointHitRadius: sensor.commentRequired ? HIT_RADIUS_PX.mouse : 2,
      })),
    }),
    [sensors],
  );
  const options = useMemo<ChartOptions<'line'>>(
    () => ({
      animation: false,
      responsive: true,
      maintainAspectRatio: false,
      parsing: false,
      normalized: true,
      interaction: { mode: 'index', intersect: false, axis: 'x' },
      layout: { padding: { right: 8 } },
      scales: {
        x: {
          type: 'linear',
          min: 0,
          max: period.slotCount - 1,
          grid: { color: '#eef2f7' },
          // Ticks on the whole hours (a day) or midnights (a week, a month), set here: Chart.js's own
          // spacing stretches a step that almost divides the axis (a week's 335 slots by 48). On a
          // phone fewer of them (the scale's width is known by now), so the labels stay readable.
          afterBuildTicks: (scale) => {
            scale.ticks = axisTicks(axisPeriod, period.slotCount, scale.width).map((value) => ({ value }));
          },
          ticks: {
            autoSkip: true,
            maxRotation: 0,
            color: '#64748b',
            font: { size: 11 },
            callback: (value) => tickLabel(axisPeriod, Number(value)) ?? undefined,
          },
        },
        y: {
          type: 'linear',
          min: yRange.min,
          max: yRange.max,
          grid: { color: '#eef2f7' },
          // The bounds carry the 10 °C padding (often odd values): no labels of their own, only the round ticks.
          ticks: { color: '#64748b', font: { size: 11 }, includeBounds: false, callback: (value) => `${value}℃` },
        },
      },
      plugins: {
        legend: { display: false },
        tooltip: {
          callbacks: {
            title: (items: TooltipItem<'line'>[]) => (items[0] ? slotLabel(axisPeriod, items[0].parsed.x ?? 0) : ''),
            label: (item: TooltipItem<'line'>) => `${item.dataset.label}: ${formatDegrees(item.parsed.y)}`,
            afterLabel: (item: TooltipItem<'line'>) => {
              const comments = sensors[item.datasetIndex]?.comments[item.dataIndex];
              return comments ? comments.map((text) => `コメント: ${text}`) : '';
            },
          },
        },
        onrecoBands: {
          stepMinutes: period.stepMinutes,
          thresholdBands,
          limits,
          limitSteps,
          alertStops,
          defrost: sensors.map((sensor) => ({ colour: sensor.colour, ranges: sensor.defrost })),
        },
      },
      onHover: (event: ChartEvent, _elements: ActiveElement[], chart: ChartJS) => {
        const target = event.native?.target as HTMLElement | undefined;
        if (target) target.style.cursor = commentablePoint(chart, event, sensors) ? 'pointer' : 'default';
      },
      onClick: (event: ChartEvent, _elements: ActiveElement[], chart: ChartJS) => {
        const hit = commentablePoint(chart, event, sensors);
        if (hit && onPointClick) onPointClick(hit.equipmentId, hit.slot);
      },
    }),
    [axisPeriod, period.slotCount, period.stepMinutes, yRange.min, yRange.max, thresholdBands, limits, limitSteps, alertStops, sensors, onPointClick],
  );
  return <Line data={data} options={options} plugins={[bandsPlugin]} aria-label={name} aria-describedby={describedBy} />;
}

/** How far from a commentable point a click or tap still reaches it: a fingertip is wider than a pointer (issue 33 item 4). */
const HIT_RADIUS_PX = { mouse: 12, touch: 24 } as const;

/**
 * The measured point of a sensor that takes comments nearest to the pointer (within 12 px, a
 * touch within 24 px), if any. Slots are a few pixels apart on a phone, so every slot within the
 * radius is looked at, not only the one under the finger.
 */
function commentablePoint(chart: ChartJS, event: ChartEvent, sensors: ChartSensor[]): { equipmentId: number; slot: number } | null {
  if (event.x === null || event.y === null) return null;
  const { x: xScale, y: yScale } = chart.scales;
  const native = event.native as PointerEvent | null;
  const radius = native && 'pointerType' in native && native.pointerType !== 'mouse' && native.pointerType !== '' ? HIT_RADIUS_PX.touch : HIT_RADIUS_PX.mouse;
  const first = Math.max(0, Math.ceil(xScale.getValueForPixel(event.x - radius) ?? 0));
  const last = Math.floor(xScale.getValueForPixel(event.x + radius) ?? -1);
  let best: { equipmentId: number; slot: number; distance: number } | null = null;
  for (const sensor of sensors) {
    if (!sensor.commentRequired) continue;
    for (let slot = first; slot <= Math.min(last, sensor.values.length - 1); slot++) {
      const value = sensor.values[slot];
      if (value === null || value === undefined) continue;
      const distance = Math.hypot(xScale.getPixelForValue(slot) - event.x, yScale.getPixelForValue(value) - event.y);
      if (distance <= radius && (!best || distance < best.distance)) best = { equipmentId: sensor.equipmentId, slot, distance };
    }
  }
  return best && { equipmentId: best.equipmentId, slot: best.slot };
}
