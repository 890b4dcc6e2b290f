// Renders every icon of app/components/icons at 24 and 48 px into tmp/icons.html, to look at
// the set as one family (no route in the app). Then, for a PNG:
//   npx tsx scripts/icon-preview.tsx
//   /usr/bin/chromium --headless --no-sandbox --disable-gpu --screenshot=$PWD/tmp/icons.png \
//     --window-size=1400,1000 file://$PWD/tmp/icons.html
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import * as diagram from '~/components/icons/diagram';
import * as gateway from '~/components/icons/gateway';
import { BatteryIcon, FurnitureIcon, SignalIcon, StoreStatusIcon, WarningIcon } from '~/components/icons';
import * as ui from '~/components/icons/ui';
import { FURNITURE_KINDS } from '~/domain/furniture-kinds';
import { BANDS, type BatteryLevel, type ColourBand, type SignalLevel } from '~/domain/levels';
import { STORE_STATUS_LABELS, STORE_STATUSES } from '~/domain/store-status';

type Sized = (className: string) => ReactElement;
interface Cell {
  label: string;
  icon: Sized;
}

const furniture: Cell[] = [
  ...FURNITURE_KINDS.map((kind) => ({ label: `${kind.id} ${kind.ja} ${kind.en}`, icon: (c: string) => <FurnitureIcon kind={kind.id} className={c} /> })),
  { label: '99 unknown kind', icon: (c: string) => <FurnitureIcon kind={99} className={c} /> },
];

const states: Cell[] = [
  ...STORE_STATUSES.map((status) => ({ label: `status ${status} ${STORE_STATUS_LABELS[status]}`, icon: (c: string) => <StoreStatusIcon status={status} className={c} /> })),
  ...([1, 2] as const).map((severity) => ({ label: `warning ${severity}`, icon: (c: string) => <WarningIcon severity={severity} className={c} /> })),
  ...(['max', 'normal', 'weak', 'none'] as SignalLevel[]).map((level) => ({ label: `signal ${level}`, icon: (c: string) => <SignalIcon level={level} className={c} /> })),
  ...(['full', 'half', 'low', 'empty'] as BatteryLevel[]).map((level) => ({ label: `battery ${level}`, icon: (c: string) => <BatteryIcon level={level} className={c} /> })),
];

// Every glyph component exported by ui.tsx, diagram.tsx and gateway.tsx, so a new one shows up by itself.
const glyphs: Cell[] = Object.entries({ ...ui, ...diagram, ...gateway })
  .filter(([name, value]) => name.endsWith('Icon') && typeof value === 'function')
  .map(([name, Icon]) => ({ label: name.replace(/Icon$/, ''), icon: (c: string) => <Icon className={c} /> }));

// The furniture icons as the sensor circle shows them: band colour on the band tint, in a
// plausible band for each kind (preview only).
const PREVIEW_BAND: Record<number, ColourBand> = { 10: 0, 13: 0, 12: 3, 17: 2, 20: 2, 2: 2, 5: 2, 14: 2, 21: 2 };

const grid = (title: string, cells: Cell[]) => (
  <section>
    <h2>{title}</h2>
    <div className="grid">
      {cells.map((cell) => (
        <div className="cell" key={cell.label}>
          <div className="row">
            {cell.icon('s24')}
            {cell.icon('s48')}
          </div>
          <div className="label">{cell.label}</div>
        </div>
      ))}
    </div>
  </section>
);

const html = renderToStaticMarkup(
  <html lang="ja">
    <head>
      <meta charSet="utf-8" />
      <title>On-Reco icons</title>
      <style>{`
        body { font-family: "Noto Sans CJK JP", "Noto Sans JP", sans-serif; margin: 12px 16px; color: #1e293b; background: #fff; }
        h2 { font-size: 13px; margin: 10px 0 6px; color: #475569; font-weight: 600; }
        .grid { display: grid; grid-template-columns: repeat(9, 1fr); gap: 6px; }
        .cell { border: 1px solid #e2e8f0; border-radius: 6px; padding: 6px 8px 4px; }
        .row { display: flex; align-items: flex-end; gap: 12px; height: 48px; }
        .label { font-size: 10.5px; line-height: 1.25; margin-top: 3px; color: #475569; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
        .s24 { width: 24px; height: 24px; } .s48 { width: 48px; height: 48px; }
        .strip { display: flex; gap: 6px; align-items: center; flex-wrap: wrap; }
        .circle { width: 40px; height: 40px; border-radius: 50%; border: 3px solid; display: grid; place-items: center; box-sizing: border-box; }
        .brand { background: #1766b3; color: #fff; padding: 6px 8px; border-radius: 6px; }
        .muted { color: #64748b; }
      `}</style>
    </head>
    <body>
      {grid('Furniture kinds (icon_kind 1-22)', furniture)}
      {grid('Store status, warning, signal, battery', states)}
      {grid('Interface glyphs', glyphs)}
      <h2>In context: sensor circles (band colour on band tint), white on brand, slate menu text</h2>
      <div className="strip">
        {FURNITURE_KINDS.map((kind) => {
          const band = BANDS[PREVIEW_BAND[kind.id] ?? 1];
          return (
            <span key={kind.id} className="circle" style={{ borderColor: band.colour, background: band.tint, color: band.colour }}>
              <FurnitureIcon kind={kind.id} className="s24" />
            </span>
          );
        })}
      </div>
      <div className="strip" style={{ marginTop: 6 }}>
        <span className="strip brand">
          {FURNITURE_KINDS.map((kind) => (
            <FurnitureIcon key={kind.id} kind={kind.id} className="s24" mono />
          ))}
        </span>
        <span className="strip muted">
          {Object.values({ ...ui, ...diagram, ...gateway }).map((Icon, index) => (
            <Icon key={index} className="s24" />
          ))}
        </span>
      </div>
    </body>
  </html>,
);

const out = path.resolve('tmp/icons.html');
mkdirSync(path.dirname(out), { recursive: true });
writeFileSync(out, `<!doctype html>\n${html}`);
console.log(`wrote ${out} (${furniture.length + states.length + glyphs.length} icons)`);
