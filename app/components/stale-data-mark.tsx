import { formatDateTime } from '~/domain/japan-time';
import { ja } from '~/domain/texts/ja';

/**
 * The mark of a live screen whose refresh fails (use-live-updates.ts): the data on screen stays,
 * and this says since when it is not updated (HH:mm, Japan time). Floats under the header, so
 * every live screen shows it in the same place whatever its own heading holds.
 */
export function StaleDataMark({ since }: { since: Date | null }) {
  if (!since) return null;
  return (
    <p
      role="status"
      title={ja.liveData.retrying}
      className="fixed left-1/2 top-16 z-40 flex -translate-x-1/2 items-center gap-2 rounded-full border border-amber-300 bg-amber-50 px-3 py-1 text-xs font-medium text-amber-800 shadow"
    >
      <span className="h-2 w-2 animate-pulse rounded-full bg-amber-500" aria-hidden="true" />
      {ja.liveData.staleSince(formatDateTime(since).slice(11))}
    </p>
  );
}
