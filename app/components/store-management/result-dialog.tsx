import { Link } from '@remix-run/react';
import { useEffect, useRef, useState } from 'react';
import { Modal } from '~/components/modal';

/**
 * A failure message with OK (交換に失敗しました, 撤去に失敗しました …). OK closes it and goes
 * back to the page (so it shows the store as it is now); without JavaScript it is the same link.
 * Give it a key per failure so a new failure opens it again.
 */
export function FailureDialog({ title, message, pagePath }: { title: string; message?: string; pagePath: string }) {
  const [open, setOpen] = useState(true);
  const okRef = useRef<HTMLAnchorElement>(null);
  useEffect(() => okRef.current?.focus(), []);
  if (!open) return null;
  return (
    <Modal role="alertdialog" labelledBy="failure-title" onClose={() => setOpen(false)}>
      <h2 id="failure-title" className="text-base font-semibold text-red-700">{title}</h2>
      {message && <p className="mt-2 text-sm text-slate-600">{message}</p>}
      <div className="mt-6 flex justify-end">
        <Link
          to={pagePath}
          ref={okRef}
          className="btn-primary"
          replace
          // Closing reloads the page's data too: a failure often means the store changed meanwhile.
          onClick={() => setOpen(false)}
        >
          OK
        </Link>
      </div>
    </Modal>
  );
}
