import { type RefObject, useEffect, useRef } from 'react';

/**
 * A table that becomes stacked cards on phones: give it the class `table-stack` (the rule in
 * tailwind.css) and this ref. After every render each body cell is labelled (data-label) with its
 * column's visible header, read from the table itself, so a page writes an ordinary
 * <thead>/<tbody> and gets the phone layout with it; without JavaScript the cards have no labels.
 */
export function useStackedTable(): RefObject<HTMLTableElement> {
  const table = useRef<HTMLTableElement>(null);
  useEffect(() => {
    if (table.current) labelCells(table.current);
  });
  return table;
}

function labelCells(table: HTMLTableElement) {
  const headers = [...(table.tHead?.rows[0]?.cells ?? [])].flatMap((cell) => Array<string>(cell.colSpan).fill(visibleText(cell)));
  for (const body of table.tBodies) {
    for (const row of body.rows) {
      let column = 0;
      for (const cell of row.cells) {
        const text = headers[column] ?? '';
        if (text) cell.dataset.label = text;
        else delete cell.dataset.label;
        column += cell.colSpan;
      }
    }
  }
}

/** A header's text as seen: a header for screen readers only (an actions column) labels nothing. */
function visibleText(cell: HTMLElement): string {
  const copy = cell.cloneNode(true) as HTMLElement;
  copy.querySelectorAll('.sr-only, [aria-hidden]').forEach((hidden) => hidden.remove());
  return copy.textContent?.replace(/\s+/g, ' ').trim() ?? '';
}
