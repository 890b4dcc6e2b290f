import type { Climate, StoreFormat, Zone } from './furniture';

// Simple but real-looking store floor plans as SVG: walls, entrance, backyard, register,
// gondolas and one labelled box per measured piece of furniture, in the diagram map's
// coordinates (1200 wide, 500 high, as sensors' position_x/position_y). Each sensor is placed
// at the centre of its furniture. No script, no external reference.

export const PLAN_WIDTH = 1200;
export const PLAN_HEIGHT = 500;

export interface PlanItem {
  key: string;
  label: string;
  zone: Zone;
  climate: Climate;
}

export interface FloorPlan {
  svg: string;
  /** Where each item's sensor goes (centre of its furniture). */
  positions: Record<string, { x: number; y: number }>;
}

interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

const FILL: Record<Climate, string> = {
  chilled: '#dff1ff',
  drink: '#e4ecff',
  walkin: '#d9ecf7',
  frozen: '#cfe0ff',
  hot: '#ffe0c7',
  produce: '#e3f5dc',
  room: '#ffffff',
  shelf: '#f1e9f8',
  outside: '#ffffff',
};

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A label that fits its box: shrinks the font for long labels. */
function label(text: string, x: number, y: number, width: number, size = 14, color = '#333'): string {
  const fitted = Math.max(9, Math.min(size, Math.floor((width - 8) / Math.max(1, text.length))));
  return `<text x="${x}" y="${y}" font-size="${fitted}" fill="${color}" text-anchor="middle" dominant-baseline="central">${escapeXml(text)}</text>`;
}

function furniture(box: Box, text: string, fill: string, stroke = '#5b7083'): string {
  return (
    `<rect x="${box.x}" y="${box.y}" width="${box.w}" height="${box.h}" rx="3" fill="${fill}" stroke="${stroke}" stroke-width="1.5"/>` +
    label(text, box.x + box.w / 2, box.y + box.h / 2, box.w)
  );
}

/** Splits a strip into `n` boxes along its length, with gaps. */
function split(area: Box, n: number, horizontal: boolean, gap = 8): Box[] {
  if (n === 0) return [];
  const length = horizontal ? area.w : area.h;
  const size = Math.min(horizontal ? 170 : 72, (length - gap * (n - 1)) / n);
  return Array.from({ length: n }, (_, i) =>
    horizontal
      ? { x: Math.round(area.x + i * (size + gap)), y: area.y, w: Math.round(size), h: area.h }
      : { x: area.x, y: Math.round(area.y + i * (size + gap)), w: area.w, h: Math.round(size) },
  );
}

const ISLAND_CELLS: Box[] = [0, 1].flatMap((row) => [0, 1, 2].map((col) => ({ x: 215 + col * 180, y: 140 + row * 95, w: 150, h: 50 })));
const FILLER_GONDOLAS: Record<StoreFormat, string[]> = {
  convenience: ['日用品', '菓子', 'カップ麺', '雑誌', '文具', 'パン'],
  supermarket: ['調味料', '菓子', '乾物', '米・パン', '日用品', '飲料箱'],
};

