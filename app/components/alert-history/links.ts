/**
 * The page's URL with some parameters changed (null removes one). Changing the category or
 * the dates starts at page 1; the open stop dialog never survives a change.
 */
export function searchWith(current: URLSearchParams, changes: Record<string, string | null>): string {
  const next = new URLSearchParams(current);
  for (const [name, value] of Object.entries(changes)) {
    if (value === null) next.delete(name);
    else next.set(name, value);
  }
  const text = next.toString();
  return text ? `?${text}` : '?';
}

/** Links of the category menu: a new category keeps the dates and drops the page and the dialog. */
export function categorySearch(current: URLSearchParams, category: { kind?: number; equipmentId?: number }): string {
  return searchWith(current, {
    kind: category.kind === undefined ? null : String(category.kind),
    equipment_id: category.equipmentId === undefined ? null : String(category.equipmentId),
    page_no: null,
    stop: null,
  });
}
