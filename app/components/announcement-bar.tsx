import { formatDateTime, parseCompact } from '~/domain/japan-time';
import type { Notice } from '~/domain/notice-schemas';

/** The latest announcement (created within 7 days); hidden when there is none or it failed to load. */
export function AnnouncementBar({ notice }: { notice: Notice | null }) {
  if (!notice) return null;
  return (
    <aside className="flex flex-wrap items-start gap-x-3 gap-y-1 border-b border-amber-200 bg-amber-50 px-4 py-2 text-sm text-amber-900 sm:px-6" aria-label="最新のお知らせ">
      <span className="shrink-0 rounded bg-amber-700 px-2 py-0.5 text-xs font-bold text-white">お知らせ</span>
      <span className="shrink-0 text-xs leading-5 text-amber-700">{formatDateTime(parseCompact(notice.created_datetime)!)}</span>
      <span className="font-semibold">{notice.title}</span>
      <span className="w-full truncate text-amber-800 sm:w-auto sm:min-w-0 sm:flex-1">{notice.content}</span>
    </aside>
  );
}
