import type { ReactNode } from 'react';
import { Pagination } from '~/components/pagination';
import { ja } from '~/domain/texts/ja';

export interface ListSectionProps {
  /** The number of rows in the whole list; null when the list could not be read (no count shown). */
  total: number | null;
  page: number;
  pageSize: number;
  /** Shown before the count (e.g. the dashboard's alerting stores). */
  summary?: ReactNode;
  /** Shown instead of the rows: the empty list's text, or why there is no list. */
  message?: string | null;
  label?: string;
  children?: ReactNode;
}

/** The rows a page shows, 1-based: 0 to 0 for an empty list. */
export function pageRange(total: number, page: number, pageSize: number): { first: number; last: number } {
  if (total === 0) return { first: 0, last: 0 };
  return { first: (page - 1) * pageSize + 1, last: Math.min(page * pageSize, total) };
}

/**
 * A list page's card: the count (全N件, N〜M件を表示) with the pagination above the rows and
 * again below them when there is more than one page. The links keep the page's search.
 */
export function ListSection({ total, page, pageSize, summary, message, label, children }: ListSectionProps) {
  const pageCount = total === null ? 0 : Math.ceil(total / pageSize);
  const { first, last } = pageRange(total ?? 0, page, pageSize);
  return (
    <section className="card" aria-label={label}>
      <div className="flex flex-wrap items-center gap-x-6 gap-y-2 border-b border-slate-200 px-4 py-3 text-sm">
        {summary}
        {total !== null && <p className="text-slate-600">{ja.listTotal(total)}</p>}
        <p className="text-slate-500">{total ? ja.listRange(first, last) : ''}</p>
        <div className="ml-auto min-w-0 max-w-full">
          <Pagination page={page} pageCount={pageCount} label={ja.pagination.above} />
        </div>
      </div>
      {message ? <p className="px-4 py-12 text-center text-sm text-slate-500">{message}</p> : children}
      {pageCount > 1 && (
        <div className="flex justify-end border-t border-slate-200 px-4 py-3">
          <Pagination page={page} pageCount={pageCount} label={ja.pagination.below} />
        </div>
      )}
    </section>
  );
}
