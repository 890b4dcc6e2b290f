import { type ClientLoaderFunctionArgs, type ShouldRevalidateFunction, isRouteErrorResponse, useLoaderData, useParams, useRevalidator } from '@remix-run/react';
import { useCallback, useEffect, useRef } from 'react';
import { resourceUrl } from '~/domain/urls';

// The live screens (dashboard, sensor views, alert history, diagram, graphs) reload their data on
// the server's change events and every 60 s (000 §9). A reload that fails (server or database
// down, overload, no network) must not replace the screen with the error page (000 §8: failed
// loads of the live lists show nothing): the last data stays, marked with the time it was
// loaded, and the screen retries until the server answers again. Three pieces:
// - each live route exports `clientLoader = liveClientLoader`, which answers a failed reload of
//   the page on screen with a copy of the data on screen (marked stale) instead of throwing;
// - the layouts above them export `shouldRevalidate = keepLayoutData`, so a reload (or a move to
//   another page of the same store) asks for the page's own data only: a layout's failure would
//   take the whole screen down;
// - the screen reads its data through `useLiveData()`, which reloads, retries and says since when
//   the data is stale.

/** 000 §9: the refresh of the live screens, should no change event arrive. */
export const LIVE_REFRESH_MS = 60_000;
/** After a failed reload, the next try comes after 5 s, then 10, 20, 40, and every 60 s. */
const FIRST_RETRY_MS = 5_000;
/** An event stream the server refused (it answered an error) is opened again after this. */
const STREAM_RETRY_MS = 10_000;

interface Shown {
  /** Path and search of the page showing it. */
  url: string;
  data: object;
  loadedAt: number;
  failures: number;
}

interface Staleness {
  /** When the data on screen was loaded. */
  since: number;
  failures: number;
}

/** The data of the live screen on display (one per tab), to answer its failed reloads with. */
let shown: Shown | null = null;
/** The copies handed out for failed reloads, and since when they are stale. */
const staleness = new WeakMap<object, Staleness>();

const pathOf = (href: string) => {
  const url = new URL(href, window.location.origin);
  return `${url.pathname}${url.search}`;
};

/**
 * A failure worth waiting out: the server's 5xx (an unexpected error, a database down), 429
 * (load shedding), or no answer at all. Redirects (the session ended) and other refusals (403,
 * 404) are answers: they go on to the page as usual.
 */
function isOutage(error: unknown): boolean {
  if (error instanceof Response) return false;
  if (isRouteErrorResponse(error)) return error.status >= 500 || error.status === 429;
  return !(error instanceof DOMException && error.name === 'AbortError');
}

/**
 * The live routes' clientLoader. Loads from the server as usual; when a reload of the page on
 * screen fails with an outage, answers a copy of the data on screen, marked stale. A navigation
 * to another page (another URL) that fails still goes to the page's error boundary.
 */
export async function liveClientLoader({ request, serverLoader }: ClientLoaderFunctionArgs) {
  try {
    return await serverLoader();
  } catch (error) {
    const last = shown;
    if (!last || !isOutage(error) || last.url !== pathOf(request.url)) throw error;
    last.failures += 1;
    const copy = { ...last.data };
    staleness.set(copy, { since: last.loadedAt, failures: last.failures });
    return copy;
  }
}

/**
 * The layouts' shouldRevalidate. A layout's data (the viewer, the store's header) changes with
 * its params or after a form, not when the page inside it reloads or moves to another page; so
 * it is kept then, and a failing server takes down the page alone (inside the header and the
 * store sidebar, with its own error boundary), never the whole screen. Single fetch would
 * otherwise reload every layout on every navigation and every live refresh.
 */
export const keepLayoutData: ShouldRevalidateFunction = ({ formMethod, currentParams, nextParams, defaultShouldRevalidate }) =>
  formMethod !== undefined || !sameParams(currentParams, nextParams) ? defaultShouldRevalidate : false;

function sameParams(a: Record<string, string | undefined>, b: Record<string, string | undefined>): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].every((key) => a[key] === b[key]);
}

/**
 * A live screen's data (its route's loader data), kept current: reloaded on the server's change
 * events for the page's store (every visible store on the dashboard) unless `events` is false,
 * and every 60 s while the tab is visible. `staleSince` is set while reloads fail: the time the
 * data on screen was loaded.
 */
export function useLiveData<Loader>({ events = true }: { events?: boolean } = {}) {
  const data = useLoaderData<Loader>();
  const storeId = useParams().storeId;
  const refresh = useRefresh();
  const stale = staleness.get(data as object) ?? null;
  useEffect(() => {
    if (!stale) shown = { url: pathOf(window.location.href), data: data as object, loadedAt: Date.now(), failures: 0 };
  }, [data, stale]);
  useEffect(
    () => () => {
      shown = null;
    },
    [],
  );
  useEffect(() => {
    if (!stale) return;
    const timer = window.setTimeout(refresh, Math.min(FIRST_RETRY_MS * 2 ** (stale.failures - 1), LIVE_REFRESH_MS));
    return () => window.clearTimeout(timer);
  }, [stale, refresh]);
  useEffect(() => {
    const stopTimer = everyMinuteWhileVisible(refresh);
    const stopEvents = events ? onStoreChanges(storeId, refresh) : undefined;
    return () => {
      stopTimer();
      stopEvents?.();
    };
  }, [storeId, events, refresh]);
  return { data, staleSince: stale ? new Date(stale.since) : null };
}

/** A stable function that revalidates the page unless a load is already running. */
function useRefresh(): () => void {
  const revalidator = useRevalidator();
  const ref = useRef(revalidator);
  useEffect(() => {
    ref.current = revalidator;
  });
  return useCallback(() => {
    if (ref.current.state === 'idle') ref.current.revalidate();
  }, []);
}

/** Calls `refresh` every 60 s; a tick missed in a hidden tab is made up when it shows again. */
function everyMinuteWhileVisible(refresh: () => void): () => void {
  let missed = false;
  const timer = window.setInterval(() => {
    if (document.visibilityState === 'visible') refresh();
    else missed = true;
  }, LIVE_REFRESH_MS);
  const onVisible = () => {
    if (!missed || document.visibilityState !== 'visible') return;
    missed = false;
    refresh();
  };
  document.addEventListener('visibilitychange', onVisible);
  return () => {
    window.clearInterval(timer);
    document.removeEventListener('visibilitychange', onVisible);
  };
}

/**
 * Calls `refresh` on each change event of the store (every visible store without one). The
 * browser reconnects a dropped stream by itself, but gives up on one the server answered with
 * an error: that one is opened again here. A stream back after a break refreshes at once, as
 * events may have been missed meanwhile.
 */
function onStoreChanges(storeId: string | undefined, refresh: () => void): () => void {
  let source: EventSource | undefined;
  let retry: number | undefined;
  let broken = false;
  const open = () => {
    source = new EventSource(resourceUrl.events(storeId));
    source.addEventListener('change', refresh);
    source.addEventListener('open', () => {
      if (broken) refresh();
      broken = false;
    });
    source.addEventListener('error', () => {
      broken = true;
      if (source?.readyState === EventSource.CLOSED) retry = window.setTimeout(open, STREAM_RETRY_MS);
    });
  };
  open();
  return () => {
    window.clearTimeout(retry);
    source?.close();
  };
}
