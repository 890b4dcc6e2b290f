import { Suspense, lazy, useEffect, useId, useState } from 'react';
import { GRAPH_TEXTS, LOADING_OVERLAY_MS, chartSummary } from '~/domain/graph';
import type { TemperatureChartProps } from './temperature-chart.client';

// Chart.js is loaded only here, only in the browser and only when a chart is drawn: a dynamic
// import() behind React.lazy puts temperature-chart.client.tsx and Chart.js in a chunk of their own,
// so neither the shared chunks nor any other page carry them.
const TemperatureChart = lazy(() => import('./temperature-chart.client'));

interface LazyChartProps extends TemperatureChartProps {
  /** This panel's data is being reloaded after a change. */
  busy: boolean;
  /** A message over the plot (no sensor checked, nothing measured). */
  message: string | null;
  /** The period shown (the date navigation's label): part of the chart's accessible name. */
  periodLabel: string;
}

export function LazyChart({ busy, message, periodLabel, ...chart }: LazyChartProps) {
  const [mounted, setMounted] = useState(false);
  const summaryId = useId();
  const [ready, setReady] = useState(false);
  // The chart is drawn in the browser only (canvas); the server renders the frame and the overlay.
  // eslint-disable-next-line react-hooks/set-state-in-effect
  useEffect(() => setMounted(true), []);
  // In the server's HTML too, so the area says "loading" until the chart's code has arrived and
  // drawn (000 §9); without JavaScript the noscript message covers it.
  const overlay = useOverlay(busy || !ready);
  return (
    <div className="relative h-full w-full">
      {/* The chart in words, for screen readers (the canvas is a picture), from the server's HTML on;
          when the picture is only a message (nothing checked, nothing kept or measured), that message. */}
      <p id={summaryId} className="sr-only">
        {message ?? chartSummary(chart.sensors, chart.limits)}
      </p>
      {mounted && (
        <Suspense fallback={null}>
          <Ready onReady={setReady} />
          <TemperatureChart {...chart} name={GRAPH_TEXTS.chartName(periodLabel)} describedBy={summaryId} />
        </Suspense>
      )}
      <noscript>
        <p className="absolute inset-0 z-20 flex items-center justify-center bg-white text-sm text-slate-600">{GRAPH_TEXTS.needsScript}</p>
      </noscript>
      {mounted && message && !overlay && (
        <div className="pointer-events-none absolute inset-0 flex items-center justify-center">
          <p className="rounded-md bg-white/90 px-4 py-2 text-sm text-slate-500 shadow-sm ring-1 ring-slate-200">{message}</p>
        </div>
      )}
      {overlay && (
        <div className="absolute inset-0 z-10 flex items-center justify-center bg-white/70" role="status" aria-label={GRAPH_TEXTS.loading} data-testid="graph-loading">
          <span className="h-8 w-8 animate-spin rounded-full border-[3px] border-brand-100 border-t-brand-600" aria-hidden />
        </div>
      )}
    </div>
  );
}

/** Rendered beside the chart inside Suspense: its effect runs once the chart's chunk has loaded. */
function Ready({ onReady }: { onReady: (ready: true) => void }) {
  useEffect(() => onReady(true), [onReady]);
  return null;
}

/** 000 §9: the loading overlay clears about 500 ms after the data arrived. */
function useOverlay(loading: boolean): boolean {
  const [visible, setVisible] = useState(true);
  useEffect(() => {
    if (loading) {
      // eslint-disable-next-line react-hooks/set-state-in-effect
      setVisible(true);
      return;
    }
    const timer = window.setTimeout(() => setVisible(false), LOADING_OVERLAY_MS);
    return () => window.clearTimeout(timer);
  }, [loading]);
  return visible;
}
