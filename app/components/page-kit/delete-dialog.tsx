import { Form, Link, useNavigate } from '@remix-run/react';
import { useEffect, useRef } from 'react';
import { Modal } from '~/components/modal';

export interface DeleteDialogProps {
  /** 001 §2: 'データを削除しますか？'. */
  title: string;
  /** What is deleted, under the title. */
  message?: string;
  /** Where cancel and Escape go (the list without the dialog's parameter). */
  cancelHref: string;
  /** The hidden fields the action reads (intent, the id). */
  fields: Record<string, string>;
  confirmLabel?: string;
  cancelLabel?: string;
}

/**
 * The delete confirmation of a list (001 §2: cancel / delete data). Opened by a link with the
 * row's id in the URL, so it works without JavaScript; the delete is a POST to the page's action.
 * Focus starts on cancel and stays inside the dialog (Modal); Escape cancels.
 */
export function DeleteDialog({ title, message, cancelHref, fields, confirmLabel = 'データを削除', cancelLabel = 'キャンセル' }: DeleteDialogProps) {
  const navigate = useNavigate();
  const cancel = useRef<HTMLAnchorElement>(null);
  useEffect(() => cancel.current?.focus(), []);
  return (
    <Modal role="alertdialog" labelledBy="delete-dialog-title" onClose={() => navigate(cancelHref, { preventScrollReset: true })}>
      <h2 id="delete-dialog-title" className="text-base font-semibold text-slate-800">{title}</h2>
      {message && <p className="mt-2 text-sm text-slate-600">{message}</p>}
      <Form method="post" className="mt-6 flex justify-end gap-2">
        {Object.entries(fields).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <Link ref={cancel} to={cancelHref} className="btn-secondary" preventScrollReset>{cancelLabel}</Link>
        <button type="submit" className="btn-danger">{confirmLabel}</button>
      </Form>
    </Modal>
  );
}
