import { Link } from '@remix-run/react';
import { ALARM_BANDS, type AlarmBand, alarmBand, alarmShareText, PREFECTURE_TILES, TILE_COLUMNS, TILE_ROWS, tileName } from '~/domain/chain-overview';
import type { ChainOverview } from '~/domain/chain-overview-schemas';

// Japan as a tile cartogram of our own (no map data fetched or licensed): one square per
// prefecture, coloured by its share of stores in alarm; each tile links to the dashboard's list
// of that prefecture's stores. Colours stay apart for red-green colour blindness by lightness too.

const TILE = 56;
const GAP = 4;

/** Fill and text of each band; the wall screen's dark background takes the same fills. */
export const BAND_COLOURS: Record<AlarmBand, { fill: string; text: string }> = {
  empty: { fill: '#e2e8f0', text: '#475569' },
  clear: { fill: '#bbf7d0', text: '#14532d' },
  low: { fill: '#fde68a', text: '#713f12' },
  mid: { fill: '#fb923c', text: '#431407' },
  high: { fill: '#b91c1c', text: '#ffffff' },
};

/** `wall`: the map fits the screen's height (a wall screen is never scrolled); otherwise it takes the width it is given. */
export function JapanTileMap({ prefectures, linkOf, className, wall = false }: { prefectures: ChainOverview['prefectures']; linkOf: (prefectureId: number) => string; className?: string; wall?: boolean }) {
  const byId = new Map(prefectures.map((place) => [place.prefecture_id, place]));
  return (
    <figure className={className}>
      <svg viewBox={`0 0 ${TILE_COLUMNS * (TILE + GAP)} ${TILE_ROWS * (TILE + GAP)}`} role="group" aria-label="都道府県別の警報発生店舗の割合（地図）" className={wall ? 'h-[calc(100vh-16rem)] w-full' : 'h-auto w-full'} data-testid="japan-map">
        {PREFECTURE_TILES.map(([id, column, row]) => {
          const place = byId.get(id);
          if (!place) return null;
          const band = alarmBand(place.store_count, place.alarm_store_count);
          const colours = BAND_COLOURS[band];
          const label = `${place.prefecture_name}: ${place.store_count}店舗中 警報発生 ${place.alarm_store_count}店舗（${alarmShareText(place.store_count, place.alarm_store_count)}）、未接続 ${place.not_connected_count}店舗`;
          const x = column * (TILE + GAP);
          const y = row * (TILE + GAP);
          return (
            <Link key={id} to={linkOf(id)} aria-label={label} data-band={band} data-prefecture={id}>
              <title>{label}</title>
              <rect x={x} y={y} width={TILE} height={TILE} rx={6} fill={colours.fill} stroke={place.not_connected_count > 0 ? '#334155' : 'none'} strokeWidth={place.not_connected_count > 0 ? 2 : 0} strokeDasharray="4 3" />
              <text x={x + TILE / 2} y={y + 22} textAnchor="middle" fontSize={13} fontWeight={700} fill={colours.text}>
                {tileName(place.prefecture_name)}
              </text>
              <text x={x + TILE / 2} y={y + 42} textAnchor="middle" fontSize={13} fill={colours.text}>
                {place.store_count === 0 ? '—' : `${place.alarm_store_count}/${place.store_count}`}
              </text>
            </Link>
          );
        })}
      </svg>
      <figcaption>
        <MapLegend />
      </figcaption>
    </figure>
  );
}

function MapLegend() {
  return (
    <ul className="mt-2 flex flex-wrap items-center gap-x-4 gap-y-1 text-xs" aria-label="凡例：警報発生店舗の割合">
      {ALARM_BANDS.map(({ band, label }) => (
        <li key={band} className="flex items-center gap-1.5">
          <span className="inline-block h-3.5 w-3.5 rounded-sm border border-slate-400" style={{ background: BAND_COLOURS[band].fill }} aria-hidden />
          {label}
        </li>
      ))}
      <li className="flex items-center gap-1.5">
        <span className="inline-block h-3.5 w-3.5 rounded-sm border-2 border-dashed border-slate-700" aria-hidden />
        未接続の店舗あり
      </li>
      <li>数字: 警報発生店舗数/店舗数</li>
    </ul>
  );
}
