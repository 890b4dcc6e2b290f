import { Form, Link, useNavigate, useNavigation } from '@remix-run/react';
import { useState } from 'react';
import { Modal } from '~/components/modal';
import { ALERT_HISTORY_MESSAGES, type AlertHistoryRowView, STOP_COMMENT_MAX } from '~/domain/alert-history';

/**
 * The stop confirmation (000 §2): the alert it stops, an optional corrective-action comment,
 * キャンセル and 停止. A real form posted to the page's action, so it works without JavaScript;
 * キャンセル is a link back to the list.
 */
export function StopDialog({ row, cancelHref, commentError, initialComment = '' }: { row: AlertHistoryRowView; cancelHref: string; commentError?: string; initialComment?: string }) {
  const navigation = useNavigation();
  const navigate = useNavigate();
  const [comment, setComment] = useState(initialComment);
  const length = [...comment].length;
  const submitting = navigation.state === 'submitting' && navigation.formMethod?.toUpperCase() === 'POST';
  return (
    <Modal role="alertdialog" labelledBy="stop-dialog-title" panelClassName="max-w-lg p-6" onClose={() => navigate(cancelHref, { preventScrollReset: true, replace: true })}>
      <Form method="post" preventScrollReset replace>
        <h2 id="stop-dialog-title" className="text-base font-semibold text-slate-800">
          {ALERT_HISTORY_MESSAGES.stopConfirm}
        </h2>
        <dl className="mt-3 grid grid-cols-[5.5rem_1fr] gap-x-3 gap-y-1 rounded-md bg-slate-50 px-4 py-3 text-sm">
          <dt className="text-slate-500">センサ名</dt>
          <dd className="font-medium text-slate-800">{row.sensorName}</dd>
          <dt className="text-slate-500">警報内容</dt>
          <dd className="font-medium text-red-600">{row.alertText}</dd>
          <dt className="text-slate-500">発生日時</dt>
          <dd className="tabular-nums text-slate-700">{row.startedAt}</dd>
        </dl>
        <p className="mt-3 text-xs text-slate-500">停止した警報は発生中のまま残りますが、再通知されなくなります。復旧すると終了します。</p>
        <input type="hidden" name="equipment_id" value={row.equipmentId ?? ''} />
        <input type="hidden" name="alert_id" value={row.alertId} />
        <div className="mt-4">
          <label htmlFor="stop-comment" className="label">
            対応コメント<span className="ml-1 text-xs font-normal text-slate-500">（任意）</span>
          </label>
          <textarea
            id="stop-comment"
            name="comment"
            rows={3}
            maxLength={STOP_COMMENT_MAX}
            className="input resize-y"
            placeholder="例: 扉が開いていたため閉めました"
            value={comment}
            onChange={(event) => setComment(event.target.value)}
            aria-invalid={commentError ? true : undefined}
            aria-describedby="stop-comment-count"
            autoFocus
          />
          <div className="flex justify-between gap-2">
            <p className="field-error">{commentError}</p>
            <p id="stop-comment-count" className={`mt-1 text-xs ${length > STOP_COMMENT_MAX ? 'text-red-600' : 'text-slate-400'}`}>
              {length} / {STOP_COMMENT_MAX}
            </p>
          </div>
        </div>
        <div className="mt-6 flex justify-end gap-2">
          <Link to={cancelHref} role="button" className="btn-secondary" preventScrollReset replace>
            キャンセル
          </Link>
          <button type="submit" className="btn-danger" disabled={submitting}>
            停止
          </button>
        </div>
      </Form>
    </Modal>
  );
}

/** A message with OK (the failures of 000 §8); OK is a link, so it also closes without JavaScript. */
export function MessageDialog({ message, okHref, onOk }: { message: string; okHref?: string; onOk?: () => void }) {
  const navigate = useNavigate();
  return (
    <Modal role="alertdialog" labelledBy="message-dialog-text" panelClassName="max-w-sm p-6" onClose={() => (okHref ? navigate(okHref, { preventScrollReset: true, replace: true }) : onOk?.())}>
      <p id="message-dialog-text" className="text-sm font-medium text-slate-800">
        {message}
      </p>
      <div className="mt-6 flex justify-end">
        {okHref ? (
          <Link to={okHref} role="button" className="btn-primary" preventScrollReset replace>
            OK
          </Link>
        ) : (
          <button type="button" className="btn-primary" onClick={onOk} autoFocus>
            OK
          </button>
        )}
      </div>
    </Modal>
  );
}
