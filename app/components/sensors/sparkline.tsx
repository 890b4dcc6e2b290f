import { type SparkPoint, sparkline } from '~/domain/sensor-view';

const SPARKLINE_NAME = '本日の温度推移（10分ごと）';
const SPARKLINE_STEP = '10分ごと';

/**
 * Today's readings as a small inline SVG line (no chart library), with the limits dashed. It
 * names no value of its own: its points are 10-minute buckets, and a second "latest" beside the
 * popup's reading would contradict it (issue 11); the popup's 温度 is the one current value.
 */
export function Sparkline({ points, lower, upper, width = 256, height = 56 }: { points: SparkPoint[]; lower: number | null; upper: number | null; width?: number; height?: number }) {
  if (points.length === 0) return <span className="flex h-14 items-center justify-center text-xs text-slate-400">本日の測定データはありません</span>;
  const { path, y } = sparkline(points, { width, height, limits: [lower, upper] });
  const limitLine = (value: number | null, key: string) => {
    const at = y(value);
    return at === null ? null : <line key={key} x1="0" x2={width} y1={at} y2={at} stroke="#ef4444" strokeWidth="1" strokeDasharray="3 3" opacity="0.7" />;
  };
  return (
    <span className="block">
      <svg viewBox={`0 0 ${width} ${height}`} width="100%" height={height} role="img" aria-label={SPARKLINE_NAME} className="block" data-points={points.length}>
        <rect x="0" y="0" width={width} height={height} rx="4" fill="#f8fafc" />
        {limitLine(upper, 'upper')}
        {limitLine(lower, 'lower')}
        <path d={path} fill="none" stroke="#1766b3" strokeWidth="1.6" strokeLinejoin="round" strokeLinecap="round" />
      </svg>
      <span className="mt-0.5 flex justify-between text-[10px] tabular-nums text-slate-400" aria-hidden>
        <span>0:00</span>
        <span>{SPARKLINE_STEP}</span>
        <span>24:00</span>
      </span>
    </span>
  );
}
