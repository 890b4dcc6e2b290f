import { useEffect, useRef, useState } from 'react';
import { END_CHOICES, START_CHOICES, type DayRange, checkRange, hourMinute, pickedOfEnd } from '~/domain/alert-stop-editor';
import { Modal } from '~/components/modal';

export const TIME_ORDER_MESSAGE = '開始時刻は終了時刻より前にしてください';

interface Props {
  /** What the row is (the store or a sensor's name). */
  label: string;
  preset: DayRange;
  onDecide: (range: DayRange) => void;
  onClear: () => void;
  onCancel: () => void;
}

/**
 * The time-set dialog of the alert-stop grid (001 §4): start and end pickers in 30-minute steps
 * (end 00:00 is 24:00), cancel, decide (start must be before end) and clear. Keyboard: focus
 * starts on the start picker, Tab stays inside, Escape cancels.
 */
export function TimeSetDialog({ label, preset, onDecide, onClear, onCancel }: Props) {
  const [start, setStart] = useState(preset.start);
  const [end, setEnd] = useState(pickedOfEnd(preset.end));
  const [error, setError] = useState<string | null>(null);
  const first = useRef<HTMLSelectElement>(null);
  useEffect(() => first.current?.focus(), []);
  const decide = () => {
    const range = checkRange(start, end);
    if (!range) setError(TIME_ORDER_MESSAGE);
    else onDecide(range);
  };
  return (
    <Modal labelledBy="time-set-title" panelClassName="max-w-sm p-6" onClose={onCancel}>
      <h2 id="time-set-title" className="text-base font-semibold text-slate-800">警報停止時間の設定</h2>
      <p className="mt-1 text-sm text-slate-500">{label}</p>
      <div className="mt-4 flex items-end gap-3">
        <div className="flex-1">
          <label htmlFor="time-set-start" className="label">開始</label>
          <select id="time-set-start" ref={first} className="input" value={start} onChange={(event) => setStart(Number(event.target.value))} aria-invalid={error ? true : undefined}>
            {START_CHOICES.map((minute) => (
              <option key={minute} value={minute}>{hourMinute(minute)}</option>
            ))}
          </select>
        </div>
        <span className="pb-2 text-slate-500">〜</span>
        <div className="flex-1">
          <label htmlFor="time-set-end" className="label">終了</label>
          <select id="time-set-end" className="input" value={end} onChange={(event) => setEnd(Number(event.target.value))} aria-invalid={error ? true : undefined}>
            {END_CHOICES.map((minute) => (
              <option key={minute} value={pickedOfEnd(minute)}>{hourMinute(pickedOfEnd(minute))}</option>
            ))}
          </select>
        </div>
      </div>
      <p className="field-error" role="alert">{error}</p>
      <p className="mt-2 text-xs text-slate-500">終了の 00:00 は 24:00 (その日の終わり) です。</p>
      <div className="mt-6 flex items-center justify-between gap-2">
        <button type="button" className="btn-secondary" onClick={onClear}>
          クリア
        </button>
        <div className="flex gap-2">
          <button type="button" className="btn-secondary" onClick={onCancel}>
            キャンセル
          </button>
          <button type="button" className="btn-primary" onClick={decide}>
            決定
          </button>
        </div>
      </div>
    </Modal>
  );
}
