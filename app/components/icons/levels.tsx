import { BATTERY_LABELS, type BatteryLevel, SIGNAL_BARS, SIGNAL_LABELS, type SignalLevel } from '~/domain/levels';
import { Glyph, type IconProps } from './glyph';
import { ICON_COLOURS } from './palette';

// Signal and battery icons (000 §9; levels from app/domain/levels.ts). The level is drawn
// (bars lit, fill width) and coloured from the palette; the title defaults to the level in
// Japanese, because the icon is the only place the level is shown.

const SIGNAL_COLOUR: Record<SignalLevel, string> = { max: ICON_COLOURS.ok, normal: ICON_COLOURS.ok, weak: ICON_COLOURS.warning, none: ICON_COLOURS.muted };
const BARS = [
  { x: 3.5, top: 15 },
  { x: 9.5, top: 10 },
  { x: 15.5, top: 5 },
];

/** Three rising bars lit by level; none: every bar hollow and struck through. */
export function SignalIcon({ level, className, title }: IconProps & { level: SignalLevel }) {
  const lit = SIGNAL_BARS[level];
  return (
    <Glyph className={className} title={title ?? SIGNAL_LABELS[level]} colour={SIGNAL_COLOUR[level]}>
      {BARS.map((bar, index) => (
        <rect key={bar.x} x={bar.x} y={bar.top} width="5" height={20.5 - bar.top} rx="1" fill={index < lit ? 'currentColor' : 'none'} strokeOpacity={index < lit ? 1 : 0.5} />
      ))}
      {level === 'none' && <path d="M3 3.5l18 18" stroke={ICON_COLOURS.danger} />}
    </Glyph>
  );
}

const BATTERY: Record<BatteryLevel, { colour: string; width: number }> = {
  full: { colour: ICON_COLOURS.ok, width: 12 },
  half: { colour: ICON_COLOURS.ok, width: 6 },
  low: { colour: ICON_COLOURS.danger, width: 2.5 },
  empty: { colour: ICON_COLOURS.danger, width: 0 },
};

/** A horizontal battery filled by level: full, half, low (red sliver), empty (red, crossed). */
export function BatteryIcon({ level, className, title }: IconProps & { level: BatteryLevel }) {
  const style = BATTERY[level];
  return (
    <Glyph className={className} title={title ?? BATTERY_LABELS[level]} colour={style.colour}>
      <rect x="2.5" y="7" width="17" height="10" rx="2" />
      <path d="M21.5 10.5v3" strokeWidth={2.2} />
      {style.width > 0 && <rect x="5" y="9.5" width={style.width} height="5" rx=".5" fill="currentColor" stroke="none" />}
      {level === 'empty' && <path d="M8.5 9.5l5 5M13.5 9.5l-5 5" />}
    </Glyph>
  );
}
