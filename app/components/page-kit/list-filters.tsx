import { Form, Link, useFetcher, useSearchParams, useSubmit } from '@remix-run/react';
import type { ReactNode } from 'react';
import { FilterIcon, PlusIcon, SearchIcon } from '~/components/icons';
import { DELETE_FAILED_PARAM, withQuery } from '~/domain/urls';

export interface ListFiltersProps {
  /** The search box: the query parameter it sets, its value and placeholder (searches on Enter). */
  search: { name: string; value: string; placeholder: string; label: string };
  /** The filter row's fields (selects named by their parameter); each change searches again. */
  filters?: ReactNode;
  /** Whether the filter row starts open (a filter is set). */
  filtersOpen?: boolean;
  /** The add button's target and text. */
  add?: { to: string; label: string };
}

/**
 * A list page's search box, its toggleable filter row and the add button (001 §2 master lists).
 * One GET form: Enter in the box or a changed filter loads page 1 with every criterion (page_no is
 * not sent). Without JavaScript the filter row has its own search button.
 */
export function ListFilters({ search, filters, filtersOpen = false, add }: ListFiltersProps) {
  const submit = useSubmit();
  return (
    <Form method="get" className="mb-4 space-y-3" onChange={(event) => (event.target as HTMLElement).tagName === 'SELECT' && submit(event.currentTarget)}>
      <div className="flex flex-wrap items-center gap-3">
        <label className="relative min-w-[16rem] flex-1 sm:max-w-md">
          <span className="sr-only">{search.label}</span>
          <SearchIcon className="pointer-events-none absolute left-3 top-1/2 h-4 w-4 -translate-y-1/2 text-slate-400" />
          <input type="search" name={search.name} defaultValue={search.value} placeholder={search.placeholder} className="input pl-9" enterKeyHint="search" />
        </label>
        {add && (
          <Link to={add.to} className="btn-primary ml-auto">
            <PlusIcon className="h-4 w-4" />
            {add.label}
          </Link>
        )}
        {filters && (
          <details className="order-last basis-full" open={filtersOpen || undefined}>
            <summary className="btn-secondary cursor-pointer select-none">
              <FilterIcon className="h-4 w-4" />
              絞り込み
            </summary>
            <fieldset className="card mt-3 flex flex-wrap items-end gap-4 px-4 py-3">
              <legend className="sr-only">絞り込み</legend>
              {filters}
              <button type="submit" className="btn-secondary">検索</button>
            </fieldset>
          </details>
        )}
      </div>
    </Form>
  );
}

export interface FilterOption {
  value: string;
  label: string;
}

export interface FilterSelectProps {
  name: string;
  label: string;
  value: string;
  /** The options rendered with the page; with `source`, only the chosen one (and a search's matches). */
  options: readonly FilterOption[];
  /**
   * For a long list (5,000 user groups): where the whole list of options is fetched from when the
   * select is first pointed at or focused, so that the page does not read and send it each time.
   */
  source?: string;
  /**
   * Without JavaScript the options cannot be fetched: a text box (this parameter) narrows the
   * options the server renders instead (the filter row's 検索 sends it).
   */
  search?: { name: string; value: string; label: string };
}

/** A select of the filter row, its first option unselected (001 §2). */
export function FilterSelect({ name, label, value, options, source, search }: FilterSelectProps) {
  const fetcher = useFetcher<FilterOption[]>();
  const loadAll = () => {
    if (source && fetcher.state === 'idle' && fetcher.data === undefined) fetcher.load(source);
  };
  const shown = fetcher.data ?? options;
  return (
    <div className="min-w-[12rem]">
      <label htmlFor={`filter-${name}`} className="label">{label}</label>
      <select
        id={`filter-${name}`}
        name={name}
        defaultValue={value}
        className="input"
        onPointerEnter={loadAll}
        onPointerDown={loadAll}
        onFocus={loadAll}
        aria-busy={fetcher.state === 'loading' || undefined}
      >
        <option value="">未選択</option>
        {shown.map((option) => (
          <option key={option.value} value={option.value}>{option.label}</option>
        ))}
      </select>
      {search && (
        <noscript>
          <label htmlFor={`filter-${search.name}`} className="label mt-2">{search.label}</label>
          <input id={`filter-${search.name}`} type="search" name={search.name} defaultValue={search.value} className="input" />
        </noscript>
      )}
    </div>
  );
}

/** A text box of the filter row: Enter searches (001 §2: mail address, user ID). */
export function FilterText({ name, label, value, inputMode }: { name: string; label: string; value: string; inputMode?: 'numeric' }) {
  return (
    <div className="min-w-[12rem]">
      <label htmlFor={`filter-${name}`} className="label">{label}</label>
      <input id={`filter-${name}`} name={name} defaultValue={value} inputMode={inputMode} className="input" placeholder="Enterで検索" enterKeyHint="search" />
    </div>
  );
}

/**
 * Links within a master list that keep its search, filters and page: `extra` sets a parameter
 * (or removes it with null), and a delete failure's message is never carried on.
 */
export function useListHref(listPath: string): (extra: Record<string, string | null>) => string {
  const [searchParams] = useSearchParams();
  return (extra) => {
    const next = new URLSearchParams(searchParams);
    next.delete(DELETE_FAILED_PARAM);
    for (const [name, value] of Object.entries(extra)) {
      if (value === null) next.delete(name);
      else next.set(name, value);
    }
    return withQuery(listPath, next.toString());
  };
}
