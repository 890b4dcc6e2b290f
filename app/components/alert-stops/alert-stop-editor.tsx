import { Form, useNavigation } from '@remix-run/react';
import { type FormEvent, useMemo, useState } from 'react';
import { StatusBar } from '~/components/status-bar';
import { useHydrated } from '~/components/use-hydrated';
import {
  ALERT_STOP_MESSAGES,
  AlertScheduleSaveSchema,
  CELL_COUNT,
  CELL_MINUTES,
  type Cells,
  type DayRange,
  type EditorState,
  WEEKDAY_FLAGS,
  WEEKDAY_LABELS,
  applyDialog,
  cellField,
  clearRange,
  compactOfIso,
  emptyCells,
  hourMinute,
  cellsRangesText,
  isoDate,
  presetFor,
  saveBodyOf,
  showsEndDate,
} from '~/domain/alert-stop-editor';
import { SCHEDULE_TYPE, TERM_TYPE, TIME_TARGET_TYPE, type ScheduleType, type TermType, type TimeTargetType } from '~/domain/alert-stop-schedule';
import { TimeSetDialog } from './time-set-dialog';

export interface Sensor {
  equipment_id: number;
  equipment_name: string;
}

interface Props {
  storeId: string;
  scheduleId: number | null;
  sensors: readonly Sensor[];
  initial: EditorState;
  /** The server's messages by field (start_date, end_date, sun_flg, times, store_id). */
  serverFields: Record<string, string>;
}

type Row = { key: 'store' | number; label: string };


const fieldsOfIssues = (issues: readonly { path: (string | number)[]; message: string }[]) => {
  const fields: Record<string, string> = {};
  for (const issue of issues) fields[issue.path.join('.') || '_'] ??= issue.message;
  return fields;
};

