import { locationLabel } from '~/domain/sensor-view';

/**
 * A sensor's location number (所在番号, 000 §3): one unbreakable piece. Beside a name in a
 * narrow flex cell (the phone's stacked tables wrap anywhere) "01" was split over two lines.
 */
export function LocationNo({ value, className = '' }: { value: number | null; className?: string }) {
  return <span className={`shrink-0 whitespace-nowrap tabular-nums ${className}`} data-testid="location-no">{locationLabel(value)}</span>;
}
