// The On-Reco icon set: 24×24 glyphs, stroke 1.75 with round caps and joins, in currentColor,
// with one accent palette (palette.ts). Size and colour from className; `title` names an icon
// (role="img"), otherwise it is aria-hidden. Preview: npx tsx scripts/icon-preview.tsx.
export { Glyph, type IconProps } from './glyph';
export { ICON_COLOURS, type IconColour } from './palette';
export * from './furniture';
export * from './status';
export * from './levels';
export * from './ui';
export * from './diagram';
export * from './gateway';
