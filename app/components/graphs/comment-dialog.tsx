import { useFetcher } from '@remix-run/react';
import { useEffect, useRef } from 'react';
import { Modal } from '~/components/modal';
import { COMMENT_MAX, GRAPH_TEXTS } from '~/domain/graph';

export interface CommentTarget {
  equipmentId: number;
  sensorName: string;
  colour: string;
  /** The point's time as the chart shows it. */
  label: string;
  /** YYYYMMDDHHmmss sent as start_date: the commented reading, or the point's time (the nearest reading is used). */
  startDate: string;
  /** The comment already on the point, if any. */
  comment: string;
}

type CommentResult = { ok: true; message: string } | { ok: false; message: string };

/**
 * The small dialog that a click on a point opens (sensors with comment_required = 1 only): the
 * comment on that reading, saved through the page's action; an empty text removes it.
 */
export function CommentDialog({ target, onClose }: { target: CommentTarget; onClose: () => void }) {
  const fetcher = useFetcher<CommentResult>();
  const textRef = useRef<HTMLTextAreaElement>(null);
  useEffect(() => textRef.current?.focus(), []);
  useEffect(() => {
    if (fetcher.state === 'idle' && fetcher.data?.ok) onClose();
  }, [fetcher.state, fetcher.data, onClose]);
  const failure = fetcher.state === 'idle' && fetcher.data && !fetcher.data.ok ? fetcher.data.message : null;
  return (
    <Modal labelledBy="comment-title" onClose={onClose}>
      <h2 id="comment-title" className="text-base font-semibold text-slate-800">
        {GRAPH_TEXTS.commentTitle}
      </h2>
      <p className="mt-2 flex items-center gap-2 text-sm text-slate-600">
        <span className="h-1 w-4 rounded-full" style={{ backgroundColor: target.colour }} aria-hidden />
        <span className="font-medium text-slate-700">{target.sensorName}</span>
        <span className="text-slate-400">{target.label}</span>
      </p>
      <fetcher.Form method="post" className="mt-4">
        <input type="hidden" name="equipment_id" value={target.equipmentId} />
        <input type="hidden" name="start_date" value={target.startDate} />
        <label htmlFor="graph-comment" className="label">
          コメント
        </label>
        <textarea
          ref={textRef}
          id="graph-comment"
          name="comment"
          rows={3}
          maxLength={COMMENT_MAX}
          defaultValue={target.comment}
          className="input resize-none"
          aria-invalid={failure ? true : undefined}
        />
        {failure && <p className="field-error" role="alert">{failure}</p>}
        <div className="mt-6 flex justify-end gap-2">
          <button type="button" className="btn-secondary" onClick={onClose}>
            {GRAPH_TEXTS.commentCancel}
          </button>
          <button type="submit" className="btn-primary" disabled={fetcher.state !== 'idle'}>
            {GRAPH_TEXTS.commentSave}
          </button>
        </div>
      </fetcher.Form>
    </Modal>
  );
}
