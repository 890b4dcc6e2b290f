import type { ReactNode } from 'react';

export interface IconProps {
  className?: string;
  title?: string;
}

/** One 24×24 stroke glyph: the shared viewBox, stroke width and caps of the whole set. */
export function Glyph({ className = 'h-6 w-6', title, children }: IconProps & { children: ReactNode }) {
  return (
    <svg
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.75}
      strokeLinecap="round"
      strokeLinejoin="round"
      className={className}
      {...(title ? { role: 'img' } : { 'aria-hidden': true })}
    >
      {title && <title>{title}</title>}
      {children}
    </svg>
  );
}
