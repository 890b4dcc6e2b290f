import { useEffect, useRef } from 'react';

interface DialogProps {
  title: string;
  message?: string;
  confirmLabel: string;
  cancelLabel?: string;
  confirmTone?: 'primary' | 'danger';
  onConfirm: () => void;
  onCancel?: () => void;
  children?: React.ReactNode;
}

/** A modal confirm or message dialog (cancel is left out for a plain OK message). */
export function Dialog({ title, message, confirmLabel, cancelLabel, confirmTone = 'primary', onConfirm, onCancel, children }: DialogProps) {
  const confirmRef = useRef<HTMLButtonElement>(null);
  useEffect(() => confirmRef.current?.focus(), []);
  return (
    <div
      className="fixed inset-0 z-50 flex items-center justify-center bg-black/40 px-4"
      onKeyDown={(event) => event.key === 'Escape' && (onCancel ?? onConfirm)()}
    >
      <div role="alertdialog" aria-modal="true" aria-labelledby="dialog-title" className="card w-full max-w-md p-6">
        <h2 id="dialog-title" className="text-base font-semibold text-slate-800">
          {title}
        </h2>
        {message && <p className="mt-2 text-sm text-slate-600">{message}</p>}
        {children}
        <div className="mt-6 flex justify-end gap-2">
          {cancelLabel && onCancel && (
            <button type="button" className="btn-secondary" onClick={onCancel}>
              {cancelLabel}
            </button>
          )}
          <button ref={confirmRef} type="button" className={confirmTone === 'danger' ? 'btn-danger' : 'btn-primary'} onClick={onConfirm}>
            {confirmLabel}
          </button>
        </div>
      </div>
    </div>
  );
}
