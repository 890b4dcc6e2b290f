import { type KeyboardEvent, type ReactNode, useCallback, useEffect, useRef, useState } from 'react';

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

export interface ModalProps {
  /** Escape (and whatever the dialog's own cancel does) closes it. */
  onClose: () => void;
  /** The id of the dialog's title. */
  labelledBy: string;
  /** alertdialog for a confirmation or a message, dialog for a form. */
  role?: 'dialog' | 'alertdialog';
  /** The panel's width and padding classes. */
  panelClassName?: string;
  /** Whether a click on the backdrop closes it too (a settings panel; never a confirmation). */
  closeOnBackdrop?: boolean;
  /** The panel's language when it differs from the page's. */
  lang?: string;
  children: ReactNode;
}

/**
 * The one frame of every dialog (issue 13 §7: keyboard-usable forms): a backdrop and a modal
 * panel. Tab from the last control goes to the first and Shift+Tab from the first to the last,
 * so focus never leaves the dialog; Escape closes it; and when it closes, focus goes back to what
 * had it when it opened (the button or the link that opened it). Focus starts on the control the
 * dialog focuses itself (autoFocus, a ref), else on its first control.
 */
export function Modal({ onClose, labelledBy, role = 'dialog', panelClassName = 'max-w-md p-6', closeOnBackdrop = false, lang, children }: ModalProps) {
  const panel = useRef<HTMLDivElement>(null);
  // Read while rendering, before any control inside takes the focus.
  const [opener] = useState(() => (typeof document === 'undefined' ? null : (document.activeElement as HTMLElement | null)));
  useEffect(() => {
    if (panel.current && !panel.current.contains(document.activeElement)) controlsOf(panel.current)[0]?.focus();
    return () => {
      if (opener?.isConnected && opener !== document.body) opener.focus();
    };
  }, [opener]);
  const onKeyDown = useCallback(
    (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        event.preventDefault();
        onClose();
      } else if (event.key === 'Tab' && panel.current) {
        trapTab(event, controlsOf(panel.current));
      }
    },
    [onClose],
  );
  return (
    <div className="fixed inset-0 z-50 flex items-center justify-center bg-black/40 px-4" onKeyDown={onKeyDown} onClick={closeOnBackdrop ? onClose : undefined}>
      <div ref={panel} role={role} aria-modal="true" aria-labelledby={labelledBy} lang={lang} className={`card w-full ${panelClassName}`} onClick={closeOnBackdrop ? (event) => event.stopPropagation() : undefined}>
        {children}
      </div>
    </div>
  );
}

function controlsOf(panel: HTMLElement): HTMLElement[] {
  return [...panel.querySelectorAll<HTMLElement>(FOCUSABLE)];
}

/** Tab past the last control comes round to the first, Shift+Tab before the first to the last. */
function trapTab(event: KeyboardEvent, controls: HTMLElement[]) {
  if (controls.length === 0) return;
  const first = controls[0];
  const last = controls[controls.length - 1];
  const inside = controls.includes(document.activeElement as HTMLElement);
  if (event.shiftKey && (document.activeElement === first || !inside)) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && (document.activeElement === last || !inside)) {
    event.preventDefault();
    first.focus();
  }
}
