import { type ReactNode, useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { MinusIcon, PlusIcon } from '~/components/icons';
import { clampZoom, fromPixels, MAP_HEIGHT, MAP_WIDTH, type MapPoint, markerScale, MAX_ZOOM, MIN_ZOOM, readableZoom, toPercent, ZOOM_STEP, zoomScale } from '~/domain/diagram';
import { DiagramImage, type DiagramSource } from './diagram-image';

const useIsomorphicLayoutEffect = typeof window === 'undefined' ? useEffect : useLayoutEffect;
const ASPECT = `${MAP_WIDTH} / ${MAP_HEIGHT}`;

export interface FloorMapPopover {
  /** The map point the popover points at. */
  at: MapPoint;
  content: ReactNode;
}

interface FloorMapProps {
  diagram: DiagramSource;
  /** Markers: <MapPin>s, positioned in map units. */
  children?: ReactNode;
  /** A click on the map itself (not on a marker), in map units. */
  onMapClick?: (point: MapPoint) => void;
  /** A panel beside a map point, drawn above the map so the map's edges never clip it. */
  popover?: FloorMapPopover | null;
  /** Called when the view moves (zoom or scroll) while a popover is open. */
  onViewChange?: () => void;
  className?: string;
  /** Classes of the map itself (a minimum width on phones, say). */
  mapClassName?: string;
  /**
   * On a phone, open zoomed in so that the markers' names and temperatures are drawn full size,
   * in a taller view to pan in; 縮小 still goes back to the whole plan.
   */
  readableOnPhones?: boolean;
}

const PHONE = '(max-width: 639.98px)';

/**
 * The store floor map (000 §4, §9): 1200 × 500 units with the diagram fitted inside, zoom
 * buttons (+ / −, from −1 to 3 in steps of 1; zoom 0 fits the map to the width available) and
 * scrolling when zoomed in. Markers and clicks work in map units, whatever the zoom.
 */
export function FloorMap({ diagram, children, onMapClick, popover, onViewChange, className = '', mapClassName = '', readableOnPhones = false }: FloorMapProps) {
  const [zoom, setZoom] = useState(0);
  const outer = useRef<HTMLDivElement>(null);
  const viewport = useRef<HTMLDivElement>(null);
  const map = useRef<HTMLDivElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const centre = useRef<{ x: number; y: number } | null>(null);

  const changeZoom = (step: number) => {
    const view = viewport.current;
    if (view) centre.current = { x: (view.scrollLeft + view.clientWidth / 2) / view.scrollWidth, y: (view.scrollTop + view.clientHeight / 2) / view.scrollHeight };
    setZoom((current) => clampZoom(current + step));
    onViewChange?.();
  };

  // Keep the centre of the view where it was when the zoom changes.
  useIsomorphicLayoutEffect(() => {
    const view = viewport.current;
    if (!view || !centre.current) return;
    view.scrollLeft = centre.current.x * view.scrollWidth - view.clientWidth / 2;
    view.scrollTop = centre.current.y * view.scrollHeight - view.clientHeight / 2;
    centre.current = null;
  }, [zoom]);

  const placePopover = useCallback(() => {
    const box = outer.current?.getBoundingClientRect();
    const drawn = map.current?.getBoundingClientRect();
    const element = panel.current;
    if (!box || !drawn || !element || !popover) return;
    const left = drawn.left - box.left + (popover.at.x / MAP_WIDTH) * drawn.width;
    const top = drawn.top - box.top + (popover.at.y / MAP_HEIGHT) * drawn.height;
    const toLeft = left > box.width * 0.55;
    const upward = top > box.height * 0.5;
    element.style.left = `${left}px`;
    element.style.top = `${top}px`;
    element.style.transform = `translate(${toLeft ? 'calc(-100% - 14px)' : '14px'}, ${upward ? 'calc(-100% + 12px)' : '-12px'})`;
  }, [popover]);

  useIsomorphicLayoutEffect(placePopover, [placePopover, zoom]);

  // The markers scale with the map as drawn (the screen's width and the zoom), through a CSS
  // variable that MapPin reads: no re-render on resize.
  useEffect(() => {
    const element = map.current;
    if (!element) return;
    const observer = new ResizeObserver(([entry]) => element.style.setProperty('--marker-scale', String(markerScale(entry.contentRect.width))));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  // The screen's width is known only in the browser: the first view is fitted, then zoomed in.
  useEffect(() => {
    const view = viewport.current;
    if (readableOnPhones && view && window.matchMedia(PHONE).matches) setZoom(readableZoom(view.clientWidth));
  }, [readableOnPhones]);

  const scale = zoomScale(zoom);
  return (
    <div ref={outer} className={`relative ${className}`}>
      <div
        ref={viewport}
        className={`flex w-full overflow-auto rounded-lg border border-slate-200 bg-slate-50 ${readableOnPhones ? 'max-sm:!aspect-auto max-sm:h-[min(60vh,26rem)]' : ''}`}
        style={{ aspectRatio: ASPECT }}
        // A zoomed plan scrolls: the keyboard must be able to reach and scroll it too (WCAG 2.1.1).
        tabIndex={0}
        role="region"
        aria-label="図面（拡大時はスクロール）"
        onScroll={() => {
          placePopover();
          if (popover) onViewChange?.();
        }}
        data-testid="floor-map"
        data-zoom={zoom}
      >
        <div
          ref={map}
          className={`relative m-auto shrink-0 bg-white ${onMapClick ? 'cursor-crosshair' : ''} ${mapClassName}`}
          style={{ width: `${scale * 100}%`, aspectRatio: ASPECT }}
          onClick={(event) => {
            if (!onMapClick) return;
            const rect = event.currentTarget.getBoundingClientRect();
            onMapClick(fromPixels(event.clientX - rect.left, event.clientY - rect.top, rect.width, rect.height));
          }}
          data-testid="floor-map-canvas"
        >
          <DiagramImage diagram={diagram} />
          {children}
        </div>
      </div>
      <div className="absolute bottom-4 right-4 z-10 flex flex-col overflow-hidden rounded-md border border-slate-300 bg-white shadow-sm">
        <button type="button" className="p-1.5 text-slate-700 hover:bg-slate-100 disabled:text-slate-300" aria-label="拡大" disabled={zoom >= MAX_ZOOM} onClick={() => changeZoom(ZOOM_STEP)}>
          <PlusIcon className="h-5 w-5" />
        </button>
        <button type="button" className="border-t border-slate-200 p-1.5 text-slate-700 hover:bg-slate-100 disabled:text-slate-300" aria-label="縮小" disabled={zoom <= MIN_ZOOM} onClick={() => changeZoom(-ZOOM_STEP)}>
          <MinusIcon className="h-5 w-5" />
        </button>
      </div>
      {popover && (
        <div ref={panel} className="absolute z-30" style={{ left: 0, top: 0 }} onClick={(event) => event.stopPropagation()}>
          {popover.content}
        </div>
      )}
    </div>
  );
}

/** Something on the map at (x, y) map units, centred on the point, scaled with the map (--marker-scale). */
export function MapPin({ x, y, children, className = '', label }: { x: number; y: number; children: ReactNode; className?: string; label?: string }) {
  const { left, top } = toPercent({ x, y });
  return (
    <div className={`absolute ${className}`} style={{ left: `${left}%`, top: `${top}%`, transform: 'translate(-50%, -50%) scale(var(--marker-scale, 1))' }} aria-label={label} data-x={x} data-y={y}>
      {children}
    </div>
  );
}
