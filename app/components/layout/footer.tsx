import { useState } from 'react';

/** The copyright line; a click hides it (000 §2) so it never covers a table's last row. */
export function Footer() {
  const [hidden, setHidden] = useState(false);
  if (hidden) return null;
  return (
    <footer
      className="fixed bottom-0 right-0 z-20 cursor-pointer rounded-tl-md bg-slate-800/80 px-3 py-1 text-[11px] text-white/80"
      title="クリックで非表示"
      onClick={() => setHidden(true)}
    >
      © {new Date().getFullYear()} On-Reco Inc. All rights reserved.
    </footer>
  );
}
