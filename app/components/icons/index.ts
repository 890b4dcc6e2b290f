export { Glyph, type IconProps } from './glyph';
export * from './status';
export * from './ui';
