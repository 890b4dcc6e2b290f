import { Link, useNavigate } from '@remix-run/react';
import { useState } from 'react';
import { CloseIcon } from '~/components/icons';
import { ja } from '~/domain/texts/ja';
import { Dialog } from './dialog';

/**
 * The close icon every form has (001 §2): it always asks before leaving, touched or not, as the
 * specification says every form does (decision 274). Without JavaScript it is a plain link to the
 * same place.
 */
export function FormCloseButton({ to }: { to: string }) {
  const [asking, setAsking] = useState(false);
  const navigate = useNavigate();
  return (
    <>
      <Link
        to={to}
        aria-label={ja.buttons.close}
        className="rounded-full p-1.5 text-slate-500 hover:bg-slate-100 hover:text-slate-800"
        onClick={(event) => {
          event.preventDefault();
          setAsking(true);
        }}
      >
        <CloseIcon className="h-6 w-6" />
      </Link>
      {asking && (
        <Dialog
          title={ja.discardDialog.title}
          message={ja.discardDialog.message}
          cancelLabel={ja.discardDialog.keepEditing}
          confirmLabel={ja.discardDialog.discard}
          confirmTone="danger"
          onCancel={() => setAsking(false)}
          onConfirm={() => navigate(to)}
        />
      )}
    </>
  );
}
