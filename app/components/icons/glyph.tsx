import { createElement, Fragment, type ReactElement, type ReactNode } from 'react';

export interface IconProps {
  /** Size and colour come from CSS: `h-5 w-5 text-slate-500`. Default h-6 w-6 (24 px). */
  className?: string;
  /** Gives the icon role="img" and this accessible name; without it the icon is aria-hidden. */
  title?: string;
}

/**
 * One 24×24 glyph: the shared viewBox, stroke width 1.75 and round caps and joins of the whole
 * set, stroked in currentColor. `colour` pins currentColor for icons whose colour is their
 * meaning (status, warning, levels); other icons take the colour of the text around them.
 */
export function Glyph({ className = 'h-6 w-6', title, colour, children }: IconProps & { colour?: string; children: ReactNode }) {
  return (
    <svg
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.75}
      strokeLinecap="round"
      strokeLinejoin="round"
      className={className}
      style={colour ? { color: colour } : undefined}
      {...(title ? { role: 'img' } : { 'aria-hidden': true, focusable: 'false' })}
    >
      {title && <title>{title}</title>}
      {children}
    </svg>
  );
}

/** An icon of the set drawn by these shapes (paths, circles, rects on the 24×24 grid), in currentColor. */
export function outlineIcon(...shapes: ReactElement[]) {
  const drawing = createElement(Fragment, null, ...shapes); // separate children, as if written inside <Glyph>: no keys needed
  return (props: IconProps) => <Glyph {...props}>{drawing}</Glyph>;
}
