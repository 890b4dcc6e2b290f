import type { ReactNode, SVGProps } from 'react';
import { furnitureLabel } from '~/domain/furniture-kinds';
import { Glyph, type IconProps } from './glyph';
import { ICON_COLOURS } from './palette';

// The 22 furniture kinds of a sensor (icon_kind, 000 §3) as one family of 24×24 stroke
// glyphs: each a distinct silhouette that reads at 24 px. Labels: app/domain/furniture-kinds.ts.
// Fills: a light currentColor tint for volume, solid currentColor for small dark parts, and a
// palette accent only where the kind is about temperature (frozen, ice, chilled, hot snack).

const fill = { fill: 'currentColor', fillOpacity: 0.18 } as const;
const solid = { fill: 'currentColor', stroke: 'none' } as const;

type Accent = (hue: 'frozen' | 'chilled' | 'hot') => SVGProps<SVGPathElement>;
const colourAccent: Accent = (hue) => ({ fill: ICON_COLOURS[hue] });
const monoAccent: Accent = () => fill;

/** A small snowflake in the top-right corner: the chilled cases. */
const COLD_MARK = <path d="M19 2.5v5M16.8 3.8l4.4 2.5M16.8 6.3l4.4-2.5" strokeWidth={1.5} />;

const GLYPHS: Record<number, (accent: Accent) => ReactNode> = {
  // 1 alcohol: a beer mug with foam
  1: () => (
    <>
      <path d="M5 9h10v10a2 2 0 0 1-2 2H7a2 2 0 0 1-2-2V9Z" />
      <path d="M15 11h1.5a2.5 2.5 0 0 1 2.5 2.5v1a2.5 2.5 0 0 1-2.5 2.5H15" />
      <path d="M5 9a2.2 2.2 0 0 1 .6-4.1 2.6 2.6 0 0 1 4.6-1.1 2.6 2.6 0 0 1 4.2 1.3A2 2 0 0 1 15 9" {...fill} />
      <path d="M8.5 12.5v5M11.5 12.5v5" />
    </>
  ),
  // 2 backyard: stacked stock boxes
  2: () => (
    <>
      <rect x="7.5" y="3.5" width="9" height="7.5" rx="1" />
      <rect x="2.5" y="13" width="9" height="7.5" rx="1" />
      <rect x="12.5" y="13" width="9" height="7.5" rx="1" />
      <path d="M11 3.5v3h2v-3M6 13v3h2v-3M16 13v3h2v-3" />
    </>
  ),
  // 3 chilled 1: an open multi-deck case, front view, goods on its shelves
  3: (accent) => (
    <>
      <path d="M3.5 21V6a1.5 1.5 0 0 1 1.5-1.5h9.5M20.5 10v11M2.5 21h19" />
      <path d="M3.5 9h11M3.5 14h17M3.5 18h17" />
      <path d="M6 11h3v3H6ZM11 11h3v3h-3ZM16 11h3v3h-3Z" {...accent('chilled')} />
      {COLD_MARK}
    </>
  ),
  // 4 chilled 2: a two-door reach-in case
  4: (accent) => (
    <>
      <path d="M3.5 8V6A1.5 1.5 0 0 1 5 4.5h10A1.5 1.5 0 0 1 16.5 6v2Z" {...accent('chilled')} />
      <rect x="3.5" y="4.5" width="13" height="16.5" rx="1.5" />
      <path d="M10 8v13M3.5 8h13" />
      <path d="M8.2 11.5v4M11.8 11.5v4" />
      {COLD_MARK}
    </>
  ),
  // 5 cosmetics: a lipstick and a sparkle
  5: () => (
    <>
      <rect x="6.5" y="13.5" width="8" height="7.5" rx="1" />
      <path d="M7.5 13.5v-3h6v3" />
      <path d="M8.5 10.5V6.8L12.5 4v6.5" {...fill} />
      <path d="M18.5 4.5v4M16.5 6.5h4M18.5 13v2.5M17.2 14.2h2.6" />
    </>
  ),
  // 6 dairy: a gable-top milk carton with a drop
  6: () => (
    <>
      <path d="M6 10 8.5 5.5h7L18 10v11H6V10Z" />
      <path d="M8.5 5.5V2.8h7v2.7M6 10h12" />
      <path d="M12 12.5c-1.3 1.7-2.2 2.8-2.2 3.9a2.2 2.2 0 0 0 4.4 0c0-1.1-.9-2.2-2.2-3.9Z" {...fill} />
    </>
  ),
  // 7 dessert: a caramel pudding on a plate, a cherry on top
  7: () => (
    <>
      <path d="M7.5 9.5h9l2 9.5h-13l2-9.5Z" />
      <path d="M7.5 9.5h9l.5 2.6c-1.6 1-3.3 1-5 .3s-3.4-.7-5 .2l.5-3.1Z" {...solid} />
      <path d="M2.5 19h19M6 19c.6 1.3 1.6 2 3 2h6c1.4 0 2.4-.7 3-2" />
      <circle cx="12" cy="6.8" r="1.8" {...solid} />
      <path d="M12.6 5.2c.3-1.3 1.2-2.2 2.6-2.7" />
    </>
  ),
  // 8 drink: a PET bottle
  8: () => (
    <>
      <rect x="9.5" y="2" width="5" height="2.8" rx=".6" />
      <path d="M10 4.8v1.7L7.8 9.3V20a1.5 1.5 0 0 0 1.5 1.5h5.4a1.5 1.5 0 0 0 1.5-1.5V9.3L14 6.5V4.8" />
      <path d="M7.8 12.5h8.4M7.8 17h8.4" />
    </>
  ),
  // 9 energy drink: a can with a lightning bolt
  9: () => (
    <>
      <path d="M6.5 6h11v13.5A1.5 1.5 0 0 1 16 21H8a1.5 1.5 0 0 1-1.5-1.5V6Z" />
      <path d="M7.8 3h8.4l1.3 3h-11L7.8 3Z" />
      <path d="M13 8.5 9.5 13.5h4l-2.5 5" strokeWidth={2} />
    </>
  ),
  // 10 frozen: a snowflake round an ice-blue hexagon
  10: (accent) => (
    <>
      <path d="M12 7.8 15.6 9.9v4.2L12 16.2l-3.6-2.1V9.9Z" {...accent('frozen')} />
      {[0, 60, 120].map((turn) => (
        <path key={turn} d="M12 2.5v5.3M12 16.2v5.3M10 4.2l2 2 2-2M10 19.8l2-2 2 2" transform={turn ? `rotate(${turn} 12 12)` : undefined} />
      ))}
    </>
  ),
  // 11 fruit: an apple with a leaf
  11: () => (
    <>
      <path d="M12 8c-1.6-1.1-4.6-1.4-6.2.6-1.9 2.4-1.4 6.7.6 9.6 1.5 2.2 3.5 2.8 5.6 1.7 2.1 1.1 4.1.5 5.6-1.7 2-2.9 2.5-7.2.6-9.6C16.6 6.6 13.6 6.9 12 8Z" />
      <path d="M12 8c0-2 .5-3.6 1.6-4.8" />
      <path d="M13.2 5.8c1-1.9 2.8-2.7 4.8-2.3-.6 1.9-2.5 2.8-4.8 2.3Z" {...fill} />
    </>
  ),
  // 12 hot snack: a fried drumstick, steaming
  12: (accent) => (
    <>
      <path d="M9.2 14.8c-1.6-3-.8-7 2.2-9.5 2.6-2.2 6.3-2.6 8-.6 1.8 2 1.1 5.9-1.4 8.4-2.6 2.5-5.8 3.2-8.8 1.7Z" {...accent('hot')} />
      <path d="M9.2 14.8 7.1 16.9" />
      <path d="M7.1 16.9a1.7 1.7 0 1 0-2.2 2.2 1.7 1.7 0 1 0 2.2-2.2Z" />
      <path d="M4.2 9.8c-1.1-1.3 1.1-2.4 0-3.7M7.4 7.6c-1.1-1.3 1.1-2.4 0-3.7" strokeWidth={1.5} />
    </>
  ),
  // 13 ice: a popsicle on a stick
  13: (accent) => (
    <>
      <path d="M7.5 7.5a4.5 4.5 0 0 1 9 0v3h-9v-3Z" {...accent('frozen')} />
      <path d="M7.5 16V7.5a4.5 4.5 0 0 1 9 0V16a1 1 0 0 1-1 1h-7a1 1 0 0 1-1-1Z" />
      <path d="M7.5 10.5h9" />
      <path d="M10.8 17v3.3a1.2 1.2 0 0 0 2.4 0V17" />
    </>
  ),
  // 14 medicine: a capsule and a cross
  14: () => (
    <>
      <g transform="rotate(45 12 12)">
        <path d="M8 12V6.5a4 4 0 0 1 8 0V12H8Z" {...fill} />
        <rect x="8" y="2.5" width="8" height="19" rx="4" />
        <path d="M8 12h8" />
      </g>
      <path d="M17.5 19.5h4M19.5 17.5v4" />
    </>
  ),
  // 15 obento: a bento box with compartments and an umeboshi on the rice
  15: () => (
    <>
      <rect x="2.5" y="6.5" width="19" height="13.5" rx="2" />
      <path d="M11 6.5V20M11 13h10.5" />
      <circle cx="6.8" cy="13.2" r="1.7" {...solid} />
      <circle cx="16.2" cy="9.8" r="1.6" />
      <path d="M13 18.5l1.5-2.5 1.5 2.5 1.5-2.5 1.5 2.5" />
    </>
  ),
  // 16 onigiri: a rice ball with its nori band
  16: () => (
    <>
      <path d="M12 3.5c1.2 0 2 .6 2.7 1.7l5.8 10.3c1.3 2.4-.2 5-2.9 5H6.4c-2.7 0-4.2-2.6-2.9-5L9.3 5.2C10 4.1 10.8 3.5 12 3.5Z" />
      <path d="M9 14h6v6.5H9Z" {...solid} />
    </>
  ),
  // 17 outside temperature: a thermometer in the sun
  17: () => (
    <>
      <path d="M6 14V5.5a2 2 0 0 1 4 0V14a3.8 3.8 0 1 1-4 0Z" />
      <path d="M8 10v6.5" />
      <circle cx="17" cy="9" r="2.5" {...fill} />
      <path d="M17 3.5v1.3M17 13.2v1.3M12.5 9h.8M21.2 9h1.3M13.8 5.8l.5.5M19.7 11.7l.9.9M19.7 6.3l.9-.9M13.8 12.2l.5-.5" />
    </>
  ),
  // 18 side dish 1: a bowl of food with chopsticks
  18: () => (
    <>
      <path d="M3 12h18a9 9 0 0 1-18 0Z" />
      <path d="M6 12c.6-2.4 3-3.8 6-3.8s5.4 1.4 6 3.8" {...fill} />
      <path d="M13.5 8.5 20.5 2M11.5 8.2l6.3-6.3" />
    </>
  ),
  // 19 side dish 2: a grilled fish on a plate
  19: () => (
    <>
      <path d="M3.5 10.5c2.6-3.4 7.9-4.2 11.8-1.2l3.7-2.8v8.8l-3.7-2.8c-3.9 3-9.2 2.2-11.8-2Z" />
      <circle cx="7.2" cy="10.2" r=".9" {...solid} />
      <path d="M10.5 8.5c.8 1.3.8 2.7 0 4" />
      <path d="M2.5 18h19M5 18c.4 1.6 1.8 2.5 3.5 2.5h7c1.7 0 3.1-.9 3.5-2.5" />
    </>
  ),
  // 20 store temperature: a thermometer in a shop under its awning
  20: () => (
    <>
      <path d="M3 9 4.5 3.5h15L21 9" />
      <path d="M3 9a3 3 0 0 0 6 0 3 3 0 0 0 6 0 3 3 0 0 0 6 0" />
      <path d="M4.5 11.5V21h15v-9.5" />
      <path d="M11 16.5v-4a1 1 0 0 1 2 0v4a2.2 2.2 0 1 1-2 0Z" />
    </>
  ),
  // 21 sweets: a wrapped candy
  21: () => (
    <g transform="rotate(-30 12 12)">
      <circle cx="12" cy="12" r="4.5" {...fill} />
      <path d="M7.7 10.6 3 8v8l4.7-2.6M16.3 10.6 21 8v8l-4.7-2.6" />
      <path d="M10.5 7.8c1.4 2.6 1.4 5.8 0 8.4M13.5 7.8c1.4 2.6 1.4 5.8 0 8.4" strokeWidth={1.25} />
    </g>
  ),
  // 22 vegetable: a carrot with its leaves
  22: () => (
    <>
      <path d="M15.6 8.4c-1.7-1.7-4.2-1.3-5.9.4L3.5 20.5l11.7-6.2c1.7-1.7 2.1-4.2.4-5.9Z" {...fill} />
      <path d="M15.6 8.4 19 5M16.2 9.4l4.8-1.6M14.6 7.8 16.2 3M8.5 13.5l1.5 1.5M6.6 16.6l1.2 1.2M11.5 11.5l1 1" />
    </>
  ),
};

/** A question mark in a circle for a kind outside 1-22. */
const UNKNOWN = (
  <>
    <circle cx="12" cy="12" r="8.5" strokeDasharray="3 2.5" />
    <path d="M9.8 9.5a2.3 2.3 0 1 1 3.4 2c-.8.5-1.2 1-1.2 1.9M12 16.3v.2" />
  </>
);

/**
 * The icon of a furniture kind (icon_kind 1-22). `title=""` names it with the kind's Japanese
 * label; `mono` draws the temperature accents in currentColor too (for white-on-colour menus).
 */
export function FurnitureIcon({ kind, className, title, mono = false }: IconProps & { kind: number; mono?: boolean }) {
  const glyph = GLYPHS[kind];
  return (
    <Glyph className={className} title={title === undefined ? undefined : title || furnitureLabel(kind)}>
      {glyph ? glyph(mono ? monoAccent : colourAccent) : UNKNOWN}
    </Glyph>
  );
}
