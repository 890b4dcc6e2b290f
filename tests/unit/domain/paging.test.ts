import { describe, expect, it } from 'vitest';
import { pageWindow } from '~/domain/paging';

describe('pageWindow', () => {
  it('reads the first half of the list from the front', () => {
    expect(pageWindow(100_000, 1, 20)).toEqual({ direction: 'asc', offset: 0, limit: 20 });
    expect(pageWindow(100_000, 2500, 20)).toEqual({ direction: 'asc', offset: 49_980, limit: 20 });
  });

  it('reads the second half from the back, skipping only the rows after the page', () => {
    expect(pageWindow(100_000, 5000, 20)).toEqual({ direction: 'desc', offset: 0, limit: 20 });
    expect(pageWindow(100_000, 4999, 20)).toEqual({ direction: 'desc', offset: 20, limit: 20 });
  });

  it('gives a short last page only its rows', () => {
    // 2,080 rows: page 104 is rows 2,061-2,080, page 105 would be empty.
    expect(pageWindow(2_081, 105, 20)).toEqual({ direction: 'desc', offset: 0, limit: 1 });
    expect(pageWindow(2_080, 104, 20)).toEqual({ direction: 'desc', offset: 0, limit: 20 });
  });

  it('reads nothing past the end or from an empty list', () => {
    expect(pageWindow(2_080, 105, 20).limit).toBe(0);
    expect(pageWindow(0, 1, 20)).toEqual({ direction: 'asc', offset: 0, limit: 0 });
  });
});
