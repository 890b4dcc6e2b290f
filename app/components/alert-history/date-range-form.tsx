import { Form } from '@remix-run/react';
import type { CategorySelection } from '~/domain/alert-history';

const dashed = (value: string) => (/^\d{8}$/.test(value) ? `${value.slice(0, 4)}-${value.slice(4, 6)}-${value.slice(6)}` : value);

/**
 * The date range (Japan dates, both inclusive). A GET form: it keeps the category and starts
 * at page 1. The server checks the dates and answers with the field errors.
 */
export function DateRangeForm({
  startDate,
  endDate,
  selection,
  errors,
}: {
  startDate: string;
  endDate: string;
  selection: CategorySelection;
  errors: Record<string, string>;
}) {
  const error = errors.start_date ?? errors.end_date;
  return (
    <Form method="get" className="card mb-4 p-4" preventScrollReset>
      {selection.type === 'kind' && <input type="hidden" name="kind" value={selection.kind} />}
      {selection.type === 'sensors' && <input type="hidden" name="equipment_id" value={selection.equipmentIds.join(',')} />}
      <div className="flex flex-wrap items-end gap-3">
        <DateField name="start_date" label="開始日" value={startDate} invalid={Boolean(errors.start_date)} described={Boolean(error)} />
        <span className="pb-2 text-slate-500" aria-hidden>〜</span>
        <DateField name="end_date" label="終了日" value={endDate} invalid={Boolean(errors.end_date)} described={Boolean(error)} />
        <button type="submit" className="btn-primary">表示</button>
      </div>
      {error && (
        <p id="date-range-error" className="field-error" role="alert">
          {error}
        </p>
      )}
    </Form>
  );
}

function DateField({ name, label, value, invalid, described }: { name: string; label: string; value: string; invalid: boolean; described: boolean }) {
  return (
    <div>
      <label htmlFor={name} className="label">{label}</label>
      <input
        id={name}
        name={name}
        type="date"
        defaultValue={dashed(value)}
        className="input w-44"
        aria-invalid={invalid || undefined}
        aria-describedby={described ? 'date-range-error' : undefined}
      />
    </div>
  );
}
