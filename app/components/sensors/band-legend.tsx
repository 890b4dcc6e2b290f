import { BANDS } from '~/domain/levels';

/** The colour legend of the four temperature bands (000 §2), by upper limit. */
export function BandLegend() {
  return (
    <ul className="flex flex-wrap items-center gap-x-4 gap-y-1 text-xs text-slate-600" aria-label="温度帯の凡例">
      {BANDS.map((band) => (
        <li key={band.band} className="flex items-center gap-1.5">
          <span className="inline-block h-3.5 w-3.5 rounded-full border-[3px] bg-white" style={{ borderColor: band.colour }} aria-hidden />
          <span className="font-medium text-slate-700">{band.name}</span>
          <span className="tabular-nums text-slate-500">{band.range}</span>
        </li>
      ))}
    </ul>
  );
}