/** The alert-stop editor's form (001 §2 "Alert-stop edit"). */
export function AlertStopEditorForm({ storeId, scheduleId, sensors, initial, serverFields }: Props) {
  // Before hydration (and without JavaScript) every part of the form is shown and the server applies the rules.
  const hydrated = useHydrated();
  const navigation = useNavigation();
  const [state, setState] = useState<EditorState>(initial);
  // After a refused save the fields are checked again on every change, so a fixed field loses its message.
  const [tried, setTried] = useState(false);
  const [dialog, setDialog] = useState<{ row: Row; preset: DayRange; old: DayRange | null } | null>(null);
  const fields = useMemo(() => {
    if (!tried) return serverFields;
    const parsed = AlertScheduleSaveSchema.safeParse(saveBodyOf(storeId, scheduleId, state, sensors));
    return parsed.success ? {} : fieldsOfIssues(parsed.error.issues);
  }, [tried, serverFields, storeId, scheduleId, state, sensors]);

  const update = (change: Partial<EditorState>) => setState((current) => ({ ...current, ...change }));
  const periodic = state.scheduleType === SCHEDULE_TYPE.periodic;
  const weekly = periodic || state.termType === TERM_TYPE.weekly;
  const showEnd = !hydrated || showsEndDate(state.scheduleType, state.termType);
  const showWeekdays = !hydrated || weekly;
  const rows: Row[] = [
    ...(!hydrated || state.target === TIME_TARGET_TYPE.store ? [{ key: 'store' as const, label: '店舗全体' }] : []),
    ...(!hydrated || state.target === TIME_TARGET_TYPE.sensor ? sensors.map((sensor) => ({ key: sensor.equipment_id, label: sensor.equipment_name })) : []),
  ];
  const cellsOfRow = (key: Row['key']): Cells => (key === 'store' ? state.storeCells : state.sensorCells[key] ?? emptyCells());
  const setCellsOfRow = (key: Row['key'], cells: boolean[]) =>
    setState((current) => (key === 'store' ? { ...current, storeCells: cells } : { ...current, sensorCells: { ...current.sensorCells, [key]: cells } }));

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    const parsed = AlertScheduleSaveSchema.safeParse(saveBodyOf(storeId, scheduleId, state, sensors));
    if (parsed.success) return;
    event.preventDefault();
    setTried(true);
  };

  const hasErrors = Object.keys(fields).length > 0;
  return (
    <>
      <StatusBar tone="error" message={hasErrors ? ALERT_STOP_MESSAGES.banner : null} />
      <Form method="post" className="card space-y-6 p-4 sm:p-6" noValidate onSubmit={onSubmit}>
        <fieldset>
          <legend className="label">種別</legend>
          <div className="flex gap-6">
            {([
              [SCHEDULE_TYPE.sequential, '単発'],
              [SCHEDULE_TYPE.periodic, '定期'],
            ] as const).map(([value, label]) => (
              <label key={value} className="flex items-center gap-2 text-sm text-slate-700">
                <input
                  type="radio"
                  name="schedule_type"
                  value={value}
                  checked={state.scheduleType === value}
                  onChange={() => update({ scheduleType: value as ScheduleType, ...(value === SCHEDULE_TYPE.periodic ? { termType: TERM_TYPE.weekly } : {}) })}
                />
                {label}
              </label>
            ))}
          </div>
        </fieldset>

        <fieldset>
          <legend className="label">期間の種類</legend>
          <div className="flex gap-6">
            {([
              [TERM_TYPE.weekly, '週'],
              [TERM_TYPE.daily, '日'],
              [TERM_TYPE.freePeriod, '期間指定'],
            ] as const).map(([value, label]) => {
              const disabled = hydrated && periodic && value !== TERM_TYPE.weekly;
              return (
                <label key={value} className={`flex items-center gap-2 text-sm ${disabled ? 'text-slate-400' : 'text-slate-700'}`}>
                  <input type="radio" name="term_type" value={value} checked={state.termType === value} disabled={disabled} onChange={() => update({ termType: value as TermType })} />
                  {label}
                </label>
              );
            })}
          </div>
          {!hydrated && <p className="mt-1 text-xs text-slate-500">定期は週単位です。日・期間指定は単発のみです。</p>}
        </fieldset>

        <div className="grid gap-4 sm:grid-cols-2">
          <div>
            <label htmlFor="start_date" className="label">開始日</label>
            <input
              id="start_date"
              name="start_date"
              type="date"
              className="input"
              value={isoDate(state.startDate)}
              onChange={(event) => update({ startDate: compactOfIso(event.target.value) })}
              aria-invalid={fields.start_date ? true : undefined}
              aria-describedby="start_date-error"
            />
            <p id="start_date-error" className="field-error">{fields.start_date}</p>
          </div>
          {showEnd && (
            <div>
              <label htmlFor="end_date" className="label">終了日</label>
              <div className="flex gap-2">
                <input
                  id="end_date"
                  name="end_date"
                  type="date"
                  className="input"
                  value={isoDate(state.endDate)}
                  onChange={(event) => update({ endDate: compactOfIso(event.target.value) })}
                  aria-invalid={fields.end_date ? true : undefined}
                  aria-describedby="end_date-error"
                />
                {hydrated && (
                  <button type="button" className="btn-secondary shrink-0" onClick={() => update({ endDate: '' })}>
                    クリア
                  </button>
                )}
              </div>
              <p id="end_date-error" className="field-error">{fields.end_date}</p>
              {!hydrated && <p className="mt-1 text-xs text-slate-500">単発の期間指定と定期のときに使います。空欄は終了日なしです。</p>}
            </div>
          )}
        </div>

        {showWeekdays && (
          <fieldset>
            <legend className="label">曜日{!hydrated && <span className="ml-2 text-xs font-normal text-slate-500">(週のときのみ)</span>}</legend>
            <div className="flex flex-wrap gap-4">
              {WEEKDAY_FLAGS.map((name, index) => (
                <label key={name} className={`flex items-center gap-1.5 text-sm ${index === 0 ? 'text-red-600' : index === 6 ? 'text-blue-600' : 'text-slate-700'}`}>
                  <input
                    type="checkbox"
                    name={name}
                    value="1"
                    checked={state.weekdays[index]}
                    onChange={(event) => update({ weekdays: state.weekdays.map((day, other) => (other === index ? event.target.checked : day)) })}
                  />
                  {WEEKDAY_LABELS[index]}
                </label>
              ))}
            </div>
            <p className="field-error">{fields.sun_flg}</p>
          </fieldset>
        )}

        <fieldset>
          <legend className="label">対象</legend>
          <div className="flex gap-6">
            {([
              [TIME_TARGET_TYPE.store, '店舗'],
              [TIME_TARGET_TYPE.sensor, 'センサ別'],
            ] as const).map(([value, label]) => (
              <label key={value} className="flex items-center gap-2 text-sm text-slate-700">
                <input type="radio" name="time_target_type" value={value} checked={state.target === value} onChange={() => update({ target: value as TimeTargetType })} />
                {label}
              </label>
            ))}
          </div>
        </fieldset>

        <div>
          <p className="label">警報停止時間</p>
          <p className="mb-2 text-xs text-slate-500">
            {hydrated ? '30分のマスをタップ（クリック）して時間を設定します。' : 'チェックしたマス (30分単位) が停止時間になります。店舗は「店舗」を、センサ別は各センサの行を使います。'}
          </p>
          <TimeGrid rows={rows} cellsOf={cellsOfRow} interactive={hydrated} onCell={(row, index) => {
            const cells = cellsOfRow(row.key);
            const preset = presetFor(cells, index);
            setDialog({ row, preset, old: cells[index] ? preset : null });
          }} />
          <p className="field-error" role={fields.times ? 'alert' : undefined}>{fields.times}</p>
          {fields.store_id && <p className="field-error">{fields.store_id === ALERT_STOP_MESSAGES.noSensors ? 'この店舗にはセンサがありません。' : fields.store_id}</p>}
        </div>

        <div className="flex justify-end">
          {sensors.length > 0 ? (
            <button type="submit" className="btn-primary" disabled={navigation.state === 'submitting'}>
              保存
            </button>
          ) : (
            <p className="text-sm text-amber-700">この店舗にはセンサがないため保存できません。</p>
          )}
        </div>
      </Form>
      {dialog && (
        <TimeSetDialog
          label={dialog.row.label}
          preset={dialog.preset}
          onCancel={() => setDialog(null)}
          onClear={() => {
            setCellsOfRow(dialog.row.key, clearRange(cellsOfRow(dialog.row.key), dialog.preset));
            setDialog(null);
          }}
          onDecide={(range) => {
            setCellsOfRow(dialog.row.key, applyDialog(cellsOfRow(dialog.row.key), dialog.old, range));
            setDialog(null);
          }}
        />
      )}
    </>
  );
}

