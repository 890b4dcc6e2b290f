import { ja } from '~/domain/texts/ja';

/**
 * The mark of a sensor value older than the no-communication threshold (issue 11): it says how
 * old the value is, so nobody reads a removed store's or a silent sensor's last value as live.
 */
export function StaleReading({ age }: { age: string | null | undefined }) {
  if (!age) return null;
  return (
    <span className="inline-flex items-center whitespace-nowrap rounded bg-amber-100 px-1.5 py-0.5 text-[11px] font-semibold leading-none text-amber-900" title={ja.staleReading.hint} data-testid="stale-reading">
      {ja.staleReading.label(age)}
    </span>
  );
}
