import { type ReactNode, useEffect, useRef } from 'react';

/**
 * A header popup. A <details> element opens and closes without JavaScript; with it, a click
 * outside or Escape closes it, and opening one popup closes the others.
 */
export function PopupMenu({ label, icon, children, onOpen, badge }: { label: string; icon?: ReactNode; children: ReactNode; onOpen?: () => void; badge?: ReactNode }) {
  const ref = useRef<HTMLDetailsElement>(null);
  useEffect(() => {
    const close = (event: Event) => {
      const details = ref.current;
      if (!details?.open) return;
      if (event instanceof KeyboardEvent ? event.key === 'Escape' : !details.contains(event.target as Node)) details.open = false;
    };
    document.addEventListener('click', close);
    document.addEventListener('keydown', close);
    return () => {
      document.removeEventListener('click', close);
      document.removeEventListener('keydown', close);
    };
  }, []);
  return (
    <details ref={ref} className="relative" onToggle={(event) => event.currentTarget.open && onOpen?.()}>
      <summary
        className="flex cursor-pointer select-none items-center gap-1.5 rounded-md px-3 py-2 text-sm font-medium text-white/90 hover:bg-white/10 hover:text-white"
        aria-label={label}
      >
        {icon}
        <span className="hidden md:inline">{label}</span>
        {badge}
      </summary>
      <div className="menu-panel" role="menu">
        {children}
      </div>
    </details>
  );
}
