import { useState } from 'react';

/**
 * The copyright line; a click hides it (000 §2). Fixed at the bottom right from 640 px, where the
 * layout keeps a bottom padding of its height (h-6) so it never covers a table's last row; on
 * phones it is the last line of the page instead of covering the popup's edge.
 */
export function Footer() {
  const [hidden, setHidden] = useState(false);
  if (hidden) return null;
  return (
    <footer
      className="z-20 h-6 cursor-pointer bg-slate-800/80 px-3 py-1 text-center text-[11px] leading-4 text-white/80 sm:fixed sm:bottom-0 sm:right-0 sm:rounded-tl-md"
      title="クリックで非表示"
      onClick={() => setHidden(true)}
    >
      © {new Date().getFullYear()} On-Reco Inc. All rights reserved.
    </footer>
  );
}
