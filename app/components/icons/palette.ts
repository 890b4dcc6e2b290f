import { BANDS } from '~/domain/levels';

// The one accent palette of the icon set. Strokes are currentColor (CSS colours them); these
// fill or tint only the parts whose colour carries meaning. The temperature hues are the
// colour bands of the sensor circles (app/domain/levels.ts), so a frozen icon is the blue of
// the frozen band. Each colour keeps 3:1 contrast on white (WCAG 1.4.11 for graphics).
export const ICON_COLOURS = {
  frozen: BANDS[0].colour,
  chilled: BANDS[1].colour,
  hot: BANDS[3].colour,
  ok: '#059669',
  warning: '#d97706',
  danger: '#dc2626',
  muted: '#64748b',
  stopped: '#334155',
} as const;

export type IconColour = keyof typeof ICON_COLOURS;
