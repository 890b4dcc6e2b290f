import { displayTemperature, type SensorTemperature } from '~/domain/levels';

const TONE: Record<string, string> = {
  value: 'text-slate-800',
  error: 'font-extrabold tracking-wide text-red-600',
  def: 'tracking-wide text-sky-700',
  missing: 'text-slate-400',
};

/**
 * A temperature as the views write it: value with ℃, ERROR in the error style, DEF without a
 * unit, -- when missing. A stale value (older than the no-communication threshold) is greyed,
 * never red: it is no longer the temperature (StaleReading says how old it is).
 */
export function TemperatureText({ temperature, over, stale = false, size = 'lg' }: { temperature: SensorTemperature; over: boolean; stale?: boolean; size?: 'lg' | 'sm' }) {
  const shown = displayTemperature(temperature);
  const tone = stale ? 'text-slate-500' : over ? 'text-red-600' : TONE[shown.tone];
  const big = size === 'lg' ? (shown.tone === 'value' ? 'text-[1.75rem]' : 'text-xl') : 'text-sm';
  return (
    <span className={`font-bold tabular-nums leading-none ${big} ${tone}`} data-tone={shown.tone} data-over={over || undefined} data-stale={stale || undefined}>
      {shown.text}
      {shown.unit && <span className={`ml-0.5 font-semibold ${size === 'lg' ? 'text-sm' : 'text-xs'}`}>{shown.unit}</span>}
    </span>
  );
}
