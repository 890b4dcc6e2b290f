import { Link, useSearchParams } from '@remix-run/react';
import { ja } from '~/domain/texts/ja';

/**
 * Page links that keep the current search: «  ‹  1 2 3 …  ›  ». `label` names the landmark; a
 * page that shows two (above and below a list) gives each its own name.
 */
export function Pagination({ page, pageCount, param = 'page_no', label = ja.pagination.label }: { page: number; pageCount: number; param?: string; label?: string }) {
  const [searchParams] = useSearchParams();
  if (pageCount <= 1) return null;
  const href = (target: number) => {
    const next = new URLSearchParams(searchParams);
    next.set(param, String(target));
    return `?${next}`;
  };
  const from = Math.max(1, Math.min(page - 2, pageCount - 4));
  const pages = Array.from({ length: Math.min(5, pageCount) }, (_, i) => from + i);
  const cell = 'flex h-8 min-w-8 items-center justify-center rounded-md px-2 text-sm';
  // On a phone the first and last page links give way (‹ › and the numbers still reach them).
  const step = (target: number, label: string, text: string, phone = true) =>
    target < 1 || target > pageCount || target === page ? (
      <span className={`${cell} text-slate-300 ${phone ? '' : 'max-sm:hidden'}`} aria-hidden>{text}</span>
    ) : (
      <Link to={href(target)} aria-label={label} className={`${cell} text-slate-600 hover:bg-slate-200 ${phone ? '' : 'max-sm:hidden'}`} preventScrollReset>
        {text}
      </Link>
    );
  return (
    <nav className="flex flex-wrap items-center justify-end gap-1" aria-label={label}>
      {step(1, '最初のページ', '«', false)}
      {step(page - 1, '前のページ', '‹')}
      {pages.map((target) =>
        target === page ? (
          <span key={target} aria-current="page" className={`${cell} bg-brand-600 font-semibold text-white`}>{target}</span>
        ) : (
          <Link key={target} to={href(target)} className={`${cell} text-slate-600 hover:bg-slate-200`} preventScrollReset>
            {target}
          </Link>
        ),
      )}
      {step(page + 1, '次のページ', '›')}
      {step(pageCount, '最後のページ', '»', false)}
    </nav>
  );
}
