import { type ReactNode, useRef, useState } from 'react';
import { useFocusOnOpen, useModalKeys } from '~/components/use-modal-keys';

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
  // Read while rendering, before any control inside takes the focus (none on the server).
  const [opener] = useState(() => (typeof document === 'undefined' || document.activeElement === document.body ? null : (document.activeElement as HTMLElement | null)));
  useFocusOnOpen(panel, true, opener);
  const onKeyDown = useModalKeys(panel, onClose);
  return (
    <div className="fixed inset-0 z-50 flex items-center justify-center bg-black/40 px-4" onKeyDown={onKeyDown} onClick={closeOnBackdrop ? onClose : undefined}>
      <div ref={panel} role={role} aria-modal="true" aria-labelledby={labelledBy} lang={lang} className={`card w-full ${panelClassName}`} onClick={closeOnBackdrop ? (event) => event.stopPropagation() : undefined}>
        {children}
      </div>
    </div>
  );
}
