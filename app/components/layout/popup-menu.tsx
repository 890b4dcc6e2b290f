import { useLocation } from '@remix-run/react';
import { type ReactNode, useCallback, useEffect, useId, useRef, useState } from 'react';
import { useFocusOnOpen, useModalKeys } from '~/components/use-modal-keys';

/**
 * A header menu: a disclosure (<details>: it opens and closes without JavaScript) whose panel has
 * a title and plain links. With JavaScript, focus moves into the panel when it opens, Tab stays
 * in the menu while it is open, Escape closes it from anywhere inside and focus returns to its
 * button; a click outside closes it too, and opening one menu closes the others. Following a link
 * closes it (a client-side navigation keeps the header mounted, so an open menu would cover the new page).
 */
export function PopupMenu({ label, title = label, icon, children, onOpen, badge, labelClassName = '' }: {
  label: string;
  /** The open panel's heading (the label by default). */
  title?: string;
  icon?: ReactNode;
  children: ReactNode;
  onOpen?: () => void;
  badge?: ReactNode;
  /** Where the label's text shows (it is the button's name everywhere). */
  labelClassName?: string;
}) {
  const details = useRef<HTMLDetailsElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const summary = useRef<HTMLElement>(null);
  const titleId = useId();
  const [open, setOpen] = useState(false);
  const close = useCallback(() => {
    if (details.current) details.current.open = false;
  }, []);
  const onKeyDown = useModalKeys(details, close);
  useFocusOnOpen(panel, open, summary);
  useEffect(() => {
    const closeOutside = (event: Event) => {
      if (details.current?.open && !details.current.contains(event.target as Node)) close();
    };
    document.addEventListener('click', closeOutside);
    return () => document.removeEventListener('click', closeOutside);
  }, [close]);
  const location = useLocation();
  useEffect(() => close(), [close, location.key]);
  return (
    <details
      ref={details}
      className="relative"
      onKeyDown={open ? onKeyDown : undefined}
      onToggle={(event) => {
        const isOpen = event.currentTarget.open;
        setOpen(isOpen);
        if (isOpen) onOpen?.();
      }}
    >
      <summary
        ref={summary}
        className="flex min-h-10 cursor-pointer select-none items-center gap-1.5 whitespace-nowrap rounded-md px-2.5 py-2 text-sm font-medium text-white/90 hover:bg-white/10 hover:text-white"
        aria-label={label}
      >
        {icon}
        <span className={labelClassName}>{label}</span>
        {badge}
      </summary>
      <div
        ref={panel}
        className="menu-panel"
        role="group"
        aria-labelledby={titleId}
        // A link to the page already shown changes no location: close on the click itself too.
        onClick={(event) => {
          if ((event.target as Element).closest('a[href]')) close();
        }}
      >
        <h2 id={titleId} className="border-b border-slate-100 px-4 py-2 text-xs font-semibold text-slate-500">
          {title}
        </h2>
        {children}
      </div>
    </details>
  );
}