export function drawFloorPlan(format: StoreFormat, title: string, items: readonly PlanItem[]): FloorPlan {
  const parts: string[] = [];
  const positions: FloorPlan['positions'] = {};
  const place = (item: PlanItem, box: Box) => {
    parts.push(furniture(box, item.label, FILL[item.climate]));
    positions[item.key] = { x: Math.round(box.x + box.w / 2), y: Math.round(box.y + box.h / 2) };
  };
  const inZone = (zone: Zone) => items.filter((item) => item.zone === zone);

  // Ground, outside strip and parking.
  parts.push(`<rect x="0" y="0" width="${PLAN_WIDTH}" height="${PLAN_HEIGHT}" fill="#eef0eb"/>`);
  parts.push(`<rect x="20" y="20" width="1160" height="420" fill="#fcfcf9"/>`);
  for (let x = 780; x <= 1160; x += 76) parts.push(`<line x1="${x}" y1="450" x2="${x}" y2="496" stroke="#b9bdb4" stroke-width="2"/>`);
  parts.push(label(format === 'convenience' ? '駐車場' : '駐車場・駐輪場', 690, 474, 130, 14, '#777'));
  parts.push(label('歩道', 300, 474, 80, 13, '#888'));

  // Backyard behind its wall (a door at the bottom).
  parts.push(`<rect x="962" y="22" width="216" height="416" fill="#f1f2f6"/>`);
  parts.push(label(format === 'convenience' ? 'バックヤード' : 'バックヤード（作業場）', 1070, 44, 200, 15, '#555'));
  parts.push(`<path d="M960 20 V370 M960 420 V440" stroke="#4a4a4a" stroke-width="5" fill="none"/>`);
  parts.push(`<path d="M960 370 A50 50 0 0 1 1010 420" stroke="#999" stroke-width="1.5" fill="none" stroke-dasharray="4 3"/>`);
  const backyard = inZone('backyard');
  split({ x: 978, y: 66, w: 184, h: 220 }, backyard.length, false, 12).forEach((box, i) => place(backyard[i], box));
  parts.push(furniture({ x: 1040, y: 380, w: 122, h: 46 }, '事務所', '#ffffff', '#999'));

  // Outer walls with the entrance (automatic doors) in the front wall.
  parts.push(`<path d="M470 440 H20 V20 H1180 V440 H590" stroke="#4a4a4a" stroke-width="6" fill="none"/>`);
  parts.push(`<path d="M470 440 H528 M532 440 H590" stroke="#7aa3c9" stroke-width="3"/>`);
  parts.push(label('入口', 530, 458, 60, 13, '#2f5d8a'));
  parts.push(`<path d="M500 462 l30 12 l30 -12" stroke="#2f5d8a" stroke-width="2" fill="none"/>`);

  // Wall cases.
  const top = inZone('wallTop');
  split({ x: 180, y: 32, w: 760, h: 58 }, top.length, true).forEach((box, i) => place(top[i], box));
  const left = inZone('wallLeft');
  split({ x: 32, y: 104, w: 120, h: 320 }, left.length, false, 6).forEach((box, i) => place(left[i], box));
  const right = inZone('wallRight');
  split({ x: 826, y: 104, w: 118, h: 220 }, right.length, false, 6).forEach((box, i) => place(right[i], box));

  // Islands: measured ones first, plain gondolas in the remaining cells.
  const islands = inZone('island');
  ISLAND_CELLS.forEach((cell, i) => {
    if (i < islands.length) place(islands[i], cell);
    else parts.push(furniture(cell, `ゴンドラ（${FILLER_GONDOLAS[format][i]}）`, '#f4f1ea', '#a39e91'));
  });

  // Registers and the counter furniture (hot snacks on the counter).
  const counter = inZone('counter');
  if (format === 'convenience') {
    parts.push(furniture({ x: 740, y: 356, w: 200, h: 62 }, 'レジカウンター', '#f7f3e8', '#8c7b5a'));
    split({ x: 744, y: 306, w: 192, h: 44 }, counter.length, true, 6).forEach((box, i) => place(counter[i], box));
  } else {
    [0, 1, 2, 3, 4].forEach((i) => parts.push(furniture({ x: 236 + i * 96, y: 372, w: 80, h: 44 }, `レジ${i + 1}`, '#f7f3e8', '#8c7b5a')));
    split({ x: 826, y: 336, w: 118, h: 90 }, counter.length, false, 6).forEach((box, i) => place(counter[i], box));
  }

  // The sales floor's own temperature and the outdoor sensor.
  parts.push(label('売場', 480, 330, 120, 30, '#c9c9c0'));
  for (const item of inZone('floor')) positions[item.key] = { x: 560, y: 330 };
  for (const item of inZone('outside')) {
    parts.push(`<rect x="92" y="452" width="36" height="40" rx="3" fill="#ffffff" stroke="#888"/>`);
    parts.push(label(item.label, 152, 472, 60, 12, '#555'));
    positions[item.key] = { x: 110, y: 472 };
  }

  parts.push(label(title, 100, 8 + 2, 200, 11, '#666'));
  const svg =
    `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${PLAN_WIDTH} ${PLAN_HEIGHT}" width="${PLAN_WIDTH}" height="${PLAN_HEIGHT}" ` +
    `font-family="'Noto Sans JP','Hiragino Kaku Gothic ProN','Yu Gothic',Meiryo,sans-serif">\n` +
    `<title>${escapeXml(title)}</title>\n${parts.join('\n')}\n</svg>\n`;
  return { svg, positions };
}
