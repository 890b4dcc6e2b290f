import { useEffect, useRef } from 'react';
import { Modal } from './modal';

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
    <Modal role="alertdialog" labelledBy="dialog-title" onClose={onCancel ?? onConfirm}>
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
    </Modal>
  );
}