const HOURS = Array.from({ length: 24 }, (_, hour) => hour);

/**
 * The day of 30-minute cells, one block for the store or per sensor. Each cell is a checkbox
 * (named cells.store / cells.<equipment_id>, value the cell's index), so the form works without
 * JavaScript; with it, a tap opens the time-set dialog instead. One markup for every width (the
 * checkboxes must not be posted twice): from lg the 48 cells make one line under the hour header;
 * below it they wrap into lines of 4 hours (8 hours at md), each cell showing its start time, so a
 * phone reaches the whole day without a sideways scroll and every cell is a thumb-sized target.
 */
function TimeGrid({ rows, cellsOf, interactive, onCell }: { rows: readonly Row[]; cellsOf: (key: Row['key']) => Cells; interactive: boolean; onCell: (row: Row, index: number) => void }) {
  return (
    <div className="rounded-md border border-slate-200" data-testid="time-grid">
      <div className="hidden border-b border-slate-200 bg-slate-50 text-xs font-medium text-slate-500 lg:flex" aria-hidden>
        <span className="w-36 shrink-0 px-2 py-1">対象</span>
        <span className="grid flex-1 grid-cols-[repeat(24,minmax(0,1fr))]">
          {HOURS.map((hour) => (
            <span key={hour} className="border-l border-slate-200 py-1 text-center tabular-nums">{hour}</span>
          ))}
        </span>
      </div>
      {rows.map((row, rowIndex) => {
        const cells = cellsOf(row.key);
        const set = cellsRangesText(cells);
        return (
          <div key={row.key} role="group" aria-labelledby={`grid-row-${row.key}`} className={`lg:flex ${rowIndex > 0 ? 'border-t border-slate-200' : ''}`}>
            <div className="flex min-w-0 flex-wrap items-baseline gap-x-3 px-2 py-1.5 lg:w-36 lg:shrink-0 lg:py-1">
              <span id={`grid-row-${row.key}`} className="truncate text-sm font-medium text-slate-700 lg:text-xs lg:font-normal" title={row.label}>{row.label}</span>
              <span className="text-xs tabular-nums text-slate-500 lg:hidden" data-testid="grid-row-ranges">{set || '未設定'}</span>
            </div>
            <div className="grid flex-1 grid-cols-8 gap-px bg-slate-200 p-px md:grid-cols-[repeat(16,minmax(0,1fr))] lg:grid-cols-[repeat(48,minmax(0,1fr))] lg:gap-0 lg:bg-transparent lg:p-0">
              {Array.from({ length: CELL_COUNT }, (_, index) => {
                const start = index * CELL_MINUTES;
                const name = `${row.label} ${hourMinute(start)}〜${hourMinute(start + CELL_MINUTES)}`;
                return (
                  <label
                    key={index}
                    className={`group block cursor-pointer bg-white lg:bg-transparent ${index % 2 === 0 ? 'lg:border-l lg:border-slate-200' : 'lg:border-l lg:border-dashed lg:border-slate-100'}`}
                    title={name}
                  >
                    <input
                      type="checkbox"
                      name={cellField(row.key)}
                      value={index}
                      className="peer sr-only"
                      aria-label={name}
                      checked={cells[index]}
                      onChange={() => undefined}
                      onClick={(event) => {
                        if (!interactive) return;
                        event.preventDefault();
                        onCell(row, index);
                      }}
                    />
                    {/* The look follows the checkbox itself, so it is right without JavaScript too. */}
                    <span className="flex h-10 w-full items-center justify-center text-[11px] tabular-nums text-slate-600 group-hover:bg-brand-50 peer-checked:bg-brand-600 peer-checked:font-semibold peer-checked:text-white peer-checked:group-hover:bg-brand-700 peer-focus-visible:ring-2 peer-focus-visible:ring-inset peer-focus-visible:ring-brand-700 lg:h-7">
                      <span className="lg:hidden" aria-hidden>{hourMinute(start)}</span>
                    </span>
                  </label>
                );
              })}
            </div>
          </div>
        );
      })}
    </div>
  );
}
