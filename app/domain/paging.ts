// Reading one page of an ordered list (issue 13 figures: the last page as fast as the first).

export interface PageWindow {
  /** Which end of the order the page is read from. */
  direction: 'asc' | 'desc';
  offset: number;
  /** 0 when the page lies past the end of the list. */
  limit: number;
}

/**
 * Where page `pageNo` (1-based, `pageSize` rows) of a list of `total` rows lies, read from the
 * nearer end: an OFFSET skips rows one by one, so the last page of 100,000 users would walk the
 * whole index from the front; from the back it skips at most half the list. The rows read in
 * 'desc' come back reversed and are put in order again by the caller.
 */
export function pageWindow(total: number, pageNo: number, pageSize: number): PageWindow {
  const start = (pageNo - 1) * pageSize;
  const limit = Math.max(0, Math.min(pageSize, total - start));
  if (start <= total / 2) return { direction: 'asc', offset: start, limit };
  return { direction: 'desc', offset: Math.max(0, total - start - pageSize), limit };
}
